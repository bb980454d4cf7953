"""The aftui App: header, sidebar of panes, footer, palette, and what ties them to the session.

Screens, panes and forms see this App through `host.Host`, which it
implements (they sit below it and cannot import it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakSet

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.notifications import Notification, Notify
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import ContentSwitcher, OptionList
from textual.widgets.option_list import Option

from ..api import ApiError, AuthError, Client, NetworkError, failing_status
from ..api.errors import with_status
from ..config import Profile, UiChoices
from ..discovery import DETAILS_AT_ONCE
from ..health import Alert, Fired, HealthWatch, Subject, Unseen, load_history, read_replays
from ..health.watch import POLL_INTERVAL_S
from ..text import visible
from .change import describe_error, said_by
from .choices import remember, restore_theme
from .collector import models_kept
from .escape_keys import alt_letter_keys, read_esc_digits_as_alt
from .feeds_told import FeedsTold
from .focus import KeyHolder, KeysForOpening, TypeAhead, keep_focus
from .host import Host, session_of
from .inputdriver import INPUT, input_first
from .keyframe import paint_keys_at_once
from .messages import AuthFailed, ViewValue
from .palette import PALETTE_ID, Palette
from .panes import PaneSpec, pane_specs
from .session import DemoStarter, Session
from .widgets.footer import KeyFooter
from .widgets.pane import Pane
from .widgets.status import StatusHeader

if TYPE_CHECKING:
    from textual.actions import ActionParseResult
    from textual.command import Provider
    from textual.dom import DOMNode
    from textual.driver import Driver
    from textual.notifications import SeverityLevel
    from textual.widget import Widget

    from ..api.models import EventSummary
    from ..monitor import Monitor
    from .screens.replay_journal import ReplayJournal
    from .screens.start import Chosen

# The stylesheets the first screen needs are read at start (CSS_PATH); those of the screens pushed over it (a
# detail, a form, the monitor, a replay, the start screen: every rule names its screen or widget) once it is
# drawn, or before the first push if that comes sooner (`_read_later_css`). Parsing them is about 8 ms.
_HERE = Path(__file__).parent
LATER_CSS = ["start.tcss", "details.tcss", "forms.tcss", "monitor.tcss", "replay.tcss"]

# What the first screen does not show is imported when first used (the palette, the monitor, the detail
# screens, the start and profile screens): a start pays only for the list it paints.


def _aftui_commands() -> type[Provider]:
    from .commands import AftuiCommands

    return AftuiCommands


def _profile_commands() -> type[Provider]:
    from .commands import ProfileCommands

    return ProfileCommands


log = logging.getLogger("aftui.tui")

HEALTH_TICK_S = 1.0  # how often the health board takes what its feeds brought, and the alerts it raised
HEALTH_SUBJECTS_S = 60.0  # how often the sources and workflows it watches are listed again
HEALTH_SWITCHES_S = 60.0  # how often the switch of a workflow with errors is read again: turned off elsewhere
HEALTH_SETTLE_S = 30.0  # how often Health looks again, at most, for a workflow's replays whose outcome is unknown
HEALTH_REPLAYS_S = 3.0  # how often the last hour's errors are looked up in the replay records: is it fixed?
ALERTS_AT_ONCE = 3  # more alerts than this in one tick are said in one notification
ALERT_TOAST_S = 10.0  # how long an alert stays in the corner (unless a dialog opens)
HEALTH_TAKE_AT_ONCE = 2000  # records folded into the board per turn of the loop (a burst: 25,000 a second)
HEALTH_CATCH_UP_S = 0.005  # between two such turns: a key waiting is handled in between
SLOW_ANSWER_S = 5.0  # a request unanswered this long is said in the header (its timeout is half a minute away)
FIRST_SCREEN_S = 2.0  # the longest /users/me waits for Health's first rows (a slow listing: the header first)


class AftuiApp(App[None]):
    # Layout first, then one file per area; reusable widgets and the modals keep their own DEFAULT_CSS.
    CSS_PATH = ["aftui.tcss", "panes.tcss"]  # and LATER_CSS, once the first screen is drawn
    TITLE = "aftui"
    COMMANDS = App.COMMANDS | {_aftui_commands, _profile_commands}
    BINDINGS = [
        Binding("question_mark", "keys", "Keys", tooltip="Every key of this screen"),
        Binding("m", "monitor", "Monitor"),
        # A toast fades, and Health's marks go once a row is opened: the session's alerts stay listed here.
        Binding(
            "exclamation_mark", "alerts", "Alerts of this session: what fired, and is it still failing", show=False
        ),
        Binding("ctrl+p", "command_palette", "Palette: go to, open, act on anything", priority=True, show=False),
        Binding("colon", "command_palette", "Palette: go to, open, act on anything", show=False),
        Binding("ctrl+b", "toggle_sidebar", "Show or hide the sidebar", show=False),
        Binding("q", "quit", "Quit"),
        # The pane's own r wins while its list has the focus; this one is for when nothing of the pane has it
        # (its list still loading, over a slow service): r was then dead, and gone from the footer.
        Binding("r", "refresh_pane", "Refresh"),
        # esc on a pane, with no filter to clear: back to Health, the first screen. It did nothing there, and only
        # 0 went back (the sidebar that says so is hidden at 80 columns). Not in the footer: a pane's fills it.
        Binding("escape", "home", "Back to Health", show=False),
        *(Binding(spec.key, f"pane({n})", f"Go to {spec.title}", show=False) for n, spec in enumerate(pane_specs())),
        # esc then a digit typed at once (or bundled by an SSH link) arrive within the escape delay, and Textual
        # reads them as alt+digit (tui/escape_keys.py): nothing happened, the esc eaten too. Now they do both.
        # priority: a dialog's esc is part of it, and so is a field's: alt+4 is no character to type.
        *(
            Binding(f"alt+{spec.key}", f"escape_then_pane({n})", f"Go to {spec.title}", show=False, priority=True)
            for n, spec in enumerate(pane_specs())
        ),
        # esc then a letter, read as alt+letter (esc m, esc E): the same, with whatever the letter does after the esc.
        *(
            Binding(alt, f"escape_then_key({letter!r})", f"esc, then {letter}", show=False, priority=True)
            for alt, letter in alt_letter_keys().items()
        ),
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
        if self.no_color:  # Textual's greys lost the reds to the background (tui/nocolor.py)
            from textual.filter import Monochrome

            from .nocolor import ReadableMonochrome

            self._filters = [ReadableMonochrome() if isinstance(f, Monochrome) else f for f in self._filters]
        read_esc_digits_as_alt()  # before the driver's parser reads a key: esc 4 is alt+4, not "¢"
        # None until the start screen has chosen (nothing configured): the demo or a new profile.
        self.session: Session | None = session
        self.start_demo = start_demo  # what the start screen's demo runs (run.py gives it)
        self.specs: list[PaneSpec] = pane_specs()
        self.start_pane = start_pane
        self.profile = profile  # the config profile behind the session; None in the demo
        self.force_read_only = force_read_only  # --read-only: whatever profile the session moves to
        # The config's [ui] choices, restored and saved when they change; None (tests, screenshots): neither.
        self.ui = ui
        self._later_css_read = False  # LATER_CSS, read once the first screen is drawn (or at the first push)
        self._journal_said = False  # the journal's start message (not journaling, or a damaged file moved aside)
        # Panes are built on a worker: those on their way, and the one last asked for, which is the one
        # shown once up (the first pane and a key pressed before it was up may both ask for one).
        self._panes_adding: set[str] = set()
        self._wanted_pane: str | None = None
        # Set once a pane was first built: Health's feeds wait for the frame that draws its rows.
        self._pane_built = asyncio.Event()
        # Set once Health's rows are painted (or could not be listed): who the user is is asked for then.
        self._health_painted = asyncio.Event()
        self.cleanups: list[Callable[[], None]] = []  # run once the app has exited (the demo's emulator)
        # Told of each key or mouse press before it is handled.
        self.input_listeners: list[Callable[[], None]] = [self._feeds_input_first]
        self._answer_due = False  # a key's action ran under load: the next frame the screen asks for answers it
        self._rows_due = False  # Health's first rows are in: the next frame the screen asks for draws them
        self._keyed_frame = False  # the frame being painted at once answers a key (else it is the first rows)
        self._keyed_screens: WeakSet[Screen[Any]] = WeakSet()
        # `[ui] bell = true` in the config: ring on a new error group or a spike.
        self.bell_on_alert = bool(ui is not None and ui.bell)
        # The health board's feeds and alerts: started by the Health pane (which aftui opens on), then
        # kept for every screen so the header counts what is new wherever the user is.
        self.health: HealthWatch | None = None
        self.health_poll_s = POLL_INTERVAL_S  # how often workflows' `$errors` and events are asked for (tests: less)
        self._unseen = Unseen()  # alerts raised away from the Health pane, until it is shown
        self._unseen_elsewhere: dict[str, Unseen] = {}  # other workspaces' alerts not yet seen on their Health
        self.fired = Fired()  # every alert of the session, by workspace: `!` lists them
        self._health_timers: tuple[Timer, ...] | None = None
        self._replay_records: ReplayJournal | None = None  # the replay log Health reads (`_health_replays`)
        self._switches_read = -HEALTH_SWITCHES_S  # monotonic seconds of the last `_health_switches`
        self._settled_at: dict[str, float] = {}  # workflow id -> monotonic seconds of Health's last look again
        self._health_catching_up = False  # a slice of a burst's records is due a turn of the loop later
        self._health_told = FeedsTold()  # what Health's feeds last told the header of the connection
        self._screens_deep = 0  # screens in the stack at the last change: more now is a screen opened
        self._health_unshown = False  # health changed while the main screen was covered
        self._type_ahead = TypeAhead()  # keys read with the one that opened a field go into it (focus.py)
        self._opening = KeysForOpening(self)  # and those read with the enter that opens a row, into what it opens
        self._alert_toasts: list[Notification] = []  # the alerts' notifications, taken down under a dialog

    async def on_event(self, event: events.Event) -> None:
        if self.input_listeners and isinstance(event, INPUT) and not event.is_forwarded:  # not again as it bubbles back
            for listener in list(self.input_listeners):
                listener()
        if isinstance(event, events.Key) and not event.is_forwarded:
            self._type_ahead.handed(event, self.focused)  # where Textual is about to hand it
        await super().on_event(event)

    async def _on_key(self, event: events.Key) -> None:
        """A key no widget handled: typed ahead into a field that took the focus meanwhile, or into a screen
        being opened or loaded (focus.py), else the bindings' (Textual calls `App._on_key` after this one
        unless told not to)."""
        if (
            self._type_ahead.follow(event, self.focused)
            or self._opening.held(event)
            or (isinstance(self.screen, KeyHolder) and self.screen.hold_typed_ahead(event))
        ):
            event.prevent_default()

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Every binding's action comes here: one run while a key or click holds the feeds makes the next frame
        its answer (`_key_waits`)."""
        if action == "select_cursor":  # enter on a list: what it opens takes the keys read with it
            self._opening.selected()
        handled = await super().run_action(action, default_namespace, namespaces)
        if self._answering_input():
            self._answer_due = True
        return handled

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        with Horizontal(id="main"):
            yield OptionList(*(Option(f"{spec.key} {spec.title}", id=spec.id) for spec in self.specs), id="sidebar")
            yield ContentSwitcher(id="panes")
        yield KeyFooter()

    def on_mount(self) -> None:
        keep_focus(self)
        self.screen_change_signal.subscribe(self, self._screen_changed)
        self._paint_keys_at_once(self.screen)
        if self.ui is not None:  # the config's choices back, and kept from now on
            restore_theme(self, self.ui)
            if self.ui.sidebar is not None:
                self._set_sidebar(self.ui.sidebar)
        if self.session is None:
            if self.start_demo is None:
                raise RuntimeError("nothing to start on: AftuiApp needs a session, or start_demo for the start screen")
            from .screens.start import StartScreen

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
        watching = self.health is not None
        self._stop_health()
        session.close_feeds()  # they read with the old client
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
        if watching:  # the alerts go on wherever the user is, on the new service
            self.start_health()
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
        # The feeds run on a copy of the client, made with the refused credential: Health and the monitor
        # screen tap new ones.
        session_of(self).close_feeds()
        if self.health is not None:
            self._stop_health()
            self.start_health()
        from .screens.detail import DetailScreen
        from .widgets.paged_table import PagedTable  # not at the top: the first screen shows none

        for screen in self.screen_stack:
            for table in screen.query(PagedTable):
                table.reload()
            if isinstance(screen, DetailScreen) and screen.query(".problem"):
                screen.action_reload()

    def on_unmount(self) -> None:
        """Screens (the monitor's feeds) are closed by now: write what the journal still holds."""
        self._stop_health()
        if self.session is not None:
            self.session.close_journal()

    def action_command_palette(self) -> None:
        """Textual's palette, with an enter typed with the search waiting for its matches (`palette.py`)."""
        if self.use_command_palette and self.screen.id != PALETTE_ID:
            self.push_screen(Palette(id=PALETTE_ID))

    def action_monitor(self) -> None:
        """The live monitor of the workspace, unless it is what is open already."""
        from .screens.monitor import open_monitor

        open_monitor(self)

    def action_alerts(self) -> None:
        """The session's alerts: back to the list if it is open under views only (`!` from a workflow opened
        there stacked a list per press), else a new one."""
        from .screens.alerts import AlertsScreen

        stack = self.screen_stack
        at = next((n for n, screen in enumerate(stack) if isinstance(screen, AlertsScreen)), None)
        if at is None or any(_held_by(screen, unknown="") is not None for screen in stack[at + 1 :]):
            self.push_screen(AlertsScreen())
            return
        for _ in stack[at + 1 :]:
            self.pop_screen()

    def run_cleanups(self) -> None:
        while self.cleanups:
            self.cleanups.pop()()

    @work(group="start", exclusive=True, exit_on_error=False)
    async def _start(self) -> None:
        """Who we are (user keys only; OAuth tokens cannot read /users/me), and the first pane.

        With a workspace configured, the pane is shown at once and its lists are asked for while
        /users/me is: the answer only says who the user is, or, rarely, that the workspace is not
        theirs (the panes then move to their first, as when the user is read after a start with the
        service down). Without one, the pane waits for the user's first workspace.
        """
        session = session_of(self)
        client = session.client
        if self.connection not in client._status_listeners:
            client.add_status_listener(self.connection)
        if self._answers is None:
            self._answers = self.set_interval(1.0, self._watch_answers)
        configured = client.org_id
        if configured is not None:
            if self.start_pane == "health":
                # Its sources and subscriptions are asked for now, and the pane built while they are on their
                # way: it fits its board to its width when laid out, and draws the rows it finds when it mounts.
                self.start_health()
                self._first_pane()
            else:
                self.call_after_refresh(self._first_pane)  # once laid out: these size their columns by the sidebar's
        if client.uses_user_key:
            if configured is not None and self.start_pane == "health":
                await self._first_screen_first()
            try:
                session.user = await session.client.me()
                self.connection("ok")
            except ApiError as error:
                self.report(error)
            models_kept()  # imported for the user's record, the first model of the start
        if configured is not None:
            self._user_known(configured)
            return
        self._follow_users_workspace()
        self.refresh_headers()
        self._first_pane()

    async def _first_screen_first(self) -> None:
        """Until Health's rows are painted, at most FIRST_SCREEN_S: the user's record is the first model read,
        and reading it imports pydantic and the models (about 80 ms of a start), which the rows do not need."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._health_painted.wait(), FIRST_SCREEN_S)

    async def _first_screen_drawn(self) -> None:
        """Until the first pane is drawn: Health with its rows (at most FIRST_SCREEN_S), any other once built."""
        await self._pane_built.wait()
        if self.start_pane == "health":
            await self._first_screen_first()
            return
        drawn = asyncio.Event()
        self.call_after_refresh(drawn.set)
        await drawn.wait()

    def _read_later_css(self) -> None:
        """The stylesheets of the screens above the first (LATER_CSS), once: parsed now, the others kept."""
        if self._later_css_read:
            return
        self._later_css_read = True
        for name in LATER_CSS:
            self.stylesheet.read(_HERE / name)
        self.stylesheet.parse()  # what was parsed before comes from the stylesheet's cache

    if not TYPE_CHECKING:  # App's overloads stay what callers are checked against

        def push_screen(self, *args, **kwargs):
            """App.push_screen, with the stylesheets of the screens above the first read before the first push."""
            self._read_later_css()
            return super().push_screen(*args, **kwargs)

    def _first_pane(self) -> None:
        if not self.query_one("#panes", ContentSwitcher).children and not self._panes_adding:
            # else one was chosen already, by its key
            self.show_pane(self.start_pane)
        if not self._journal_said:
            self._say_journal()

    @work(group="journal-said", exclusive=True, exit_on_error=False)
    async def _say_journal(self) -> None:
        """Once the first screen is drawn, read the rest of the stylesheet and open the journal; then say what
        opening it gave that the user should hear."""
        session = session_of(self)
        await self._first_screen_drawn()
        self._read_later_css()
        session.start_journal()
        await session.journal_opened()
        message = session.journal_message
        if message and not self._journal_said:
            self._journal_said = True  # once a run: a profile switch starts again, the journal does not
            self.notify(
                visible(message, 400),
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
        self._wanted_pane = pane_id
        existing = switcher.query(f"#{pane_id}")
        if existing:
            switcher.current = pane_id
            pane = existing.first(Pane)
            if pane.is_mounted:  # else still being mounted: it takes the focus once up
                pane.focus_main()
                pane.health_changed()
        else:
            # Built on a worker: until it is up, keys typed after the pane's number (`3 enter`) reach nothing,
            # rather than the list of the pane left behind.
            self.screen_stack[0].set_focus(None)  # the main screen's: a detail on top keeps its own
            if pane_id not in self._panes_adding:  # asked for twice before it is up: one is built
                self._panes_adding.add(pane_id)
                self.run_worker(self._add_pane(spec), group="pane")
        self.query_one("#sidebar", OptionList).highlighted = self.specs.index(spec)
        if pane_id == "health":
            self.alerts_seen()

    async def _add_pane(self, spec: PaneSpec) -> None:
        pane = spec.make()
        pane.id = spec.id
        switcher = self.query_one("#panes", ContentSwitcher)
        try:
            await switcher.add_content(pane)
        finally:
            self._panes_adding.discard(spec.id)
            self._pane_built.set()
        if self._wanted_pane == spec.id:  # else another pane was asked for while this one was built
            switcher.current = spec.id
            pane.focus_main()  # after mounting, so its table exists and keys go to it

    async def action_quit(self) -> None:
        """q: leaves at once, unless a screen holds work a quit would lose (a bulk replay half sent, an edit
        not sent, marks): then it asks. q cut a bulk replay off after 5 of 12 without a word."""
        held = [what for screen in self.screen_stack[1:] if (what := _held_by(screen, unknown=None))]
        if not held:
            self.exit()
            return
        from .modals.confirm import ConfirmScreen

        question = ConfirmScreen(
            "Quit aftui?", [f"This loses {what}." for what in held], action="Quit", destructive=True, stay="Stay"
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit()

        self.push_screen(question, answered)

    def go_to_pane(self, pane_id: str) -> None:
        """A pane key or the palette's "Go to": the pane shown, the screens over the main one closed first.

        Switched under a detail, the pane changed unseen and esc then landed on it by surprise. Only views
        are closed (screens with `held()` saying they hold nothing): a replay, the monitor, marked errors
        stay, and the user is told how to get there."""
        spec = next((s for s in self.specs if s.id == pane_id), None)
        if spec is None:
            return
        above = self.screen_stack[1:]
        for screen in above:
            what = _held_by(screen, unknown="")  # not a view: the user leaves it
            if what is not None:
                why = f" ({what})" if what else ""
                self.notify(
                    f"{spec.key} {spec.title} is on the main screen: leave this one with esc first{why}.",
                    markup=False,
                    timeout=5,
                )
                return
        for _ in above:
            self.pop_screen()
        self.show_pane(pane_id)

    def action_pane(self, index: int) -> None:
        if 0 <= index < len(self.specs):
            self.go_to_pane(self.specs[index].id)

    def action_home(self) -> None:
        self.go_to_pane("health")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "home":  # a pane's, on the main screen: a detail, the monitor and a dialog have their own esc
            pane = self._shown_pane()
            return pane is not None and pane.id != "health"
        if action == "refresh_pane":  # a detail or the monitor has its own r (or none on purpose); a pane, if any
            pane = self._shown_pane()
            return pane is not None and (hasattr(pane, "action_refresh") or bool(pane.query("PagedTable")))
        return True

    def _shown_pane(self) -> Widget | None:
        """The pane in front on the main screen, while the main screen is the one shown.

        At start, the first pane: it is mounted, and its list starts to load, a moment before `_add_pane` makes
        it the switcher's current one, and the keys it offers (r) are its from the first."""
        if not self.screen_stack or self.screen is not self.screen_stack[0]:
            return None
        switcher = self.screen.query("#panes")
        current = (switcher.first(ContentSwitcher).current or self._wanted_pane) if switcher else None
        panes = self.screen.query(f"#{current}") if current else None
        return panes.first() if panes else None

    async def action_refresh_pane(self) -> None:
        """The shown pane's r: its own refresh, or each of its lists loaded again."""
        pane = self._shown_pane()
        if pane is None:
            return
        refresh = getattr(pane, "action_refresh", None)
        if refresh is not None:
            refresh()
            return
        for table in pane.query("PagedTable"):  # by name: the Health pane the start shows has none to import
            await table.run_action("refresh")

    async def action_escape_then_pane(self, index: int) -> None:
        """esc and a digit read as one key (tui/escape_keys.py): what esc does where the user is (closes the
        monitor, a dialog, the Keys), then the pane key, as if they had come apart."""
        if await self._escape_where_the_user_is():
            self.call_after_refresh(self.action_pane, index)

    async def action_escape_then_key(self, letter: str) -> None:
        """esc and a letter read as one key (alt+letter, tui/escape_keys.py): what esc does where the user is,
        then the letter, sent as the terminal would have sent it alone, to whatever has the focus once esc is done."""
        if await self._escape_where_the_user_is():
            self.call_after_refresh(self.post_message, events.Key(letter, letter))

    async def _escape_where_the_user_is(self) -> bool:
        """False: esc asked something first (a form with text typed in it: leave it?), and the key that came
        with it is not an answer to that question."""
        depth = len(self.screen_stack)
        escape = self.screen.active_bindings.get("escape")
        if escape is not None and escape.enabled:
            await self.run_action(escape.binding.action, escape.node)
        return len(self.screen_stack) <= depth

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
        from .modals.keys import KeysScreen

        self.push_screen(KeysScreen(self.screen))

    # --- workspace, environment, connection ----------------------------------------------------

    def set_workspace(self, org_id: str) -> None:
        session = session_of(self)
        if org_id == session.client.org_id:
            return
        left, session.client.org_id = session.client.org_id, org_id
        # Its own board, started afresh, knows the errors that raised the count: the count comes back with it.
        if left is not None and self._unseen.count:
            self._unseen_elsewhere[left] = self._unseen
        self._unseen = self._unseen_elsewhere.pop(org_id, Unseen())
        self._workspace_changed()
        self.notify(f"Workspace: {visible(session.workspace_label, 60)}", markup=False)

    def set_environment(self, environment: str) -> None:
        session_of(self).client.environment = environment
        self._workspace_changed()
        self.notify(f"Connect environment: {environment}", markup=False)

    def _workspace_changed(self) -> None:
        if self.health is not None:  # another workspace: other sources and workflows
            self._stop_health()
            self.start_health()
        self.refresh_headers()
        for pane in self.query_one("#panes", ContentSwitcher).query(Pane):
            pane.workspace_changed()

    def refresh_headers(self) -> None:
        for screen in self.screen_stack:
            for header in screen.query(StatusHeader):
                header.sync()

    _connection = "connecting"
    _down_since: datetime | None = None  # when the service stopped answering (UTC), until it answers again

    _slow = 0  # whole seconds the oldest request in flight has waited, once past SLOW_ANSWER_S; else 0
    _slow_from: float | None = None  # when the slow spell's first request was sent (monotonic), while one lasts
    _newer_answered = False  # a request sent after the oldest one waiting got its answer
    journal_state = ""  # the journal's trouble, as the header says it ("" when it keeps every event)
    _answers: Timer | None = None

    @property
    def connection_state(self) -> str:
        if self._slow and self._connection != "offline":
            # Whatever the last answer was (a 503, a feed reconnecting): a request waiting now is the news. Newer
            # ones answered: the service is there, one request is held (after a hang, for up to half a minute).
            if self._newer_answered:
                return f"waiting {self._slow} s, newer requests answered"
            return f"waiting {self._slow} s for an answer"
        if self._connection == "partial":
            return "some feeds failing"
        if self._connection == "offline" and self._down_since is not None:
            return f"unreachable since {self._down_since:%H:%M} UTC"
        failing = failing_status(self._connection)
        if failing is not None:
            return f"failing: HTTP {failing}"
        return {"retrying": "reconnecting", "offline": "unreachable"}.get(self._connection, self._connection)

    @property
    def connection_phase(self) -> str:
        return self._connection

    def connection(self, state: str) -> None:
        """The client's (or the monitor's) word on the connection: the header shows it, and a return is acted on."""
        if state == "offline" and self._down_since is None:
            # Since the oldest request it left unanswered was sent, not since aftui gave up on it: a hang is told
            # by a timeout, after the retries, half a minute after it began. In UTC, as the events' times are.
            waited = self.session.client.waiting_for() if self.session is not None else 0.0
            self._down_since = datetime.now(UTC) - timedelta(seconds=waited)
        elif state in ("ok", "auth"):
            self._down_since = None
        back = state == "ok" and self._connection not in ("ok", "connecting")
        self._connection = state
        self._show_connection()
        if back:
            self._user_back()
            from .retry import retry_all_now  # on first use: the start does not load it

            retry_all_now()  # the lists and details that failed meanwhile: not after their backoff's 30 s

    def _show_connection(self) -> None:
        for screen in self.screen_stack:
            for header in screen.query(StatusHeader):
                header.connection = self.connection_state
                header.journal = self.journal_state

    def _watch_answers(self) -> None:
        """A frozen service (it takes requests, answers none) is told in the header while they wait, not only
        once one times out: "ok" over a pane stuck at "loading…" was read as a slow list, not a down service.
        So is a journal that fails to keep what is seen: only the monitor's status line said it."""
        session = self.session
        waited = session.client.waiting_for() if session is not None else 0.0
        newer_answered = session is not None and session.client.answered_since_oldest_wait()
        slow = 0
        if waited >= SLOW_ANSWER_S:
            # One slow spell counts from its first request, while some request waits past SLOW_ANSWER_S: in a hang
            # the oldest timed out and left a younger one, and "waiting 89 s" went back to "52 s".
            began = time.monotonic() - waited
            self._slow_from = began if self._slow_from is None else min(self._slow_from, began)
            slow = int(time.monotonic() - self._slow_from)
        else:
            self._slow_from = None
        journal = self._journal_words()
        if slow != self._slow or journal != self.journal_state or newer_answered != self._newer_answered:
            self._slow, self.journal_state, self._newer_answered = slow, journal, newer_answered
            self._show_connection()

    def _journal_words(self) -> str:
        session = self.session
        if session is None or not session.journal_ready or session.journal is None:
            return ""  # opening, or none at all (said once, when it could not be opened)
        status = session.journal.status()
        return status.text() if status.state != "ok" or status.lost else ""  # a burst's waiting is no trouble

    def _user_back(self) -> None:
        """Started while the service was down: who we are, once it answers (the header's workspace, the pane)."""
        session = self.session
        if session is not None and session.user is None and session.client.uses_user_key:
            self.run_worker(self._read_user(), group="user", exclusive=True, exit_on_error=False)

    async def _read_user(self) -> None:
        session = session_of(self)
        try:
            session.user = await session.client.me()
        except ApiError:
            return  # said where it was asked; the header already shows the connection
        self._user_known(session.client.org_id)

    def _follow_users_workspace(self) -> None:
        """A workspace that is not the user's (or none) becomes the user's first."""
        session = session_of(self)
        user = session.user
        if user is not None and user.orgs and session.client.org_id not in {o.id for o in user.orgs}:
            session.client.org_id = user.orgs[0].id

    def _user_known(self, before: str | None) -> None:
        """The user was read after the panes were shown for workspace `before`: the header, and the panes if it moved."""
        session = session_of(self)
        self._follow_users_workspace()
        if session.client.org_id != before:
            self._workspace_changed()
        else:
            self.refresh_headers()
            for pane in self.query_one("#panes", ContentSwitcher).query(Pane):
                if pane.id == "workspaces":
                    pane.workspace_changed()

    def report(self, error: ApiError, doing: str | None = None) -> None:
        """An error no pane owns: say it, and mark the connection. `doing`: what failed, in words ("Could not list
        the sources and workflows"): the service's words alone ("injected fault: the service failed") named
        nothing the user had asked for."""
        if isinstance(error, AuthError):
            self.post_message(AuthFailed(error))  # the profile screen, or a notification
            return
        lead = f"{doing}: " if doing else ""
        if isinstance(error, NetworkError):  # nothing answered: never "the service said"
            self.connection("offline")
            self.notify(lead + describe_error(error), title=said_by(error), severity="error", markup=False)
            return
        self.notify(lead + visible(with_status(error), 300), title="The service said", severity="error", markup=False)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """As Textual's, less a copy still shown of the same words: `r r r r` on Health stacked four "Listing the
        sources and workflows again." over half the board at 80x24."""
        for shown in [n for n in self._notifications if n.message == message and n.title == title]:
            self._unnotify(shown, refresh=False)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def on_auth_failed(self, message: AuthFailed) -> None:
        """A refused credential: the profile screen to fix it (a 403 or the demo: only say so)."""
        error = message.error
        if error.status == 403:  # the credential is fine; this request is not for it
            self.notify(visible(error.message, 300), title="Not allowed", severity="error", markup=False)
            return
        self.connection("auth")
        from .screens.profile import fix_profile

        if fix_profile(self, error):
            return
        self.notify(
            f"{visible(error.message, 200)} — check the profile's key (aftui config show), or press r to retry.",
            title="Authentication failed",
            severity="error",
            timeout=10,
            markup=False,
        )

    # --- health: the board's feeds, alerts, the header's count ---------------------------------------

    def start_health(self) -> None:
        """Start the health board: its rows, then its feeds (once; again after a workspace or profile change)."""
        session = self.session
        if self.health is not None or session is None:
            return
        self.health = HealthWatch(
            session.feeds,  # asked for once the rows are drawn: the feeds import the journal, which rows do not need
            now_ms=lambda: int(session.now().timestamp() * 1000),
            poll_interval_s=self.health_poll_s,
        )
        self._health_subjects()
        if self._health_timers is None:
            self._health_timers = (
                self.set_interval(HEALTH_TICK_S, self._health_tick),
                self.set_interval(HEALTH_SUBJECTS_S, self._health_subjects),
                self.set_interval(HEALTH_REPLAYS_S, self._health_replays),
            )

    def refresh_health(self) -> None:
        """List the sources and workflows again, as the user asked (r): new ones join the board; a failure is said."""
        if self.health is not None:
            self._health_subjects(asked=True)

    def _stop_health(self) -> None:
        health, self.health = self.health, None
        if health is not None:
            health.close()
            if self.session is not None:
                self._health_told.stop(self, self.session.client)
        records, self._replay_records = self._replay_records, None
        if records is not None:
            records.close()

    @work(group="health-replays", exclusive=True, exit_on_error=False)
    async def _health_replays(self) -> None:
        """Whether the last hour's errors were replayed, from the replay records (whoever sent them, on a team's
        journal): a workflow whose every error of the hour was replayed ok is `fixed` on the board, not failing."""
        health, session = self.health, self.session
        if health is None or session is None or not health.counted:
            return
        if time.monotonic() - self._switches_read >= HEALTH_SWITCHES_S:
            self._switches_read = time.monotonic()
            self._health_switches()
        errors = health.board.hour_errors()
        if not errors:
            return
        if self._replay_records is None:
            from .screens.replay_journal import ReplayJournal  # the replay screens' own: once there are errors

            self._replay_records = ReplayJournal(session)
        records = self._replay_records
        await asyncio.to_thread(records.open)
        if records.log is None:
            return  # no journal to read (said where a replay is sent): the board cannot tell, and says failing
        try:
            found = await asyncio.to_thread(read_replays, records.log, errors)
        except Exception as error:  # noqa: BLE001 - a locked or damaged journal must not stop live health
            log.warning("health: the replay records could not be read: %s", error)
            return
        if health is self.health:  # not replaced (another workspace) while it read
            for subject_id, kinds in found.items():
                health.board.note_replays(subject_id, kinds)
            self._show_health()
            unsure = [s for s, kinds in found.items() if "unknown" in kinds.values()]
            if unsure and self._connection == "ok":
                self._health_settle(unsure, errors)

    @work(group="health-settle", exclusive=True, exit_on_error=False)
    async def _health_settle(self, subjects: list[str], errors: dict[str, list[EventSummary]]) -> None:
        """Replays sent in an outage stayed "unknown", and their workflow failing on Health, until the Errors tab,
        a replay screen or the CLI looked for their outcomes: Health looks itself, once the service answers, at
        most every HEALTH_SETTLE_S a workflow (a look reads its last 100 errors and events)."""
        from ..replay.settle import unknown_of
        from ..replay.states import touching_rows
        from .screens.replay_journal import found_words

        records = self._replay_records
        if records is None or records.log is None:
            return
        log_ = records.log
        for subject_id in subjects:
            if time.monotonic() - self._settled_at.get(subject_id, -HEALTH_SETTLE_S) < HEALTH_SETTLE_S:
                continue
            self._settled_at[subject_id] = time.monotonic()
            items = errors[subject_id]
            rows = await asyncio.to_thread(touching_rows, log_, subject_id, items)
            if not unknown_of(rows):
                continue
            found = await records.settle(rows, {e.id: e for e in items if e.id})
            if found:
                # Named: told on Health, it is not the screen of one workflow.
                name = next((s.label for s in self._board_subjects() if s.id == subject_id), subject_id)
                self.notify(
                    f"{found_words(found)} of {visible(name, 60)}: sent with the outcome unknown, now seen in its "
                    "errors and events",
                    title="Replay outcome found",
                    timeout=8,
                    markup=False,
                )

    def _board_subjects(self) -> list[Subject]:
        return self.health.board.subjects() if self.health is not None else []

    @work(group="health-switches", exclusive=True, exit_on_error=False)
    async def _health_switches(self) -> None:
        """Whether each workflow with errors is on: a deactivated one gets no run to say whether it is fixed, and
        Health had said "the next runs say if it is fixed" of it. Only those with errors: a few GETs a minute."""
        health, session = self.health, self.session
        if health is None or session is None:
            return
        wanted = [
            r.subject.id for r in health.board.rows(health.now_ms()) if r.subject.kind == "workflow" and r.errors_24h
        ]
        limit = asyncio.Semaphore(DETAILS_AT_ONCE)

        async def switch_of(ident: str) -> tuple[str, bool | None]:
            async with limit:
                try:
                    return ident, (await session.client.get_workflow(ident)).active
                except ApiError:
                    return ident, None  # not known now: the row says nothing of it

        found = await asyncio.gather(*(switch_of(ident) for ident in wanted))
        if health is self.health:
            for ident, active in found:
                health.board.set_active(ident, active)
            self._show_health()

    def switched(self, workflow_id: str, active: bool | None) -> None:
        if self.health is not None:
            self.health.board.set_active(workflow_id, active)
            self._show_health()

    @work(group="health", exclusive=True, exit_on_error=False)
    async def _health_subjects(self, *, asked: bool = False) -> None:
        """What the board reports on: the workspace's sources and the workflows aftui knows, filled from the journal.

        A failure is said at the first listing and when the user asked (`asked`: r said "Listing … again" and
        then nothing); the minutely listing's stays quiet: the feeds and the header say the rest."""
        health, session = self.health, self.session
        if health is None or session is None:
            return
        try:
            from .screens.monitor_targets import workspace_subjects

            found = await workspace_subjects(session)
        except ApiError as error:
            log.info("health: the workspace's sources could not be listed: %s", error.message)
            self._health_painted.set()
            if not health.started or asked:
                self.report(error, "Could not list the sources and workflows")
            return
        if not health.started:
            # The list first, counts to follow: the rows are drawn before the journal is read and before the
            # feeds start, whose streams and backfill would otherwise compete with the first paint. A workflow
            # not remembered yet shows its id until its name comes (`_named`, after the paint: its GET and
            # pydantic's import had held the first screen of a first start up by 100 ms).
            health.know(found)
            self._show_health()
            await self._pane_built.wait()  # listed before the first pane was up (`_start`): it draws them
            self._show_health()  # told while being mounted and not yet shown, it had drawn nothing
            self._rows_due = True
            painted = asyncio.Event()
            self.call_after_refresh(painted.set)
            await painted.wait()
            self._health_painted.set()
        subjects = await _named(session, found)
        history = None
        if not health.started:
            await asyncio.to_thread(health.feeds.take_journal)  # opened once the rows are drawn: waited for here
            journal = health.journal
            if journal is not None:
                try:
                    history = await asyncio.to_thread(load_history, journal, subjects, health.now_ms())
                except Exception as error:  # noqa: BLE001 - a damaged journal must not stop live health
                    log.warning("health: the journal could not be read: %s", error)
        if health is self.health:  # not replaced (another workspace) while it listed
            health.watch(subjects, history)
            self._health_tick()

    def get_driver_class(self) -> type[Driver]:
        return input_first(super().get_driver_class())

    def input_arrived(self) -> None:
        """A key or click, on the driver's input thread: the feeds step back before it crosses to the UI's loop.

        Only a deadline is set here (`Gate.hold`); `_feeds_input_first` holds again once the App has
        the key, and `_key_painted` opens the gate when its frame is painted.
        """
        feeds = self._running_feeds()
        if feeds is not None:
            feeds.gate.hold(for_input=True)

    def _feeds_input_first(self) -> None:
        """A key or click, on any screen: the session's feeds (Health's and the monitor's, one Monitor) step
        back until the frame it changes is painted (`_key_painted`).

        During a burst the feeds' thread holds the GIL most of the time, and the UI's thread waits for
        it at every turn of its event loop: a key took 50-100 ms to answer. Held, the feeds pause between
        two events (the network buffers what arrives), for at most `monitor.feeds.INPUT_FIRST_S`: what
        no binding answers (a letter typed into a field, a scroll) is let go by that deadline.
        """
        feeds = self._running_feeds()
        if feeds is not None:
            feeds.gate.hold(for_input=True)

    def _health_tick(self) -> None:
        health = self.health
        if health is None or not health.started:
            return
        alerted = self._health_take(health)
        self._health_told.tell(self, health.states.values())
        if not alerted and self._unseen.count and self._health_on_screen():
            self.alerts_seen()  # back on the Health pane from a detail: what was new is in front of the user
        self._show_health()

    def _health_take(self, health: HealthWatch) -> bool:
        """A slice of what the feeds brought (True: it raised alerts); in a burst the rest follows a turn of
        the loop later, so that keys are handled in between."""
        alerts = health.take(HEALTH_TAKE_AT_ONCE)
        if alerts:
            self._alerted(alerts)
        if health.behind and not self._health_catching_up:
            self._health_catching_up = True
            self.set_timer(HEALTH_CATCH_UP_S, self._health_catch_up)
        return bool(alerts)

    def _health_catch_up(self) -> None:
        self._health_catching_up = False
        health = self.health
        if health is None or not health.started or not health.behind:
            return
        if self._answering_input():  # a key's frame first: the slice waits a turn
            self._health_catching_up = True
            self.set_timer(HEALTH_CATCH_UP_S, self._health_catch_up)
            return
        self._health_take(health)

    def _paint_keys_at_once(self, screen: Screen[Any]) -> None:
        if screen not in self._keyed_screens:
            self._keyed_screens.add(screen)
            paint_keys_at_once(screen, self._frame_waits, self._frame_painted)

    def _frame_waits(self) -> bool:
        """The frame the screen wants now is painted at once, not at its timer's next tick: it answers a key,
        or it draws the first screen's rows (the timer's wait was 10 ms of a start's 280, traced in tmux)."""
        self._keyed_frame = self._key_waits()
        rows, self._rows_due = self._rows_due, False
        return self._keyed_frame or rows

    def _frame_painted(self) -> None:
        if self._keyed_frame:
            self._key_painted()

    def _key_waits(self) -> bool:
        """The frame the screen wants now answers a key: its action ran, and its hold of the feeds is still on (once).

        Without the feeds running nothing competes with the key's frame: Textual's pace is kept."""
        due, self._answer_due = self._answer_due, False
        return due and self._answering_input()

    def _key_painted(self) -> None:
        """The key's frame is painted: the feeds go on (`_feeds_input_first` held them)."""
        feeds = self._running_feeds()
        if feeds is not None:
            feeds.gate.open()

    def _answering_input(self) -> bool:
        feeds = self._running_feeds()
        return feeds is not None and feeds.gate.answering_input

    def _running_feeds(self) -> Monitor | None:
        """The session's feeds if they run (a plain read: safe from the driver's input thread too)."""
        session = self.session
        return session.running_feeds if session is not None else None

    def _show_health(self) -> None:
        if not self.screen_stack:
            return
        main = self.screen_stack[0]
        if self.screen is not main:
            # Covered (the monitor, a detail, a dialog): drawn now, it would only be drawn over, and Textual
            # repaints the screen on top wherever the one below it changed: a whole monitor screen each
            # second. Drawn when the main screen is back (`_screen_changed`).
            self._health_unshown = True
            return
        self._health_unshown = False
        for pane in main.query(Pane):
            if pane.display:
                pane.health_changed()

    def _screen_changed(self, screen: Screen[Any]) -> None:
        self._paint_keys_at_once(screen)
        self._opening.screen_changed()
        opened = len(self.screen_stack) > self._screens_deep
        self._screens_deep = len(self.screen_stack)
        if opened or isinstance(screen, ModalScreen):
            self._alert_toasts_down()
        if self._health_unshown and self.screen_stack and screen is self.screen_stack[0]:
            self._show_health()

    def _alerted(self, alerts: list[Alert]) -> None:
        """Say new error groups and spikes: a notification, the header's count, the bell if wanted.

        Not a notification over a dialog (a form, a question, `?`): at 80x24 it covered the field being typed
        in, its hint and its error; nor over a screen where a replay is being readied or run (`QUIET_FOR_ALERTS`):
        it covered the payload being edited, and the bulk replay's last rows and progress. The count is in the
        header, and the bell rings.
        Neither on the Health pane, where the alert is the board's row, failing on top: a notification there
        covered four of its rows at start, and the header did not count it either."""
        session = self.session
        if session is not None:
            self.fired.add(session.client.org_id or "", alerts)
        on_health = self._health_on_screen()
        if not _quiet_for_alerts(self.screen) and not on_health:
            self._notify_alerts(alerts)
        if not on_health:
            self._unseen.add(alerts)
            self._show_alert_count()
        if self.bell_on_alert:
            self.bell()

    def _notify_alerts(self, alerts: list[Alert]) -> None:
        shown = alerts if len(alerts) <= ALERTS_AT_ONCE else []
        for alert in shown:
            self._alert_toast(visible(alert.text, 300), alert.title)
        if not shown:
            groups = len({a.fingerprint for a in alerts})
            self._alert_toast(
                f"{len(alerts)} alerts: {groups} error groups new or spiking. The Health pane (0) shows where.",
                "Errors",
            )

    def _alert_toast(self, message: str, title: str) -> None:
        """An alert's notification, kept to be taken down when a dialog opens over it (`_alert_toasts_down`)."""
        toast = Notification(message, title, "error", ALERT_TOAST_S, markup=False)
        self._alert_toasts = [t for t in self._alert_toasts if not t.has_expired] + [toast]
        self.post_message(Notify(toast))

    def _alert_toasts_down(self) -> None:
        """A screen opened (a detail, the bulk replay) or a dialog (a form, a question): the alerts' notifications
        raised before it go, as none is raised over a dialog. Shown on until they ran out, they covered a form's
        buttons and the bulk replay's last rows and progress at 80x24; the header counts them, and Health marks
        their rows once shown."""
        toasts, self._alert_toasts = self._alert_toasts, []
        for toast in toasts:
            if toast in self._notifications:
                self._unnotify(toast)

    def _health_on_screen(self) -> bool:
        pane = self._shown_pane()
        return pane is not None and pane.id == "health"

    def alerts_fired(self) -> list[Alert]:
        """The alerts of the session in the workspace shown, oldest first."""
        session = self.session
        return self.fired.of(session.client.org_id or "") if session is not None else []

    @property
    def alert_count(self) -> int:
        """Alerts (new error groups, spikes) raised since the Health pane was last shown."""
        return self._unseen.count

    def alerts_seen(self) -> None:
        """The Health pane is shown: the header's count goes, and the pane marks the rows those alerts were of."""
        missed = self._unseen.take()
        self._alert_toasts_down()  # what they said is on the board now, and they covered its last rows
        if missed:
            for pane in self.screen_stack[0].query(Pane):
                pane.alerts_missed(missed)
        self._show_alert_count()

    def _show_alert_count(self) -> None:
        for screen in self.screen_stack:
            for header in screen.query(StatusHeader):
                header.alerts = self._unseen.count

    def on_view_value(self, message: ViewValue) -> None:
        from .screens.value import ValueScreen

        self.push_screen(ValueScreen(message.title, message.value))

    # --- opening things by id ---------------------------------------------------------------------

    def open_id(self, ident: str) -> bool:
        """Open a resource from its id; the prefix tells its kind. False when the prefix is unknown."""
        from .opener import open_resource

        return open_resource(self, ident.strip())


