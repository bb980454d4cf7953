"""The first screen when nothing is configured: try the demo, or add a profile.

It hands the app a session (and the profile behind it, None for the demo)
through `dismiss`; the app goes on from there. The demo is started by what
the app was given (run.start_demo): its emulator runs on a thread of this
process, and its stop goes into the app's cleanups, run when the app exits.
"""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...config import Profile, config_path
from ...journal.opening import JournalConfig
from ...text import visible
from ..host import host
from ..session import DemoStarter, Session, open_session
from ..widgets.footer import KeyFooter
from .profile import ProfileScreen, SavedProfile

Chosen = tuple[Session, Profile | None]


class StartScreen(ModalScreen[Chosen | None]):
    BINDINGS = [
        Binding("d", "demo", "Try the demo"),
        Binding("a", "add", "Add a profile"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, start_demo: DemoStarter) -> None:
        super().__init__()
        self.start_demo = start_demo

    def compose(self) -> ComposeResult:
        with Vertical(id="start"):
            yield Static(Text("Welcome to aftui"), classes="title")
            yield Static(
                Text(
                    "A terminal UI for the workflow automation service. No profile is configured yet"
                    f" ({visible(str(config_path()), 60)} has none)."
                ),
                classes="intro",
            )
            yield OptionList(
                Option(
                    _choice(
                        "Try the demo",
                        "d",
                        "a local emulator of the service with a demo workspace; nothing leaves this machine",
                    ),
                    id="demo",
                ),
                None,
                Option(
                    _choice(
                        "Add a profile",
                        "a",
                        "connect to the service with an API key or an OAuth client; the key is tested before it is saved",
                    ),
                    id="add",
                ),
            )
            yield Static(id="starting")
            yield Static(classes="end")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == "demo":
            self.action_demo()
        elif event.option.id == "add":
            self.action_add()

    def action_quit(self) -> None:
        self.dismiss(None)

    def action_add(self) -> None:
        self.app.push_screen(ProfileScreen(), self._profile_saved)

    def _profile_saved(self, saved: SavedProfile | None) -> None:
        if saved is None:
            return
        self.dismiss(
            (
                open_session(saved.client, saved.profile.name, journal=JournalConfig.of_profile(saved.profile)),
                saved.profile,
            )
        )

    def action_demo(self) -> None:
        self._start_demo()

    @work(group="demo", exclusive=True, exit_on_error=False)
    async def _start_demo(self) -> None:
        status = self.query_one("#starting", Static)
        status.remove_class("failed")
        status.add_class("shown")
        status.update(Text("Starting the emulator…"))
        self.query_one(OptionList).disabled = True
        try:
            session, stop = await asyncio.to_thread(self.start_demo)
        except Exception as error:  # noqa: BLE001 - a port or thread problem: say it, keep the screen
            status.add_class("failed")
            status.update(Text(f"The emulator did not start: {visible(str(error) or type(error).__name__, 300)}"))
            self.query_one(OptionList).disabled = False
            return
        host(self).cleanups.append(stop)
        self.dismiss((session, None))


def _choice(title: str, key: str, description: str) -> Text:
    return Text.assemble((title, "bold"), ("  " + key, "dim"), "\n", (description, "dim"))
