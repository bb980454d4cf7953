"""A detail that stands in for its subject from the journal while the service does not answer.

In an outage Health counts a workflow's errors and a source's events from the journal, and opening one said
"Could not load" alone (or showed loading dots for a minute and a half against a service that hung). When the
service fails in a way that may pass (`api.is_transient`), or has not answered in `HANG_S`, and the journal has
something of the subject from the last day, the detail opens on that instead: its name, why the rest is not
known, and what the journal kept, said as such. It asks the service again with the usual backoff and loads
whole once it answers, not rebuilt at each try (which took the cursor away from the row being read).
Changes are off meanwhile (`down`).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from rich.text import Text
from textual import work
from textual.widget import Widget

from ...api import ApiError, NetworkError, is_transient
from ...api.errors import with_status
from ...api.lateness import answered
from ...text import visible
from ..retry import AutoRetry
from .detail import DetailScreen

HANG_S = 5.0  # unanswered this long, a subject the journal has is shown from it (the header says "waiting N s")


class StandInDetail(DetailScreen):
    """Subclasses say how the subject is read (`read`), whether the journal has it (`kept`), what stands in for
    its record (`stand_in`), and the tabs of each case (`full_tabs`, `down_tabs`)."""

    # Why the journal's copy is shown (the service's failure), or None when the subject was read whole.
    down: ApiError | None = None

    async def read(self) -> Any:
        """The subject, from the service."""
        raise NotImplementedError

    async def kept(self) -> bool:
        """The journal has something of the subject from the last day (read on a thread)."""
        return False

    def stand_in(self) -> Any:
        """The record shown while the service does not answer: what is known without it."""
        raise NotImplementedError

    def full_tabs(self) -> list[tuple[str, Widget]]:
        raise NotImplementedError

    def down_tabs(self, down: ApiError) -> list[tuple[str, Widget]]:
        raise NotImplementedError

    async def load(self) -> Any:
        try:
            record = await answered(self.read(), HANG_S, self._give_way)
        except ApiError as error:
            if not is_transient(error) or not await self.kept():
                raise
            self.down = error
            return self.stand_in()
        self.down = None
        return record

    async def _give_way(self) -> None:
        if await self.kept():
            raise NetworkError(f"no answer in {HANG_S:g} s")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.down is not None and action in getattr(self, "CHANGES", ()):
            return False  # nothing to change while the service does not answer: what it is now is not known
        return super().check_action(action, parameters)

    def tabs(self) -> list[tuple[str, Widget]]:
        return self.down_tabs(self.down) if self.down is not None else self.full_tabs()

    def loaded(self) -> None:
        if self.down is not None:
            self._probe.schedule(self.down)
        else:
            self._probe.cancel()

    @cached_property
    def _probe(self) -> AutoRetry:
        return AutoRetry(self, self._probe_service)

    @work(group="probe", exclusive=True, exit_on_error=False)
    async def _probe_service(self) -> None:
        if self.down is None:
            return  # loaded whole meanwhile (r)
        try:
            await self.read()
        except ApiError as error:
            self.down = error
            self._probe.schedule(error)
            return
        self.action_reload()

    def json_data(self) -> Any:
        if self.down is not None:
            return {"id": self.ident, "note": "not read: the service did not answer"}
        return super().json_data()

    def down_said(self, unknown: str, kept: str) -> Text:
        """The Overview's line: why only the journal's copy is shown. `unknown`: what is not known without the
        service ("its triggers and steps"); `kept`: what the journal gives ("Its errors")."""
        return Text.assemble(
            (f"⚠ {down_words(self.down)} ", "bold yellow"),
            f"({visible(with_status(self.down), 200) if self.down else ''}): {unknown} are not known. {kept} "
            "are the journal's, of the last day. It is asked again by itself; r: now.",
        )

    def kept_note(self, what: str) -> Text:
        """The note over the journal's list: "⚠ The service answered HTTP 503: its errors as the journal kept them"."""
        return Text(f"⚠ {down_words(self.down)}: {what} as the journal kept them, of the last day", "bold yellow")


def down_words(down: ApiError | None) -> str:
    """ "The service answered HTTP 503", or "The service did not answer" (no answer at all): "did not answer"
    under a header saying "failing: HTTP 503" read as two stories (an on-call walk)."""
    status = down.status if down is not None else 0
    return f"The service answered HTTP {status}" if status >= 500 else "The service did not answer"
