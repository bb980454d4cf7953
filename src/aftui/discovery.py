"""Finding a workspace's workflows where they show up, since the service cannot list them (docs/architecture.md).

Subscriptions name workflows as emitter or listener (`p_...`, never the glob
`p_*`). The recent `$errors` of a known workflow name the workflows whose
runs failed (`original_context.workflow_id` and `workflow_name`), which can
name more in turn. What is found joins the known workflows (aftui.known)
with where it was found; `GET /workflows/{id}` tells each one's name, state
and triggers, or why it cannot be read.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Collection, Iterable
from typing import TYPE_CHECKING, TypeAlias

from .api import ApiError, Client, NotFoundError
from .known import KnownWorkflows

if TYPE_CHECKING:
    from .api.models import EventSummary, Page, Workflow

DETAILS_AT_ONCE = 5  # GET /workflows/{id} requests in flight during discovery
ERRORS_PER_WORKFLOW = 20  # recent $errors read per known workflow to learn names and ids
DISCOVERY_ROUNDS = 3  # errors can name workflows whose errors name more; stop after a few rounds

# Where events read on the way go (the journal); a string, as the models are not imported at start.
Keep: TypeAlias = "Callable[[Iterable[EventSummary], str], None]"


def is_workflow_id(ident: str | None) -> bool:
    """A workflow id, not the glob `p_*` that subscriptions use for every workflow."""
    return ident is not None and ident.startswith("p_") and len(ident) > 2 and "*" not in ident


async def workflows_in_subscriptions(client: Client) -> AsyncIterator[str]:
    """The workflow ids the workspace's subscriptions name (the user's, with no workspace chosen), in their order."""
    # As JSON, not models: Health reads these for the first screen, before pydantic is imported.
    for sub in await client.list_json("subscriptions"):
        for ident in (sub.get("emitter_id"), sub.get("listener_id")):
            if isinstance(ident, str) and is_workflow_id(ident):
                yield ident


def named_in_errors(page: Page[EventSummary]) -> list[tuple[str, str | None]]:
    """(workflow id, name) of the runs these `$errors` events are about."""
    named: list[tuple[str, str | None]] = []
    for event in page.items:
        error = event.error()
        context = error.original_context if error else None
        if context is not None and context.workflow_id is not None and is_workflow_id(context.workflow_id):
            named.append((context.workflow_id, context.workflow_name))
    return named


class Discovery:
    """What the looks in one workspace learned beyond the known list: details read, why others could not be.

    `forgotten` holds what the user forgot this session, which a look does not bring back.
    """

    def __init__(self) -> None:
        self.details: dict[str, Workflow] = {}  # GET /workflows/{id} answers
        self.problems: dict[str, str] = {}  # ids whose details could not be read, and why
        self.forgotten: set[str] = set()
        # The first read the service failed (not a workflow it does not have): a script's exit code says it.
        self.failure: ApiError | None = None

    def clear(self) -> None:
        self.details.clear()
        self.problems.clear()
        self.forgotten.clear()
        self.failure = None

    def failed(self, error: ApiError) -> None:
        """Note a read that failed for another reason than a workflow not found."""
        if self.failure is None and not isinstance(error, NotFoundError):
            self.failure = error

    def remember(self, known: KnownWorkflows, org: str, ident: str, found: str, name: str | None = None) -> bool:
        """Add `ident` to the known workflows unless it was forgotten here; True when it was new."""
        if ident in self.forgotten:
            return False
        entry = known.in_workspace(org).get(ident)
        fetched = self.details.get(ident)
        if entry is not None and (entry.get("name") or (fetched is not None and fetched.name)):
            name = None  # an error's workflow_name is as old as the error: it only fills a gap
        return known.add(org, ident, name=name, found=found)

    async def read_details(self, client: Client, idents: Iterable[str]) -> None:
        """`GET /workflows/{id}` of each, a few at a time: into `details`, or why not into `problems`."""
        limit = asyncio.Semaphore(DETAILS_AT_ONCE)

        async def one(ident: str) -> None:
            async with limit:
                try:
                    self.details[ident] = await client.get_workflow(ident)
                except ApiError as error:
                    self.problems[ident] = "not found" if error.status == 404 else error.message
                    self.failed(error)

        await asyncio.gather(*(one(ident) for ident in idents))

    async def read(
        self, client: Client, known: KnownWorkflows, org: str, ident: str, limit: asyncio.Semaphore, keep: Keep
    ) -> list[tuple[str, str | None]]:
        """Details of one known workflow; the workflows (and names) its recent `$errors` mention."""
        async with limit:
            try:
                workflow = await client.get_workflow(ident)
            except ApiError as error:
                self.details.pop(ident, None)
                self.problems[ident] = "not found" if isinstance(error, NotFoundError) else error.message
                self.failed(error)
                return []
            except Exception as error:  # noqa: BLE001 - one odd answer must not stop the others
                self.problems[ident] = f"{type(error).__name__}: {error}"
                return []
            self.details[ident] = workflow
            self.problems.pop(ident, None)
            if workflow.name and ident in known.in_workspace(org):
                known.add(org, ident, name=workflow.name, found="opened")  # only renames: it is known
            try:
                page = await client.list_workflow_errors(ident, limit=ERRORS_PER_WORKFLOW, expand=True)
            except Exception:  # noqa: BLE001 - the errors are a bonus; the workflow is listed either way
                return []
            keep(page.items, ident)
        return named_in_errors(page)


async def triggered_by(client: Client, workflow_ids: Iterable[str], source_ids: Collection[str]) -> list[Workflow]:
    """Of these workflows (those aftui knows), the ones these sources trigger: what deleting them breaks.

    One that cannot be read is passed over (it is said where the workflows are listed)."""
    idents = list(dict.fromkeys(workflow_ids))
    found = Discovery()
    await found.read_details(client, idents)
    read = [found.details[i] for i in idents if i in found.details]
    return [w for w in read if any(t.id in source_ids for t in w.triggers)]
