"""Choosing what the monitor watches: sources, workflows' events and `$errors`, checked or not."""

from __future__ import annotations

from functools import partial

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

from ...api import ApiError
from ...api.paging import iterate
from ...monitor import Target
from ...text import visible
from ..host import session_of
from ..session import Session
from ..widgets.phrases import Phrases

MAX_LISTED = 500  # sources offered; a workspace with more is watched by choosing from the first ones

KIND_WORDS = {"source": "source ", "events": "events ", "errors": "$errors"}


def option(target: Target, checked: bool) -> Selection[Target]:
    label = Text.assemble(
        (KIND_WORDS[target.kind], "red" if target.kind == "errors" else "dim"),
        "  ",
        visible(target.name or target.emitter_id, 40),
        "  ",
        (visible(target.emitter_id, 20), "dim"),
    )
    return Selection(label, target, checked)


class WatchScreen(ModalScreen["list[Target] | None"]):
    """space checks or unchecks; enter watches what is checked; `a` checks every source (again: none)."""

    BINDINGS = [
        Binding("enter", "apply", "Watch checked", priority=True),
        Binding("a", "all_sources", "All sources"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, current: list[Target]) -> None:
        super().__init__()
        self.current = current

    @property
    def session(self) -> Session:
        return session_of(self)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Watch", style="bold"))
            yield Phrases(
                "space checks · a: every source · enter watches what is checked · esc cancels", classes="hint"
            )
            yield SelectionList[Target](*(option(t, True) for t in self.current))

    def on_mount(self) -> None:
        self.query_one(SelectionList).focus()
        self._load()

    @work(exclusive=True, exit_on_error=False)
    async def _load(self) -> None:
        """Offer every source of the workspace and both feeds of each known workflow."""
        listing = self.query_one(SelectionList)
        have = {t.key for t in self.current}
        client = self.session.client
        fetch = partial(client.list_workspace_sources, client.org_id) if client.org_id else client.list_sources
        offered: list[Target] = []
        for workflow_id, name in self.session.known.names_in(self.session.org_id or "").items():
            offered += [
                Target("errors", workflow_id, name or workflow_id),
                Target("events", workflow_id, name or workflow_id),
            ]
        try:
            async for source in iterate(fetch):
                offered.append(Target("source", source.id, source.name or source.id))
                if len(offered) >= MAX_LISTED:
                    break
        except ApiError as error:
            self.query_one(".hint", Phrases).update(
                Text.assemble(("Could not list the sources: ", "red"), visible(error.message, 200))
            )
        listing.add_options([option(t, False) for t in offered if t.key not in have])

    def action_all_sources(self) -> None:
        listing = self.query_one(SelectionList)
        sources = [o.value for o in listing.options if isinstance(o, Selection) and o.value.kind == "source"]
        if all(t in listing.selected for t in sources):
            for target in sources:
                listing.deselect(target)
        else:
            for target in sources:
                listing.select(target)

    def action_apply(self) -> None:
        self.dismiss(list(self.query_one(SelectionList).selected))

    def action_cancel(self) -> None:
        self.dismiss(None)
