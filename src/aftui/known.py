"""The workflows aftui knows, per workspace, remembered on disk.

The service cannot list workflows (docs/architecture.md). aftui learns of them where
they show up: subscriptions, event metadata, `$errors`, what it created,
and ids or URLs the user adds. They are kept in the user data dir as JSON,
one map per workspace: id -> {name, found}.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .files import write_private

WORKFLOW_ID = re.compile(r"\bp_[A-Za-z0-9]{4,}\b")


def workflow_id_in(text: str) -> str | None:
    """A workflow id pasted as is or inside a URL (dashboard links carry it)."""
    match = WORKFLOW_ID.search(text)
    return match.group(0) if match else None


class KnownWorkflows:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._data: dict[str, dict[str, dict[str, Any]]] = self._read()

    def _read(self) -> dict[str, dict[str, dict[str, Any]]]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}  # a missing or damaged file only means we know nothing yet
        return data if isinstance(data, dict) else {}

    def in_workspace(self, org_id: str) -> dict[str, dict[str, Any]]:
        workflows = self._data.get(org_id, {})
        return workflows if isinstance(workflows, dict) else {}

    def names_in(self, org_id: str) -> dict[str, str]:
        """Each known workflow of the workspace by id, with its name ("" when none was seen: the file is the user's)."""
        return {ident: _name_of(entry) for ident, entry in self.in_workspace(org_id).items()}

    def add(self, org_id: str, workflow_id: str, *, name: str | None = None, found: str) -> bool:
        """Remember a workflow; True if it was new. A known name is not replaced by None."""
        workflows = self._data.setdefault(org_id, {})
        entry = workflows.get(workflow_id)
        if entry is None:
            workflows[workflow_id] = {"name": name, "found": found}
            self._save()
            return True
        if name and entry.get("name") != name:
            entry["name"] = name
            self._save()
        return False

    def forget(self, org_id: str, workflow_id: str) -> None:
        if self._data.get(org_id, {}).pop(workflow_id, None) is not None:
            self._save()

    def _save(self) -> None:
        write_private(self.path, json.dumps(self._data, indent=1, sort_keys=True))


def _name_of(entry: object) -> str:
    name = entry.get("name") if isinstance(entry, dict) else None
    return name if isinstance(name, str) else ""
