"""Switching sources and workflows on and off, and deleting a source: the questions asked and the calls made.

Activating is asked for no confirmation; deactivating is (one stray key
should not stop a live source or workflow during an incident), and says
that nothing is deleted. Deleting a source asks the user to type its name
and says what goes with it: its events, its subscriptions, and the trigger
of each known workflow it starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from textual.widget import Widget

from ...api import ApiError, Client
from ...api.models import Source, Workflow
from ...discovery import triggered_by
from ...subscriptions import workspace_subscriptions
from ...text import visible
from ..change import describe_error, perform, said_by
from ..host import host, session_of
from ..modals.confirm import ConfirmScreen

USER_KEY_FOR_WORKFLOWS = (
    "Activating or deactivating a workflow needs a user API key (PUT /workflows/{id} refuses workspace OAuth tokens). "
    "Use a profile with a user API key."
)


def _client(owner: Widget) -> Client:
    return session_of(owner).client


def source_label(source: Source) -> str:
    return f"{visible(source.name or '(no name)', 60)} ({source.id})"


def typed_name(source: Source) -> str:
    """What the user types to confirm: the name, or the id when the name could not be typed as it is."""
    name = source.name or ""
    return name if name and name.isprintable() and name == name.strip() and len(name) <= 120 else source.id


# --- sources ------------------------------------------------------------------------------------------------


async def toggle_source(owner: Widget, source: Source) -> Source | None:
    """Activate an inactive source, or (after asking) deactivate an active one; the source as it is now, or None."""
    client = _client(owner)
    turning_on = source.active is False
    label = source_label(source)
    if not turning_on:
        question = ConfirmScreen(
            f"Deactivate source {visible(source.name or source.id, 60)}?",
            [
                f"the source {label} stops running: deactivate() runs and it emits nothing until it is activated again",
                "nothing is deleted: its props, events and subscriptions stay",
            ],
            action="Deactivate",
        )
        if not await owner.app.push_screen_wait(question):
            return None
    done = f"{'Activated' if turning_on else 'Deactivated'} source {label}"
    changed, answer = await perform(
        owner, client.set_source_active(source.id, turning_on), done=done, refresh=("sources",)
    )
    if not changed:
        return None
    return answer if isinstance(answer, Source) else source.model_copy(update={"active": turning_on})


async def _what_goes_with(client: Client, source: Source) -> tuple[int | None, int | None, int | None]:
    """(events kept, subscriptions where it emits, where it listens); None where the count could not be read."""
    try:
        page = await client.list_source_events(source.id, limit=100)
        events: int | None = page.page_info.total_count if page.page_info.total_count is not None else len(page.items)
    except ApiError:
        events = None
    try:
        subs = await workspace_subscriptions(client)
        emits: int | None = sum(1 for s in subs if s.emitter_id == source.id)
        listens: int | None = sum(1 for s in subs if s.listener_id == source.id)
    except ApiError:
        emits = listens = None
    return events, emits, listens


def _count(n: int | None, one: str, many: str) -> str:
    if n is None:
        return f"its {many} (how many could not be read)"
    if n == 0:
        return f"no {many}"
    return f"its {n} {one if n == 1 else many}"


def confirm_source_delete(
    source: Source, events: int | None, emits: int | None, listens: int | None, triggers: Sequence[Workflow] = ()
) -> ConfirmScreen:
    if emits is None or listens is None or not emits + listens:
        subs = _count(None if emits is None or listens is None else 0, "subscription", "subscriptions")
    else:
        subs = f"{_count(emits + listens, 'subscription', 'subscriptions')} ({emits} where it emits, {listens} where it listens)"
    what = [
        f"the source {source_label(source)}: deactivate() runs, then the deployed instance is deleted",
        f"{_count(events, 'event', 'events')} kept by the service, and its logs",
        subs,
        *(_trigger_line(w) for w in triggers),
        "this cannot be undone; the saved component it was deployed from stays",
    ]
    return ConfirmScreen(f"Delete source {visible(source.name or source.id, 60)}?", what, typed=typed_name(source))


def _trigger_line(workflow: Workflow) -> str:
    name = visible(workflow.name or "(no name)", 60)
    return f"it triggers the workflow {name} ({workflow.id}), which loses this trigger and no longer runs from it"


async def delete_source(owner: Widget, source: Source) -> bool:
    """Say what goes, have the name typed back, then DELETE /sources/{id}; True once deleted."""
    client = _client(owner)
    session = session_of(owner)
    known = session.known.in_workspace(client.org_id or "")
    (events, emits, listens), triggers = await asyncio.gather(
        _what_goes_with(client, source), triggered_by(client, known, {source.id})
    )
    if not await owner.app.push_screen_wait(confirm_source_delete(source, events, emits, listens, triggers)):
        return False
    deleted, _ = await perform(
        owner,
        client.delete_source(source.id),
        done=f"Deleted source {source_label(source)} with its events and subscriptions",
        refresh=("sources", "subscriptions"),
        gone=f"Source {source_label(source)} was already deleted: the lists are read again.",
    )
    return deleted


# --- workflows ----------------------------------------------------------------------------------------------


async def toggle_workflow(owner: Widget, workflow_id: str, workflow: Workflow | None) -> Workflow | None:
    """Activate or (after asking) deactivate a workflow; the workflow as read back afterwards, or None."""
    client = _client(owner)
    if not client.uses_user_key:
        owner.notify(USER_KEY_FOR_WORKFLOWS, title="Not with this key", severity="warning", markup=False)
        return None
    if workflow is None or workflow.active is None:
        try:
            workflow = await client.get_workflow(workflow_id)
        except ApiError as error:
            owner.notify(describe_error(error), title=said_by(error), severity="error", markup=False)
            return None
    turning_on = not workflow.active
    label = f"{visible(workflow.name or '(no name)', 60)} ({workflow_id})"
    if not turning_on:
        question = ConfirmScreen(
            f"Deactivate workflow {visible(workflow.name or workflow_id, 60)}?",
            [
                f"the workflow {label} stops running on its triggers until it is activated again",
                "nothing is deleted: its steps, events and subscriptions stay",
            ],
            action="Deactivate",
        )
        if not await owner.app.push_screen_wait(question):
            return None
    done = f"{'Activated' if turning_on else 'Deactivated'} workflow {label}"
    changed, _ = await perform(owner, client.set_workflow_active(workflow_id, turning_on), done=done)
    if not changed:
        return None
    try:
        workflow = await client.get_workflow(workflow_id)  # the PUT's answer is not shown in the spec: read it back
    except ApiError:
        workflow = workflow.model_copy(update={"active": turning_on})
    host(owner).switched(workflow_id, workflow.active)  # Health's line: off, no run says whether it is fixed
    return workflow
