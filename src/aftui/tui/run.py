"""Starting the TUI: on a profile, on the start screen when none is configured, or on an in-process emulator (the demo).

`aftui` opens the profile chosen by `-p NAME`, AFTUI_PROFILE or the config's
default. With nothing configured it opens the start screen, which offers the
demo or a form to add a profile. `aftui demo` goes straight to the demo. The
demo's emulator runs on a thread of this process and is stopped when the app
exits, whichever way the demo was started.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..api import Client
from ..config import Profile, effective_profile, load_config
from ..config.demo import demo_folder, record_running_demo
from ..journal.opening import JournalConfig
from .app import AftuiApp
from .choices import saved_choices
from .collector import start_kept
from .paste import use_paste_parser
from .session import TUI_RETRY, Session, open_session

if TYPE_CHECKING:
    from ..emulator.child import EmulatorProcess

# Any of these in the environment is a credential: effective_profile makes an "env" profile of it.
_CREDENTIAL_VARIABLES = ("AFTUI_API_KEY", "AFTUI_CLIENT_ID", "AFTUI_CLIENT_SECRET")


def chosen_profile(name: str | None = None) -> Profile | None:
    """The profile `aftui` opens: `name`, else AFTUI_PROFILE, else the default; None when nothing is configured.

    Raises `ConfigError` for a malformed file, an unknown name or a bad AFTUI_* variable.
    """
    config = load_config()
    nothing_configured = not config.profiles and not os.environ.get("AFTUI_PROFILE")
    if name is None and nothing_configured and not any(os.environ.get(v) for v in _CREDENTIAL_VARIABLES):
        return None
    return effective_profile(config, name)


def profile_session(profile: Profile, *, read_only: bool = False) -> Session:
    """A session on `profile`; its secrets are resolved now (`ConfigError` when an env var or command fails)."""
    client = Client.from_profile(profile, retry=TUI_RETRY)
    client.read_only = client.read_only or read_only
    return open_session(client, profile.name, journal=JournalConfig.of_profile(profile))


def make_app(profile_name: str | None = None, *, read_only: bool = False) -> AftuiApp:
    """The app `aftui` runs: on the chosen profile, or on the start screen. Raises `ConfigError`."""
    profile = chosen_profile(profile_name)
    session = None if profile is None else profile_session(profile, read_only=read_only)
    # The start screen's demo is handed down from here: screens sit below run.py and do not import it.
    return AftuiApp(
        session,
        start_pane="health",
        profile=profile,
        force_read_only=read_only,
        start_demo=start_demo,
        ui=saved_choices(),
    )


def run_app(app: AftuiApp) -> int:
    use_paste_parser()  # pasted text whole and in order, escapes and all (paste.py)
    start_kept()
    try:
        app.run()
    finally:
        app.run_cleanups()  # the demo's emulator, when the start screen started one
    return app.return_code or 0


def run_tui(profile_name: str | None = None, *, read_only: bool = False) -> int:
    """`aftui` with no command. Raises `ConfigError` before anything is drawn."""
    return run_app(make_app(profile_name, read_only=read_only))


def start_demo(seed: int = 1, *, activity: bool = True, hostile: bool = False) -> tuple[Session, Callable[[], None]]:
    """The emulator on a free loopback port, and a demo session on it; call the second item to stop it."""
    from ..emulator.server import Options, serve_in_thread

    handle = serve_in_thread(Options(port=0, seed=seed, activity=activity, hostile=hostile))
    try:
        info = handle.emulator.describe()
        session = demo_session(handle.base_url, info)
    except BaseException:
        handle.stop()
        raise
    forget = record_running_demo({**info, "base_url": handle.base_url})

    def stop() -> None:
        forget()
        handle.stop()

    return session, stop


def run_demo(emulator: EmulatorProcess, *, read_only: bool = False) -> int:
    """`aftui demo`: the TUI against the demo's emulator, which `cli` started in its own process before
    importing the TUI, so that the two get ready at once."""
    try:
        info = emulator.describe()
        session = demo_session(info["base_url"], info)
    except BaseException:
        emulator.stop()
        raise
    session.client.read_only = read_only
    app = AftuiApp(session, start_pane="health", force_read_only=read_only, ui=saved_choices())
    app.cleanups.append(emulator.stop)
    app.cleanups.append(record_running_demo(info))  # for `aftui -p demo COMMAND` in another terminal
    return run_app(app)


def demo_session(base_url: str, info: dict, *, data: Path | None = None) -> Session:
    """A session against a running emulator (tests, benchmarks, screenshots); its files (journal included) in `data`.

    The demo keeps its own journal beside its known workflows, so trying the demo never fills the user's journal.
    """
    client = Client(
        base_url, api_key=info["api_key"], org_id=info["org_id"], project_id=info["project_id"], retry=TUI_RETRY
    )
    # The user's demo folder: each demo is a new emulator, whose events and errors have new ids, and the last
    # demo's journal counted its errors again beside the new ones (Health said 29 where the Errors tab listed
    # 12). Its journal (with the replays) is begun afresh as it opens; the workflows it remembered stay (the
    # seed's, the same each time: Health has their names without asking the service for each).
    return open_session(client, "demo", demo_data=data or demo_folder(), journal_afresh=data is None)
