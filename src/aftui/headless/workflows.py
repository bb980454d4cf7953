"""The workflows aftui knows, for headless commands: the same file the TUI keeps, and the same discovery.

The service cannot list workflows (docs/architecture.md): aftui remembers
those it has met (`aftui.known`) in `known_workflows.json` in the data dir,
per workspace, and finds more where they show up (`aftui.discovery`): the
workspace's subscriptions, then the recent `$errors` of each known workflow,
which name the workflows whose runs failed. The TUI's Workflows pane does
the same looks; both write the same file.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterable
from pathlib import Path

from ..api import ApiError, Client
from ..api.models import EventSummary
from ..config import data_dir
from ..discovery import DETAILS_AT_ONCE, DISCOVERY_ROUNDS, Discovery, workflows_in_subscriptions
from ..known import KnownWorkflows
from .journaling import Keeper
from .output import say
from .seen import KNOWN_NAME

__all__ = ["KNOWN_NAME", "discover", "org_key", "read_details", "user_known"]


class _Known(KnownWorkflows):
    """The known workflows where a save that fails (a read-only or missing data dir) costs only the remembering."""

    said = False

    def _save(self) -> None:
        try:
            super()._save()
        except OSError as error:
            if not self.said:
                self.said = True
                say(f"the workflows found are not remembered: {error.strerror or error} ({self.path})")


class _Unsaved(_Known):
    """Nothing known, nothing saved: the data dir cannot be used.

    Never written at all: a save "to /dev/null" fails for a user, but as root (CI, containers) the
    atomic replace of files.py succeeds and puts a regular file in the place of the device.
    """

    def _save(self) -> None:
        if not self.said:
            self.said = True
            say("the workflows found are not remembered: the data dir cannot be used")


def user_known() -> KnownWorkflows:
    """The user's known workflows (the demo keeps its own, elsewhere)."""
    try:
        folder = data_dir()
    except OSError as error:
        say(f"the data dir cannot be used ({error.strerror or error}): no workflow is remembered")
        return _Unsaved(Path(os.devnull))  # reads as nothing known; never saved
    return _Known(folder / KNOWN_NAME)


def org_key(client: Client) -> str:
    """The workspace's key in the known-workflows file (as the TUI keys it)."""
    return client.org_id or ""


async def discover(client: Client, known: KnownWorkflows, keeper: Keeper | None, problems: list[str]) -> Discovery:
    """Subscriptions first, then details and recent `$errors` of every known workflow, a few rounds.

    What cannot be read is said in `problems` (and in the Discovery's `problems` per workflow);
    the events read on the way go to the journal through `keeper`.
    """
    org = org_key(client)
    found = Discovery()
    try:
        async for ident in workflows_in_subscriptions(client):
            found.remember(known, org, ident, "subscription")
    except ApiError as error:
        problems.append(f"subscriptions could not be read: {error.message}")
        found.failed(error)
    limit = asyncio.Semaphore(DETAILS_AT_ONCE)
    scanned: set[str] = set()

    def keep(events: Iterable[EventSummary], emitter: str) -> None:
        if keeper is not None:
            keeper.keep(events, emitter)

    for _ in range(DISCOVERY_ROUNDS):
        todo = [ident for ident in known.in_workspace(org) if ident not in scanned]
        if not todo:
            break
        scanned.update(todo)
        results = await asyncio.gather(*(found.read(client, known, org, ident, limit, keep) for ident in todo))
        for named in results:
            for ident, name in named:
                found.remember(known, org, ident, "errors", name)
    return found


async def read_details(client: Client, known: KnownWorkflows, found: Discovery) -> None:
    """GET /workflows/{id} for each known workflow not read yet (no discovery)."""
    org = org_key(client)
    todo = [ident for ident in known.in_workspace(org) if ident not in found.details and ident not in found.problems]
    await found.read_details(client, todo)
