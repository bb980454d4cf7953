"""Where aftui's files are: the config file, the data dir and the official CLI's config, after XDG."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "config_path",
    "data_dir",
    "display_path",
    "make_private_dir",
    "pipedream_cli_path",
    "use_data_dir",
    "user_data_dir",
]

_chosen: list[Path] = []  # a data dir this process was told to use (the running demo's), over the rest


def config_path() -> Path:
    """The config file: $AFTUI_CONFIG, else $XDG_CONFIG_HOME/aftui/config.toml, else ~/.config/aftui/config.toml."""
    return _env_path("AFTUI_CONFIG") or _xdg_dir("XDG_CONFIG_HOME", ".config") / "aftui" / "config.toml"


def data_dir() -> Path:
    """The directory of aftui's own data (the journal, the log, ...), created with mode 0700 when missing.

    The one `use_data_dir` chose, else the user's (`user_data_dir`).
    """
    if not _chosen:
        return user_data_dir()
    make_private_dir(_chosen[-1])
    return _chosen[-1]


def user_data_dir() -> Path:
    """The user's data dir, whatever this process was told to use: $AFTUI_DATA_DIR, else
    $XDG_DATA_HOME/aftui, else ~/.local/share/aftui; created with mode 0700 when missing."""
    directory = _env_path("AFTUI_DATA_DIR") or _xdg_dir("XDG_DATA_HOME", ".local/share") / "aftui"
    make_private_dir(directory)
    return directory


def use_data_dir(directory: Path) -> None:
    """From now on, this process's data dir is `directory` (a command on the running demo uses the demo's)."""
    _chosen[:] = [directory]


def pipedream_cli_path() -> Path:
    """The official CLI's config: $XDG_CONFIG_HOME/pipedream/config, else ~/.config/pipedream/config."""
    return _xdg_dir("XDG_CONFIG_HOME", ".config") / "pipedream" / "config"


def display_path(path: Path) -> str:
    """The path as the user would type it: ~/... under the home directory."""
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except (ValueError, RuntimeError):  # outside home, or no home to speak of
        return str(path)


def make_private_dir(directory: Path) -> None:
    """Create `directory` with mode 0700 if it is missing; never touch an existing one."""
    if directory.is_dir():
        return
    directory.parent.mkdir(parents=True, exist_ok=True)
    try:
        directory.mkdir(mode=0o700)
    except FileExistsError:
        return  # another process made it first; its mode is its business
    os.chmod(directory, 0o700)  # mkdir's mode is filtered through the umask


def _env_path(variable: str) -> Path | None:
    value = os.environ.get(variable)
    return Path(value).expanduser() if value else None


def _xdg_dir(variable: str, fallback: str) -> Path:
    # The XDG spec says to ignore relative paths: they would depend on the
    # directory aftui happens to be started from.
    value = os.environ.get(variable)
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / fallback