def _held_by(screen: Screen[Any], *, unknown: str | None) -> str | None:
    """What leaving `screen` would lose, in words (its `held()`; None: nothing, a view); `unknown` for a screen
    that does not say (a pane key takes it for one the user leaves, a quit for one that holds nothing)."""
    held = getattr(screen, "held", None)
    return held() if held is not None else unknown


async def _named(session: Session, subjects: list[Subject]) -> list[Subject]:
    """Workflows found by id only (in subscriptions) get their names from GET /workflows/{id}, a few at a time.

    Each is remembered with its name, as the Workflows pane does: the next start reads the names from disk
    and draws the board without waiting for these requests.
    """
    limit = asyncio.Semaphore(DETAILS_AT_ONCE)

    async def name_of(subject: Subject) -> Subject:
        if subject.kind != "workflow" or subject.name:
            return subject
        async with limit:
            try:
                workflow = await session.client.get_workflow(subject.id)
            except ApiError:
                return subject  # its errors may name it (the board takes the name from them)
        session.known.add(session.org_id or "", subject.id, name=workflow.name, found="subscription")
        return Subject(subject.kind, subject.id, workflow.name or "")

    return list(await asyncio.gather(*(name_of(s) for s in subjects)))


# mypy holds the App to what screens take it for: a member missing from AftuiApp, or typed otherwise, fails here.
_IMPLEMENTS_HOST: type[Host] = AftuiApp


def _quiet_for_alerts(screen: Screen[Any]) -> bool:
    """No alert's notification over this screen: a dialog, or a screen that says so (a replay being readied)."""
    return isinstance(screen, ModalScreen) or bool(getattr(screen, "QUIET_FOR_ALERTS", False))
