"""What the monitor watches when opened without a choice: the screen's resource, or the workspace.

The workspace's sources and workflows are also Health's rows (`workspace_subjects`), listed for the
first screen: this module imports the feeds' (aftui.monitor, and the journal with it) only once a
monitor's targets are asked for.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from ...api import ApiError
from ...discovery import workflows_in_subscriptions
from ...health import Subject
from ..session import Session

if TYPE_CHECKING:
    from ...monitor import Target

log = logging.getLogger("aftui.tui")

MAX_SOURCES = 50  # "every source of the workspace" opens at most this many streams


def _text(value: object) -> str:
    """A field of the service's JSON that should be text; anything else reads as missing."""
    return value if isinstance(value, str) else ""


def targets_of(screen: Screen[Any]) -> list[Target] | None:
    """A source's detail watches the source; a workflow's, its events and `$errors`; elsewhere None."""
    # Here, not at the top: Health lists its subjects with this module at start, before any detail is opened.
    from ...monitor import Target
    from .sources import SourceScreen
    from .workflows import WorkflowScreen

    record = getattr(screen, "record", None)
    ident = getattr(screen, "ident", "")
    name = (getattr(record, "name", None) or ident) if record is not None else ident
    if isinstance(screen, SourceScreen):
        return [Target("source", ident, name)]
    if isinstance(screen, WorkflowScreen) and not screen.is_template:
        return [Target("events", ident, name), Target("errors", ident, name)]
    return None


async def default_targets(session: Session) -> list[Target]:
    """Every source of the workspace (the first MAX_SOURCES) and the `$errors` of each workflow aftui knows
    or finds in the workspace's subscriptions (as the Workflows pane does), so errors show without a visit there."""
    return subject_targets(await workspace_subjects(session))


def subject_targets(subjects: list[Subject]) -> list[Target]:
    """Each source's stream and each workflow's `$errors`: what the monitor watches of a workspace."""
    from ...monitor import Target

    return [Target("source" if s.kind == "source" else "errors", s.id, s.label) for s in subjects]


async def workspace_subjects(session: Session) -> list[Subject]:
    """The workspace's sources (the first MAX_SOURCES), then the workflows aftui knows or finds in its
    subscriptions; a workflow known by id only is unnamed."""
    client = session.client
    org = client.org_id

    async def sources() -> list[Subject]:
        # As JSON, not models: Health lists these for the first screen, before pydantic is imported.
        found = await client.list_json("sources", most=MAX_SOURCES)
        return [Subject("source", s["id"], _text(s.get("name"))) for s in found if _text(s.get("id"))]

    async def subscribed() -> list[str]:
        try:
            return [ident async for ident in workflows_in_subscriptions(client)]
        except ApiError as error:
            log.info("subscriptions not read for the monitor: %s", error.message)  # the known workflows still count
            return []

    # Both lists at once: the first screen waits for them (Health's rows), and neither needs the other.
    subjects, subscribed_ids = await asyncio.gather(sources(), subscribed())
    workflows = session.known.names_in(org or "")
    for ident in subscribed_ids:
        workflows.setdefault(ident, "")
    subjects += [Subject("workflow", workflow_id, name) for workflow_id, name in workflows.items()]
    return subjects
