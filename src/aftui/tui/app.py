"""The aftui App: header, sidebar of panes, footer, palette, and what ties them to the session.

Screens, panes and forms see this App through `host.Host`, which it
implements (they sit below it and cannot import it).
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import ContentSwitcher, Footer, OptionList
from textual.widgets.option_list import Option

from ..api import ApiError, AuthError, Client, NetworkError
from ..config import Profile, UiChoices
from ..text import visible
from .choices import remember, restore_theme
from .commands import AftuiCommands, ProfileCommands
from .focus import keep_focus
from .host import Host, session_of
from .messages import AuthFailed
from .modals.keys import KeysScreen
from .opener import open_resource
from .panes import PaneSpec, pane_specs
from .screens.detail import DetailScreen
from .screens.monitor import open_monitor
from .screens.profile import fix_profile
from .screens.start import Chosen, StartScreen
from .session import DemoStarter, Session
from .widgets.paged_table import PagedTable
from .widgets.pane import Pane
from .widgets.status import StatusHeader

_INPUT = (events.Key, events.MouseDown, events.MouseScrollDown, events.MouseScrollUp)


class AftuiApp(App[None]):
    # Layout first, then one file per area; reusable widgets and the modals keep their own DEFAULT_CSS.
    CSS_PATH = ["aftui.tcss", "start.tcss", "panes.tcss", "details.tcss", "forms.tcss", "monitor.tcss", "replay.tcss"]
    TITLE = "aftui"
    COMMANDS = App.COMMANDS | {AftuiCommands, ProfileCommands}
    BINDINGS = [
        Binding("question_mark", "keys", "Keys"),
        Binding("m", "monitor", "Monitor"),
        Binding("ctrl+p", "command_palette", "Palette", priority=True, show=False),
        Binding("colon", "command_palette", "Palette", show=False),
        Binding("ctrl+b", "toggle_sidebar", "Sidebar", show=False),
        Binding("q", "quit", "Quit"),
        *(Binding(str(n), f"pane({n - 1})", f"Pane {n}", show=False) for n in range(1, 10)),
    ]

    def __init__(
        self,
        session: Session | None,
        *,
        start_pane: str = "sources",
        profile: Profile | None = None,
        force_read_only: bool = False,
        start_demo: DemoStarter | None = None,
        ui: UiChoices | None = None,
    ) -> None:
        super().__init__()
        # None until the start screen has chosen (nothing configured): the demo or a new profile.
        self.session: Session | None = session
        self.start_demo = start_demo  # what the start screen's demo runs (run.py gives it)
        self.specs: list[PaneSpec] = pane_specs()
        self.start_pane = start_pane
        self.profile = profile  # the config profile behind the session; None in the demo
        self.force_read_only = force_read_only  # --read-only: whatever profile the session moves to
        # The config's [ui] choices, restored and saved when they change; None (tests, screenshots): neither.
        self.ui = ui
        self._journal_said = False  # the journal's start message (not journaling, or a damaged file moved aside)
        self.cleanups: list[Callable[[], None]] = []  # run once the app has exited (the demo's emulator)
        self.input_listeners: list[Callable[[], None]] = []  # told of each key or mouse press before it is handled

    async def on_event(self, event: events.Event) -> None:
        if (
            self.input_listeners and isinstance(event, _INPUT) and not event.is_forwarded
        ):  # not again as it bubbles back
            for listener in list(self.input_listeners):
                listener()
        await super().on_event(event)

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        with Horizontal(id="main"):
            yield OptionList(
                *(Option(f"{n + 1} {spec.title}", id=spec.id) for n, spec in enumerate(self.specs)), id="sidebar"
            )
            yield ContentSwitcher(id="panes")
        yield Footer()

    def on_mount(self) -> None:
        keep_focus(self)
        if self.ui is not None:  # the config's choices back, and kept from now on
            restore_theme(self, self.ui)
            if self.ui.sidebar is not None:
                self._set_sidebar(self.ui.sidebar)
        if self.session is None:
            if self.start_demo is None:
                raise RuntimeError("nothing to start on: AftuiApp needs a session, or start_demo for the start screen")
            self.push_screen(StartScreen(self.start_demo), self.begin)
            return
        self.query_one(StatusHeader).sync()
        self._start()

    def begin(self, chosen: Chosen | None) -> None:
        """Go on with the session chosen on the start screen (None: the user quit there)."""
        if chosen is None:
            self.exit()
            return
        session, self.profile = chosen
        self.session = session
        session.client.read_only = session.client.read_only or self.force_read_only
        self.refresh_headers()
        self._start()

    async def use_profile(self, profile: Profile, client: Client) -> None:
        """Connect with another profile (every pane starts over), or the same one with its credential fixed."""
        session = session_of(self)
        old = session.client
        client.read_only = client.read_only or self.force_read_only
        if self._same_service(profile, client):
            await self._fixed_credential(profile, client)
            return
        session.client, session.profile_name, session.user, session.demo = client, profile.name, None, False
        self.profile = profile
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        switcher = self.screen_stack[0].query_one("#panes", ContentSwitcher)
        self.start_pane = switcher.current or self.start_pane
        await switcher.remove_children()
        switcher.current = None  # else the same pane, mounted again, would stay hidden
        self.connection("connecting")
        self.refresh_headers()
        self._start()
        await old.aclose()

    def _same_service(self, profile: Profile, client: Client) -> bool:
        session = session_of(self)
        old = session.client
        return profile.name == session.profile_name and (
            client.base_url,
            client.org_id,
            client.project_id,
            client.environment,
        ) == (old.base_url, old.org_id, old.project_id, old.environment)

    async def _fixed_credential(self, profile: Profile, client: Client) -> None:
        """The key was refused and is now fixed: keep every screen (and what is typed in them), retry what failed."""
        old = session_of(self).client
        old.auth, old.read_only = client.auth, client.read_only
        self.profile = profile
        await client.aclose()
        self.connection("connecting")
        self.refresh_headers()
        for screen in self.screen_stack:
            for table in screen.query(PagedTable):
                table.reload()
            if isinstance(screen, DetailScreen) and screen.query(".problem"):
                screen.action_reload()

    def on_unmount(self) -> None:
        """Screens (the monitor's feeds) are closed by now: write what the journal still holds."""
        if self.session is not None:
            self.session.close_journal()

    def action_monitor(self) -> None:
        """The live monitor of the workspace, unless it is what is open already."""
        open_monitor(self)

    def run_cleanups(self) -> None:
        while self.cleanups:
            self.cleanups.pop()()

    @work(group="start", exclusive=True, exit_on_error=False)
    async def _start(self) -> None:
        """Who we are (user keys only; OAuth tokens cannot read /users/me), then the first pane."""
        session = session_of(self)
        client = session.client
        if self.connection not in client._status_listeners:
            client.add_status_listener(self.connection)
        if client.uses_user_key:
            try:
                session.user = await session.client.me()
                self.connection("ok")
            except ApiError as error:
                self.report(error)
        user = session.user
        if user is not None and user.orgs and session.client.org_id not in {o.id for o in user.orgs}:
            session.client.org_id = user.orgs[0].id
        self.refresh_headers()
        self.show_pane(self.start_pane)
        if session.journal_message and not self._journal_said:
            self._journal_said = True  # once a run: a profile switch starts again, the journal does not
            self.notify(
                visible(session.journal_message, 400),
                title="Journal",
                severity="warning" if session.journal_problem else "information",
                markup=False,
                timeout=10,
            )

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
            self.run_worker(self._add_pane(spec), group="pane")
        self.query_one("#sidebar", OptionList).highlighted = self.specs.index(spec)

    async def _add_pane(self, spec: PaneSpec) -> None:
        pane = spec.make()
        pane.id = spec.id
        await self.query_one("#panes", ContentSwitcher).add_content(pane, set_current=True)
        pane.focus_main()  # after mounting, so its table exists and keys go to it

    def action_pane(self, index: int) -> None:
        if 0 <= index < len(self.specs):
            self.show_pane(self.specs[index].id)

    @on(OptionList.OptionSelected, "#sidebar")
    def _sidebar(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.show_pane(event.option.id)

    _sidebar_choice: bool | None = None  # None: by width; True/False once the user chose with ctrl+b
    NARROW = 100  # below this many columns the sidebar hides itself so lists keep their columns

    def action_toggle_sidebar(self) -> None:
        shown = not self.screen_stack[0].query_one("#sidebar").display
        self._set_sidebar(shown)
        if self.ui is not None:
            remember(self, sidebar=shown)

    def _set_sidebar(self, shown: bool) -> None:
        self._sidebar_choice = shown
        self.screen_stack[0].query_one("#sidebar").display = shown

    def on_resize(self, event: events.Resize) -> None:
        if self._sidebar_choice is None and self.screen_stack and self.screen_stack[0].query("#sidebar"):
            self.screen_stack[0].query_one("#sidebar").display = event.size.width >= self.NARROW

    def action_keys(self) -> None:
        self.push_screen(KeysScreen(self.screen))

    # --- workspace, environment, connection ----------------------------------------------------

    def set_workspace(self, org_id: str) -> None:
        session = session_of(self)
        if org_id == session.client.org_id:
            return
        session.client.org_id = org_id
        self._workspace_changed()
        self.notify(f"Workspace: {visible(session.workspace_label, 60)}", markup=False)

    def set_environment(self, environment: str) -> None:
        session_of(self).client.environment = environment
        self._workspace_changed()
        self.notify(f"Connect environment: {environment}", markup=False)

    def _workspace_changed(self) -> None:
        self.refresh_headers()
        for pane in self.query_one("#panes", ContentSwitcher).query(Pane):
            pane.workspace_changed()

    def refresh_headers(self) -> None:
        for screen in self.screen_stack:
            for header in screen.query(StatusHeader):
                header.sync()

    _connection = "connecting"

    @property
    def connection_state(self) -> str:
        return self._connection

    def connection(self, state: str) -> None:
        self._connection = state
        for screen in self.screen_stack:
            for header in screen.query(StatusHeader):
                header.connection = state

    def report(self, error: ApiError) -> None:
        """An error no pane owns: say it, and mark the connection."""
        if isinstance(error, AuthError):
            self.post_message(AuthFailed(error))  # the profile screen, or a notification
            return
        if isinstance(error, NetworkError):
            self.connection("offline")
        self.notify(visible(error.message, 300), title="The service said", severity="error", markup=False)

    def on_auth_failed(self, message: AuthFailed) -> None:
        """A refused credential: the profile screen to fix it (a 403 or the demo: only say so)."""
        error = message.error
        if error.status == 403:  # the credential is fine; this request is not for it
            self.notify(visible(error.message, 300), title="Not allowed", severity="error", markup=False)
            return
        self.connection("auth")
        if fix_profile(self, error):
            return
        self.notify(
            f"{visible(error.message, 200)} — check the profile's key (aftui config show), or press r to retry.",
            title="Authentication failed",
            severity="error",
            timeout=10,
            markup=False,
        )

    # --- opening things by id ---------------------------------------------------------------------

    def open_id(self, ident: str) -> bool:
        """Open a resource from its id; the prefix tells its kind. False when the prefix is unknown."""
        return open_resource(self, ident.strip())


# mypy holds the App to what screens take it for: a member missing from AftuiApp, or typed otherwise, fails here.
_IMPLEMENTS_HOST: type[Host] = AftuiApp
