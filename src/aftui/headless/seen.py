"""Ids and names the headless commands have listed, kept for shell completion (`completion.json` in the data dir).

Completion runs on every TAB and must not wait on the network nor run a
password manager for a key: it offers what the last `aftui sources`,
`aftui webhooks`, ... printed, per workspace, and the workflows aftui knows.
The file is private (0600) and small: at most `MAX_PER_KIND` of each kind.
Stdlib only, so completing stays fast.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["FILE_NAME", "KNOWN_NAME", "every_name", "forget", "known_workflows", "offered", "remember"]

FILE_NAME = "completion.json"
KNOWN_NAME = "known_workflows.json"  # the user's known workflows (aftui.known), as the TUI's session names the file
MAX_PER_KIND = 2000


def _path() -> Path:
    from ..config.paths import data_dir

    return data_dir() / FILE_NAME


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}  # missing or damaged: nothing to offer yet
    return data if isinstance(data, dict) else {}


def remember(org: str, kind: str, pairs: Iterable[tuple[str, str | None]], *, replace: bool = True) -> None:
    """Keep these (id, name) pairs of `kind` in workspace `org`: instead of what was kept (a whole list was
    printed), or besides it (a filtered one). Never fails the command."""
    from ..files import write_private

    try:
        path = _path()
        data = _read(path)
        workspace = data.setdefault(org, {})
        if not isinstance(workspace, dict):
            workspace = data[org] = {}
        fresh = {ident: name or "" for ident, name in pairs if ident}
        old = workspace.get(kind)
        if not replace and isinstance(old, dict):
            fresh = {**fresh, **{k: v for k, v in old.items() if k not in fresh}}
        kept = dict(list(fresh.items())[:MAX_PER_KIND])
        if workspace.get(kind) == kept:
            return
        workspace[kind] = kept
        write_private(path, json.dumps(data, indent=0, sort_keys=True))
    except OSError:
        pass  # completion is a nicety: an unwritable data dir costs only it


def offered(org: str, kinds: Iterable[str]) -> dict[str, str]:
    """id -> name of the given kinds in workspace `org`, as last listed."""
    try:
        data = _read(_path())
    except OSError:
        return {}
    workspace = data.get(org)
    out: dict[str, str] = {}
    if not isinstance(workspace, dict):
        return out
    for kind in kinds:
        entries = workspace.get(kind)
        if isinstance(entries, dict):
            out.update({str(k): str(v) for k, v in entries.items()})
    return out


def known_workflows(org: str) -> dict[str, str]:
    """id -> name of the workflows aftui knows in workspace `org` (read without aftui.known's class)."""
    from ..config.paths import data_dir

    try:
        data = _read(data_dir() / KNOWN_NAME)
    except OSError:
        return {}
    workspace = data.get(org)
    if not isinstance(workspace, dict):
        return {}
    return {
        str(ident): str(entry.get("name") or "") if isinstance(entry, dict) else ""
        for ident, entry in workspace.items()
    }


def forget(org: str, kind: str, ident: str) -> None:
    """Stop offering an id that was deleted."""
    from ..files import write_private

    try:
        path = _path()
        data = _read(path)
        entries = data.get(org, {}).get(kind) if isinstance(data.get(org), dict) else None
        if isinstance(entries, dict) and entries.pop(ident, None) is not None:
            write_private(path, json.dumps(data, indent=0, sort_keys=True))
    except OSError:
        pass


def every_name() -> dict[str, str]:
    """id -> name of everything listed and every known workflow, in every workspace (for `aftui journal stats`)."""
    from ..config.paths import data_dir

    out: dict[str, str] = {}
    try:
        listed, known = _read(_path()), _read(data_dir() / KNOWN_NAME)
    except OSError:
        return out
    for workspace in known.values():  # {org: {id: {name, found}}}
        if isinstance(workspace, dict):
            for ident, entry in workspace.items():
                name = entry.get("name") if isinstance(entry, dict) else None
                if isinstance(name, str) and name:
                    out.setdefault(str(ident), name)
    for workspace in listed.values():  # {org: {kind: {id: name}}}
        if isinstance(workspace, dict):
            for entries in workspace.values():
                if isinstance(entries, dict):
                    for ident, name in entries.items():
                        if isinstance(name, str) and name:
                            out.setdefault(str(ident), name)
    return out
