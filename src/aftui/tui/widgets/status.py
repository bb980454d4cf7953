"""The header line: where aftui is connected and how that connection is doing."""

from __future__ import annotations

import re

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from ...text import visible
from ..host import host


class StatusHeader(Static):
    """`aftui  PRODUCTION  DEMO  profile │ workspace │ environment │ ● connection  ✖ journal: …  ✖ 2 alerts  READ-ONLY  URL`"""

    DEFAULT_CSS = """
    StatusHeader { height: 1; background: $panel; color: $text; padding: 0 1; }
    """

    profile: reactive[str] = reactive("")
    workspace: reactive[str] = reactive("")
    environment: reactive[str] = reactive("production")
    connection: reactive[str] = reactive("connecting")
    read_only: reactive[bool] = reactive(False)
    demo: reactive[bool] = reactive(False)
    where: reactive[str] = reactive("")
    production: reactive[bool] = reactive(False)
    url: reactive[str] = reactive("")
    alerts: reactive[int] = reactive(0)  # new error groups and spikes not yet seen on the Health pane
    journal: reactive[str] = reactive("")  # the journal's trouble ("journal: disk full since 14:02"), else ""

    def sync(self) -> None:
        """Show the app's session and connection (the app calls it again when either changes)."""
        app = host(self)
        session = app.session
        if session is None:  # the start screen is still choosing
            return
        self.profile = session.profile_name
        self.workspace = session.workspace_label
        self.environment = session.environment
        self.read_only = session.read_only
        self.demo = session.demo
        self.connection = app.connection_state
        self.journal = app.journal_state
        self.production = bool(app.profile is not None and app.profile.production)
        self.url = session.client.base_url
        self.alerts = app.alert_count

    def render(self) -> Text:
        # The workspace's name gives way first: at 80 columns a long one pushed "press 0" (and READ-ONLY, after
        # it) off the line; what the connection is about (where, the URL) is last and cut as it is.
        # Then the environment and the connection are said short ("prod", "dev"; "ok" for "connected"): with
        # DEMO, alerts and READ-ONLY, 80 is tight.
        width = self.size.width or 10_000
        cap, short = WORKSPACE_CHARS, False
        over = self._line(cap, short, tail=False).cell_len - width
        if over > 0:
            cap = max(MIN_WORKSPACE_CHARS, cap - over)
            short = self._line(cap, short, tail=False).cell_len > width
        return self._line(cap, short, tail=True)

    def _line(self, workspace_chars: int, short: bool, *, tail: bool) -> Text:
        text = Text()
        text.append(" aftui ", style="bold reverse")
        if self.production:  # first, in reverse red, so it is read before anything else
            text.append(" ▲ PRODUCTION ", style="bold white on red")
        if self.demo:
            text.append(" DEMO ", style="bold black on yellow")
        text.append(f" {visible(self.profile, 20)} ", style="bold")
        text.append("│ ", style="dim")
        text.append(visible(self.workspace, workspace_chars))
        text.append(" │ ", style="dim")
        environment = _SHORT.get(self.environment, self.environment) if short else self.environment
        text.append(environment, style="magenta" if self.environment == "development" else "")
        text.append(" │ ", style="dim")
        dot, style = _CONNECTION.get(self.connection.split(" ")[0], ("●", "yellow"))
        # "ok" beside a board of failing workflows was read as "all is well": it is the connection that is.
        connection = ("ok" if short else "connected") if self.connection == "ok" else self.connection
        if short:  # at 80 columns "waiting 12 s for an answer" beside an alert cut "press 0" to "· press"
            connection = _short_connection(connection)
        text.append(f"{dot} {connection}", style=style)
        if self.journal:  # events seen and not kept: "no event ever lost" is the journal's promise
            text.append(f"  ✖ {visible(self.journal, 60)}", style="bold red")
        if self.alerts:
            # "(0)" read as a count of something; the key to see them is said in words. `!` lists them from any
            # screen: "press 0" (Health) was refused over a screen holding work, and Health showed marks, not them.
            # "alerts", as the notifications title them: a spike of a known error is no "new error".
            text.append(f"  ✖ {self.alerts} alert{'s' * (self.alerts != 1)} · press ! ", style="bold white on red")
        if self.read_only:
            text.append("  READ-ONLY ", style="bold black on red")
        if not tail:
            return text
        if self.where:
            text.append("  " + visible(self.where, 40), style="dim")
        if self.url:  # last: what the connection's state is about, cut first on a narrow terminal
            text.append("  " + visible(self.url.split("://", 1)[-1], 60), style="dim")
        return text


_SHORT = {"production": "prod", "development": "dev"}


_HELD = re.compile(r"waiting \d+ s, newer requests answered")


def _short_connection(words: str) -> str:
    """The connection's state in fewer words: "waiting 12 s", "feeds failing", "unreachable since 14:02"."""
    held = _HELD.fullmatch(words)
    if held:  # one request held while newer ones are answered: in the room "waiting 12 s" takes
        # "slow 12 s, rest ok" read as "the REST API is fine" (an on-call walk); the seconds are said where there
        # is room, and "press !" must stay in sight at 80 columns.
        return "slow, others ok"
    for long, short in ((" for an answer", ""), ("some feeds failing", "feeds failing"), (" UTC", "")):
        words = words.replace(long, short)
    return words


WORKSPACE_CHARS = 28  # a workspace's name, where the line has room
MIN_WORKSPACE_CHARS = 8

_CONNECTION = {
    "ok": ("●", "green"),
    "connecting": ("●", "yellow"),
    "waiting": ("●", "yellow"),  # "waiting 12 s for an answer": requests sent, none answered (or newer ones were)
    "retrying": ("●", "yellow"),
    "some": ("●", "yellow"),  # "some feeds failing": streams up, polls failing
    "reconnecting": ("●", "yellow"),
    "offline": ("●", "red"),
    "unreachable": ("●", "red"),
    "auth": ("●", "red"),
    "failing:": ("●", "red"),  # "failing: HTTP 503": the service answers, with failures of its own
}
