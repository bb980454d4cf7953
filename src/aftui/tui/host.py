"""The App as the screens, panes and forms see it: what they use of it, typed, and how they reach it.

The App imports every screen, so no screen may import the App. They reach
it through `host(node)`, typed by the `Host` protocol below, which AftuiApp
(app.py) implements; mypy holds the App to it there. Textual's own `node.app`
stays what it is, for what every Textual app has (push_screen, notify …).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, cast

from textual.command import Provider
from textual.message_pump import MessagePump

from ..api import Client
from ..config import Profile
from ..health import Alert, HealthWatch
from .session import Session


class Host(Protocol):
    """What the TUI uses of AftuiApp beyond Textual's App."""

    session: Session | None  # None only while the start screen is up, before any screen that reads it
    profile: Profile | None  # the config profile behind the session; None in the demo
    cleanups: list[Callable[[], None]]  # run once the app has exited (the demo's emulator)
    input_listeners: list[Callable[[], None]]  # told of each key or mouse press before it is handled
    health: HealthWatch | None  # the health board and its feeds, once the Health pane started them

    @property
    def alert_count(self) -> int:
        """New error groups and spikes since the Health pane was last shown (the header's count)."""
        ...

    def alerts_seen(self) -> None:
        """The alerts counted in the header are in front of the user: the count goes, Health marks their rows."""
        ...

    def alerts_fired(self) -> list[Alert]:
        """The alerts of the session in the workspace shown, oldest first (`!` lists them)."""
        ...

    def start_health(self) -> None: ...

    def refresh_health(self) -> None: ...

    def switched(self, workflow_id: str, active: bool | None) -> None:
        """A workflow was just activated or deactivated here: Health's row and line say so at once."""
        ...

    @property
    def connection_state(self) -> str:
        """How the connection is doing, as the header says it: ok, connecting, reconnecting, unreachable since 14:02, auth …"""
        ...

    @property
    def journal_state(self) -> str:
        """The journal's trouble for the header ("journal: disk I/O error since 22:09, 120 waiting"), "" when
        it keeps every event."""
        ...

    @property
    def connection_phase(self) -> str:
        """The connection's state as last told by `connection` (ok, connecting, retrying, offline, auth): what code
        decides by; `connection_state` is the header's words for it."""
        ...

    def connection(self, state: str) -> None:
        """Tell the header how the connection is doing ("ok", "retrying", "reconnecting", "offline", "auth")."""
        ...

    def show_pane(self, pane_id: str) -> None: ...

    def go_to_pane(self, pane_id: str) -> None:
        """The pane, with the views over the main screen closed (a screen holding work stays, and says so)."""
        ...

    def set_workspace(self, org_id: str) -> None: ...

    def set_environment(self, environment: str) -> None: ...

    def open_id(self, ident: str) -> bool: ...

    def action_monitor(self) -> None: ...

    def action_alerts(self) -> None: ...

    async def use_profile(self, profile: Profile, client: Client) -> None: ...


def host(node: MessagePump | Provider) -> Host:
    """The running AftuiApp, as `Host`."""
    return cast(Host, node.app)


def session_of(node: MessagePump | Provider) -> Session:
    """The session the app is on, for screens that exist only once one is chosen."""
    session = host(node).session
    if session is None:
        raise RuntimeError("no session yet: this screen opens only once the start screen has chosen one")
    return session
