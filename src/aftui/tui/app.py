"""The aftui App: header, sidebar of panes, footer, palette, and what ties them to the session."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import ContentSwitcher, Footer, OptionList
from textual.widgets.option_list import Option

from ..api import ApiError, AuthError, NetworkError
from ..text import visible
from .commands import AftuiCommands
from .screens.keys import KeysScreen
from .screens.sources import SourcesPane
from .screens.workspaces import WorkspacesPane
from .session import Session
from .widgets.pane import Pane
from .widgets.paged_table import AuthFailed
from .widgets.status import StatusHeader


@dataclass(frozen=True)
class PaneSpec:
    id: str
    title: str
    make: Callable[[], Pane]


def pane_specs() -> list[PaneSpec]:
    """The sidebar, in order; keys 1-9 follow it."""
    return [
        PaneSpec("workspaces", "Workspaces", WorkspacesPane),
        PaneSpec("sources", "Sources", SourcesPane),
    ]


class AftuiApp(App[None]):
    CSS_PATH = "aftui.tcss"
    TITLE = "aftui"
    COMMANDS = App.COMMANDS | {AftuiCommands}
    BINDINGS = [
        Binding("question_mark", "keys", "Keys"),
        Binding("ctrl+p", "command_palette", "Palette", priority=True),
        Binding("colon", "command_palette", "Palette", show=False),
        Binding("ctrl+b", "toggle_sidebar", "Sidebar", show=False),
        Binding("q", "quit", "Quit"),
        *(Binding(str(n), f"pane({n - 1})", f"Pane {n}", show=False) for n in range(1, 10)),
    ]

    def __init__(self, session: Session, *, start_pane: str = "sources") -> None:
        super().__init__()
        self.session = session
        self.specs = pane_specs()
        self.start_pane = start_pane

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        with Horizontal(id="main"):
            yield OptionList(*(Option(f"{n + 1} {spec.title}", id=spec.id) for n, spec in enumerate(self.specs)), id="sidebar")
            yield ContentSwitcher(id="panes")
        yield Footer()

    def on_mount(self) -> None:
        self.sync_header(self.query_one(StatusHeader))
        self._start()

    @work(group="start", exclusive=True, exit_on_error=False)
    async def _start(self) -> None:
        """Who we are (user keys only; OAuth tokens cannot read /users/me), then the first pane."""
        if self.session.client.uses_user_key:
            try:
                self.session.user = await self.session.client.me()
                self.connection("ok")
            except ApiError as error:
                self.report(error)
        user = self.session.user
        if user is not None and user.orgs and self.session.client.org_id not in {o.id for o in user.orgs}:
            self.session.client.org_id = user.orgs[0].id
        self.refresh_headers()
        self.show_pane(self.start_pane)

    # --- panes ---------------------------------------------------------------------------------

    def show_pane(self, pane_id: str) -> None:
        switcher = self.query_one("#panes", ContentSwitcher)
        spec = next((s for s in self.specs if s.id == pane_id), None)
        if spec is None:
            return
        existing = switcher.query(f"#{pane_id}")
        if existing:
            switcher.current = pane_id
            existing.first(Pane).focus_main()
        else:
            pane = spec.make()
            pane.id = pane_id
            switcher.add_content(pane, set_current=True)  # the pane focuses its list once mounted
        self.query_one("#sidebar", OptionList).highlighted = self.specs.index(spec)

    def action_pane(self, index: int) -> None:
        if 0 <= index < len(self.specs):
            self.show_pane(self.specs[index].id)

    @on(OptionList.OptionSelected, "#sidebar")
    def _sidebar(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.show_pane(event.option.id)

    def action_toggle_sidebar(self) -> None:
        sidebar = self.query_one("#sidebar")
        sidebar.display = not sidebar.display

    def action_keys(self) -> None:
        self.push_screen(KeysScreen(self.screen))

    # --- workspace, environment, connection ----------------------------------------------------

    def set_workspace(self, org_id: str) -> None:
        if org_id == self.session.client.org_id:
            return
        self.session.client.org_id = org_id
        self._workspace_changed()
        self.notify(f"Workspace: {visible(self.session.workspace_label, 60)}", markup=False)

    def set_environment(self, environment: str) -> None:
        self.session.client.environment = environment
        self._workspace_changed()
        self.notify(f"Connect environment: {environment}", markup=False)

    def _workspace_changed(self) -> None:
        self.refresh_headers()
        for pane in self.query_one("#panes", ContentSwitcher).query(Pane):
            pane.workspace_changed()

    def sync_header(self, header: StatusHeader) -> None:
        session = self.session
        header.profile = session.profile_name
        header.workspace = session.workspace_label
        header.environment = session.environment
        header.read_only = session.read_only
        header.demo = session.demo
        header.connection = self._connection

    def refresh_headers(self) -> None:
        for screen in self.screen_stack:
            for header in screen.query(StatusHeader):
                self.sync_header(header)

    _connection = "connecting"

    def connection(self, state: str) -> None:
        self._connection = state
        for screen in self.screen_stack:
            for header in screen.query(StatusHeader):
                header.connection = state

    def report(self, error: ApiError) -> None:
        """An error no pane owns: say it, and mark the connection."""
        if isinstance(error, AuthError):
            self.connection("auth")
        elif isinstance(error, NetworkError):
            self.connection("offline")
        self.notify(visible(error.message, 300), title="The service said", severity="error", markup=False)

    def on_auth_failed(self, message: AuthFailed) -> None:
        self.connection("auth")
        self.notify(
            f"{visible(message.error.message, 200)} — check the profile's key (aftui config show), or press r to retry.",
            title="Authentication failed",
            severity="error",
            timeout=10,
            markup=False,
        )

    # --- opening things by id ---------------------------------------------------------------------

    def open_id(self, ident: str) -> bool:
        """Open a resource from its id; the prefix tells its kind. False when the prefix is unknown."""
        from .opener import open_resource

        return open_resource(self, ident.strip())
