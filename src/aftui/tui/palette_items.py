"""What the palette finds by name: sources, workflows, webhooks, accounts and Connect users, with actions on them.

Only what aftui already has: the rows the panes have listed (a pane not yet
shown has listed nothing), the sources Health reports on (opened by id until
the Sources pane lists them) and the workflows it knows (`known.py`; the
service cannot list workflows). Nothing is fetched while the user types. Opening a
listed row goes through its pane (the same `PagedTable.Opened` enter sends),
so it opens exactly as enter there would; changes go through the same
`forms/lifecycle.py` steps as the panes' keys (asking first, refused when
read-only).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.widget import Widget
from textual.widgets import ContentSwitcher

from ..monitor import Target
from ..subscriptions import webhook_label
from ..text import visible
from .host import host
from .screens.monitor import open_monitor
from .screens.workflows import WorkflowsPane
from .widgets.paged_table import PagedTable
from .widgets.pane import Pane

if TYPE_CHECKING:
    from ..api.models import Workflow

NAME_CHARS = 50


@dataclass(frozen=True)
class Action:
    title: str  # what the palette shows and matches: `Deactivate source Stripe payments`
    run: Callable[[], object]
    help: str  # the id, so two of one name are told apart


# Pane id -> (the word for one of its rows, how a row is named)
_LISTED: dict[str, tuple[str, Callable[[Any], str | None]]] = {
    "sources": ("source", lambda s: s.name),
    "webhooks": ("webhook", webhook_label),
    "accounts": ("account", lambda a: " · ".join(p for p in (a.name, a.app.name if a.app else None) if p)),
    "connect": ("Connect user", lambda u: u.external_id),
}


def resource_actions(app: App[Any]) -> list[Action]:
    """Every action on every named thing aftui has listed or knows, in the sidebar's order."""
    actions: list[Action] = []
    panes = {pane.id: pane for pane in _panes(app)}
    listed: set[str] = set()
    for pane_id, (kind, name_of) in _LISTED.items():
        pane = panes.get(pane_id)
        if pane is None:
            continue
        table = pane.query(PagedTable).first(PagedTable) if pane.query(PagedTable) else None
        if table is None:
            continue
        for item in list(table.pager.items):
            name = visible(name_of(item) or table.item_id(item), NAME_CHARS)
            ident = table.item_id(item)
            listed.add(ident)
            actions.append(Action(f"Open {kind} {name}", partial(_open_row, table, item), ident))
            if pane_id == "sources":
                actions += _source_actions(pane, item, name)
    actions += _health_sources(app, listed)
    actions += _workflow_actions(app, panes.get("workflows"))
    return actions


def _health_sources(app: App[Any], listed: set[str]) -> list[Action]:
    """The sources Health reports on that the Sources pane has not listed (it lists nothing until shown):
    `:order webhooks` at start found only workflows with "webhooks" in their name. Opened by id; their
    activation needs the source as the pane has it, so it is offered once the pane has listed them."""
    watch = host(app).health
    if watch is None:
        return []
    actions: list[Action] = []
    for subject in watch.board.subjects():
        if subject.kind != "source" or subject.id in listed:
            continue
        name = visible(subject.label, NAME_CHARS)
        actions += [
            Action(f"Open source {name}", partial(host(app).open_id, subject.id), subject.id),
            _monitor_source(app, subject.id, subject.label, name),
        ]
    return actions


def _panes(app: App[Any]) -> Iterator[Pane]:
    if not app.screen_stack:
        return
    for switcher in app.screen_stack[0].query("#panes").results(ContentSwitcher):
        yield from switcher.query(Pane).results(Pane)


def _open_row(table: PagedTable[Any], item: Any) -> None:
    table.post_message(PagedTable.Opened(table, item))  # the pane opens it, as enter on its row would


def _source_actions(pane: Pane, source: Any, name: str) -> list[Action]:
    from .forms.lifecycle import toggle_source

    verb = "Activate" if source.active is False else "Deactivate"
    return [
        Action(f"{verb} source {name}", partial(_change, pane, partial(toggle_source, pane, source)), source.id),
        _monitor_source(pane.app, source.id, source.name or source.id, name),
    ]


def _monitor_source(app: App[Any], ident: str, label: str, name: str) -> Action:
    return Action(f"Monitor source {name}", partial(open_monitor, app, [Target("source", ident, label)]), ident)


def _workflow_actions(app: App[Any], pane: Pane | None) -> list[Action]:
    session = host(app).session
    if session is None:
        return []
    actions: list[Action] = []
    read = pane.found.details if isinstance(pane, WorkflowsPane) else {}
    ordered, failed = _as_health_has_them(app, session.known.names_in(session.org_id or ""))
    for ident, known_name in ordered:
        label = known_name or ident
        name = visible(label, NAME_CHARS)
        owner: Widget = pane if pane is not None else app.screen
        actions += [
            Action(f"Open workflow {name}", partial(host(app).open_id, ident), ident),
            Action(
                f"Monitor workflow {name}",
                partial(open_monitor, app, [Target("events", ident, label), Target("errors", ident, label)]),
                ident,
            ),
            # Its Errors tab, as Health's enter opens it: what each error came to, the answer to "is it fixed?"
            # (a monitor of its `$errors` had no replay column). Where replays are sent from (y, R), so "replay"
            # finds those with errors: it found nothing.
            Action(
                f"Errors of workflow {name}" + (": replay them" if ident in failed else ""),
                partial(_errors_tab, app, ident, label),
                ident,
            ),
            Action(f"{_toggle_verb(read.get(ident))} workflow {name}", partial(_toggle, owner, ident, read), ident),
        ]
    return actions


def _as_health_has_them(app: App[Any], names: dict[str, str]) -> tuple[list[tuple[str, str]], set[str]]:
    """The workflows in Health's order (failing first), and those with errors in the last day, from one read of
    its rows. Hits of one score keep the order they came in, so `:replay` then enter opens the workflow failing
    most, not the first one known; "replay them" of one with no errors offered nothing to replay (a walk)."""
    watch = host(app).health
    if watch is None:
        return list(names.items()), set()
    rows = watch.board.rows(watch.now_ms())
    rank = {row.subject.id: i for i, row in enumerate(rows)}
    ordered = sorted(names.items(), key=lambda item: rank.get(item[0], len(rank)))
    return ordered, {row.subject.id for row in rows if row.errors_24h}


def _errors_tab(app: App[Any], ident: str, label: str) -> None:
    from .screens.workflows import WorkflowScreen

    app.push_screen(WorkflowScreen(ident, ("Workflows", label), tab="Errors"))


def _toggle_verb(workflow: Workflow | None) -> str:
    """What the toggle does, when the Workflows pane has read the workflow's state; both words when not."""
    if workflow is None or workflow.active is None:
        return "Activate or deactivate"
    return "Deactivate" if workflow.active else "Activate"


def _toggle(owner: Widget, ident: str, read: dict[str, Workflow]) -> None:
    """The change the entry's verb says: on the state the pane read (not one read afresh, which could
    turn the other way), and the pane shown the workflow as it is after."""
    from .forms.lifecycle import toggle_workflow

    async def step() -> None:
        changed = await toggle_workflow(owner, ident, read.get(ident))
        if changed is not None and isinstance(owner, WorkflowsPane):
            owner.learned(ident, changed)

    _change(owner, step)


def _change(owner: Widget, step: Callable[[], Any]) -> None:
    """A change asks first (a dialog), so it runs as a worker of the pane that owns it, as its key would."""
    owner.run_worker(step(), group="change", exclusive=True, exit_on_error=False)
