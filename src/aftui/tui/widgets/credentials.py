"""An account's credentials: fetched only when asked, masked until revealed, hidden again soon after.

`step()` is the one action (the account screen's `v`), each press the next
step: fetch them (`include_credentials=true`) and show their names with
masked values; reveal the values for `reveal_seconds` with a countdown;
hide them now. When the time is up, or the screen is left, the values are
hidden and forgotten (the names stay), so the next reveal fetches again.

The values live in a `Secret` whose repr is masked, never in a notification,
a log line, or the account record the JSON tab shows. The countdown reads
the injected clock (the session's, fixed in snapshot tests; a test advances
it to see the values hidden without waiting).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import work
from textual.timer import Timer
from textual.widgets import Static

from ...api import ApiError
from ...api.models import Account
from ...text import visible
from ..safe import long_text, when

MASK = "••••••••"  # one length for every value: the mask says nothing about the secret
REVEAL_SECONDS = 30.0
# The non-secret fields that come with the credentials, shown masked or not.
AGES_S = 5.0  # how often the times beside masked values are worked out again (they read in minutes)
ABOUT = (("expires_at", "Expires"), ("last_refreshed_at", "Last refreshed"), ("next_refresh_at", "Next refresh"))


class Secret:
    """Credential values held for as long as they are shown; masked in any repr."""

    def __init__(self, values: dict[str, Any]) -> None:
        self._values = dict(values)

    def get(self, key: str) -> Any:
        return self._values.get(key)

    def __repr__(self) -> str:
        return f"Secret({', '.join(f'{k}=****' for k in self._values)})"

    __str__ = __repr__


class CredentialsPanel(Static):
    """States: idle (nothing fetched), loading, masked, revealed, failed."""

    DEFAULT_CSS = """
    CredentialsPanel { height: auto; padding: 0 1; }
    """

    def __init__(
        self,
        fetch: Callable[[], Awaitable[Account]],
        *,
        clock: Callable[[], datetime],
        reveal_seconds: float = REVEAL_SECONDS,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._fetch = fetch
        self._clock = clock
        self.reveal_seconds = reveal_seconds
        self.state = "idle"
        self.keys: list[str] = []
        self._secret: Secret | None = None
        self._about: dict[str, Any] = {}
        self._until: datetime | None = None
        self._timer: Timer | None = None
        self._problem = ""

    @property
    def held(self) -> bool:
        """Whether the values are in memory (between a fetch and the next hide)."""
        return self._secret is not None

    def on_mount(self) -> None:
        self._render_state()
        self.set_interval(AGES_S, self._age)

    def _age(self) -> None:
        """The times beside masked values ("expires … (in 42m)") move on too: only the reveal's tick drew them."""
        if self.state == "masked" and any(isinstance(v, datetime) for v in self._about.values()):
            self._render_state()

    def on_unmount(self) -> None:
        self.hide()

    # --- the one action -----------------------------------------------------------------------------

    def step(self) -> None:
        if self.state == "loading":
            return
        if self.state == "revealed":
            self.hide()
        elif self.state == "masked" and self.held:
            self.reveal()
        else:
            self._load(reveal=self.state == "masked")  # masked without values: they were forgotten; fetch and show

    def reveal(self) -> None:
        if not self.held:
            return
        self.state = "revealed"
        self._until = self._clock() + timedelta(seconds=self.reveal_seconds)
        if self._timer is None:
            self._timer = self.set_interval(0.5, self._tick)
        self._render_state()

    def hide(self) -> None:
        """Mask and forget the values; the names stay, so the user sees what there is to reveal."""
        self._secret = None
        self._until = None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.state in ("revealed", "masked"):
            self.state = "masked"
            if self.is_mounted:
                self._render_state()

    def seconds_left(self) -> int:
        if self._until is None:
            return 0
        return max(0, int((self._until - self._clock()).total_seconds() + 0.999))

    def _tick(self) -> None:
        if self.state != "revealed":
            return
        if self.seconds_left() <= 0:
            self.hide()
        else:
            self._render_state()

    @work(group="credentials", exclusive=True, exit_on_error=False)
    async def _load(self, *, reveal: bool) -> None:
        self.state = "loading"
        self._render_state()
        try:
            account = await self._fetch()
        except ApiError as error:
            self.state, self._problem = "failed", visible(error.message, 400)
            self._render_state()
            return
        values = account.credentials or {}
        self.keys = sorted(values, key=str.lower)
        self._secret = Secret(values)
        self._about = {name: getattr(account, name, None) for name, _ in ABOUT}
        self._about["error"] = account.error
        self.state = "masked"
        if reveal:
            self.reveal()
        else:
            self._render_state()

    # --- what is shown ------------------------------------------------------------------------------------

    def _render_state(self) -> None:
        self.update(self._picture())

    def _picture(self) -> Group | Text:
        if self.state == "idle":
            return Text.assemble(
                ("Not fetched. ", "bold"),
                "Press v to fetch them (include_credentials): they are shown masked, and v again reveals them for ",
                f"{self.reveal_seconds:g} s.",
            )
        if self.state == "loading":
            return Text("Fetching the credentials…", style="dim")
        if self.state == "failed":
            return Text.assemble(
                ("Could not fetch the credentials: ", "bold red"),
                (self._problem, "red"),
                ("\npress v to try again", "dim"),
            )
        return Group(self._status(), Text(""), self._table())

    def _status(self) -> Text:
        if self.state == "revealed":
            return Text.assemble(
                ("Revealed", "bold yellow"), f" · hidden again in {self.seconds_left()} s · v hides them now"
            )
        if not self.keys:
            return Text("The service sent no credentials for this account.", style="dim")
        if self.held:
            return Text.assemble(("Masked", "bold"), f" · v reveals the values for {self.reveal_seconds:g} s")
        return Text.assemble(("Hidden", "bold"), f" · v fetches and reveals them again for {self.reveal_seconds:g} s")

    def _table(self) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        secret = self._secret if self.state == "revealed" else None
        for key in self.keys:
            table.add_row(
                Text(visible(key, 60)), _value(secret.get(key)) if secret is not None else Text(MASK, style="dim")
            )
        now = self._clock()
        for name, label in ABOUT:
            value = self._about.get(name)
            if isinstance(value, datetime):
                table.add_row(
                    Text(label, style="dim"),
                    when(value, now)
                    if value <= now
                    else Text.assemble(when(value), (f" (in {_minutes(value - now)})", "dim")),
                )
        if self._about.get("error"):
            table.add_row(Text("Error", style="dim"), long_text(str(self._about["error"]), 500))
        return table


def _minutes(delta: timedelta) -> str:
    minutes = int(delta.total_seconds()) // 60
    return f"{minutes // 60}h {minutes % 60:02d}m" if minutes >= 60 else f"{minutes}m"


def _value(value: Any) -> Text:
    if isinstance(value, str):
        return Text(visible(value, 2000), style="yellow")
    return Text(visible(json.dumps(value, default=str), 2000), style="yellow")
