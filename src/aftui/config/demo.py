"""The running demo as a profile: `aftui -p demo COMMAND` in another terminal talks to `aftui demo`'s emulator.

The demo's emulator listens on a free port with a key of its own, so no saved profile can name it.
While it runs, the demo leaves its connection in its folder (`running.json`, mode 0600, removed when
it ends); a profile named "demo" that the config does not define is read from there. The demo keeps
its own journal and known workflows in that folder, so a command on it uses them too: trying the
demo never fills the user's journal, nor a team's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .errors import ConfigError, DemoNotRunning
from .paths import make_private_dir, use_data_dir, user_data_dir
from .profiles import Config, Profile, load_config

__all__ = [
    "DEMO_PROFILE",
    "demo_chosen",
    "demo_folder",
    "record_running_demo",
    "running_demo",
    "use_demo_files",
]

DEMO_PROFILE = "demo"  # the name the demo's session has (its header says it), and `-p` takes
RUNNING_NAME = "running.json"
_FIELDS = ("base_url", "api_key", "org_id", "project_id")


def demo_folder() -> Path:
    """Where the demo keeps its files (journal, known workflows) apart from the user's."""
    return user_data_dir() / "demo"


def record_running_demo(info: Mapping[str, Any], folder: Path | None = None) -> Callable[[], None]:
    """Leave the demo's connection for `-p demo`; returns what forgets it (only if it is still this process's)."""
    path = (folder or demo_folder()) / RUNNING_NAME
    make_private_dir(path.parent)
    record = {"pid": os.getpid(), **{field: info.get(field) for field in _FIELDS}}
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as out:
        json.dump(record, out)

    def forget() -> None:
        if _read(path).get("pid") == record["pid"]:  # a newer demo's is left alone
            path.unlink(missing_ok=True)

    return forget


def _named_demo(name: str | None) -> bool:
    """Whether the profile wanted (`-p`, else AFTUI_PROFILE) is called "demo"."""
    return (name or os.environ.get("AFTUI_PROFILE")) == DEMO_PROFILE


def demo_chosen(config: Config, name: str | None) -> bool:
    """Whether the profile wanted is the running demo: called "demo", and not defined in the config."""
    return _named_demo(name) and DEMO_PROFILE not in config.profiles


def use_demo_files(name: str | None) -> None:
    """When the profile wanted is the running demo, this process's data dir becomes the demo's folder.

    Called before a command starts: what it reads first (known workflows, the journal) is the demo's.
    A config that cannot be read is left for the command to report.
    """
    if not _named_demo(name):
        return  # the config is not read for this on every start
    try:
        chosen = demo_chosen(load_config(), name)
    except ConfigError:
        return
    if chosen:
        use_data_dir(demo_folder())


def running_demo() -> Profile:
    """The running demo's profile. Raises ConfigError when no demo runs (none started, or it ended)."""
    record = _read(demo_folder() / RUNNING_NAME)
    pid = record.get("pid")
    if not isinstance(pid, int) or not _alive(pid) or not all(isinstance(record.get(f), str) for f in _FIELDS[:2]):
        raise DemoNotRunning(
            f"no profile {DEMO_PROFILE!r} is configured and no demo is running: start `aftui demo`, "
            f"then `aftui -p {DEMO_PROFILE} COMMAND` in another terminal"
        )
    return Profile(
        name=DEMO_PROFILE,
        base_url=record["base_url"],
        api_key=record["api_key"],
        org_id=_text(record.get("org_id")),
        project_id=_text(record.get("project_id")),
    )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _read(path: Path) -> dict[str, Any]:
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False  # another user's process: the demo (ours) ended and its pid was taken
    return True
