"""Shell completion (argcomplete): what a TAB offers for profiles and ids, without touching the network.

Commands and options complete from the parser itself. Profiles come from the
config file; ids (and names) from what the last lists printed (`seen.py`)
and the workflows aftui knows, in the workspace of the profile named on the
command line. Stdlib only at import: the parser is built on every TAB.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

__all__ = ["SHELLS", "Ids", "attach", "profiles", "shell_code"]

SHELLS = ("bash", "zsh", "fish", "tcsh", "powershell")


def profiles(*, prefix: str = "", **_: Any) -> list[str]:
    """The profiles of the config file."""
    from ..config import ConfigError, load_config

    try:
        names = sorted(load_config().profiles)
    except (ConfigError, OSError):
        return []
    return [name for name in names if name.startswith(prefix)]


def usable_profiles(*, prefix: str = "", **_: Any) -> list[str]:
    """What `-p` takes: the config's profiles, and `demo` while a demo runs (not in the file: `config use`
    and `remove` do not take it)."""
    from ..config import ConfigError
    from ..config.demo import DEMO_PROFILE, running_demo

    names = set(profiles())
    try:
        running_demo()
        names.add(DEMO_PROFILE)
    except ConfigError:
        pass  # no demo runs: `-p demo` would be refused
    return [name for name in sorted(names) if name.startswith(prefix)]


def _org(parsed_args: argparse.Namespace | None) -> str:
    """The workspace of the profile the command line names (or the default one); "" when there is none."""
    from ..config import ConfigError, effective_profile, load_config

    try:
        profile = effective_profile(load_config(), getattr(parsed_args, "profile", None))
    except (ConfigError, OSError, ValueError):
        return ""
    return profile.org_id or ""


class Ids:
    """Completes ids of some kinds, and their names (quoted by the shell as needed)."""

    def __init__(self, *kinds: str, names: bool = True) -> None:
        self.kinds = kinds
        self.names = names

    def __call__(self, *, prefix: str = "", parsed_args: argparse.Namespace | None = None, **_: Any) -> list[str]:
        from .seen import known_workflows, offered

        org = _org(parsed_args)
        found = offered(org, self.kinds)
        if "workflow" in self.kinds:
            found.update({k: v for k, v in known_workflows(org).items() if v or k not in found})
        words = list(found)
        if self.names:
            words += sorted({name for name in found.values() if name})
        return [word for word in words if word.startswith(prefix)]


def attach(action: argparse.Action, completer: Any) -> argparse.Action:
    """Give an argument its completer (argcomplete reads the `completer` attribute)."""
    action.completer = completer  # type: ignore[attr-defined]  # argcomplete's protocol: an attribute on the action
    return action


def shell_code(shell: str, prog: Sequence[str] = ("aftui",)) -> str:
    """The lines that make a shell complete `aftui` (to put in its rc file)."""
    import argcomplete

    return str(argcomplete.shellcode(list(prog), shell=shell))


def autocomplete(parser: argparse.ArgumentParser) -> None:
    """When a shell asks for completions (argcomplete sets _ARGCOMPLETE), answer and exit; else nothing."""
    import os

    if "_ARGCOMPLETE" not in os.environ:
        return
    import argcomplete

    argcomplete.autocomplete(parser)
