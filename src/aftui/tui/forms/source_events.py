"""Delete a source's events: the form that chooses them (all, from an id, up to an id, a range, or one).

The choice is previewed with a count of what it covers among the events the
service lists now, asked about, then sent; the rules of the deletion and the
watch that follows the 202 are in aftui/event_deletion.py.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.widgets import Input, Label, Select, Static

from ...api import ApiError
from ...api.models import EventSummary, Source
from ...event_deletion import Choice, Deletion, covered_words, id_problem, retained_events
from ...text import visible
from ..modals.confirm import ConfirmScreen
from ..modals.form import FormRow, FormScreen, Invalid
from ..widgets.in_order_input import InOrderInput
from ..widgets.safe_select import SafeSelect

MODES = {
    "all": "All events",
    "from": "From an id on (it and every later one)",
    "upto": "Up to an id (it and every earlier one)",
    "range": "A range of ids (both ends included)",
    "one": "One event",
}
USES = {
    "all": (False, False),
    "from": (True, False),
    "upto": (False, True),
    "range": (True, True),
    "one": (True, False),
}


class DeleteEventsForm(FormScreen[Deletion]):
    """Which events, a live count of what that covers, then a confirmation before the DELETE."""

    TITLE_TEXT = "Delete events"
    SUBMIT_LABEL = "Delete events"
    PARAMS: ClassVar[dict[str, str]] = {"start_id": "start", "end_id": "end"}

    def __init__(self, source: Source, *, selected: str | None = None) -> None:
        super().__init__()
        self.source = source
        self.selected = selected
        self.events: list[EventSummary] | None = None
        self.complete = False
        self.read_problem: str | None = None

    def title_text(self) -> str:
        return f"Delete events of {self.source.name or self.source.id}"

    def note(self) -> str:
        return "The service keeps a source's last 100 events. It accepts a deletion at once (202) and removes the events shortly after."

    def fields(self) -> ComposeResult:
        mode = "one" if self.selected else "all"
        options = [(label, key) for key, label in MODES.items()]
        yield FormRow(
            "Which", SafeSelect[str](options, allow_blank=False, value=mode, compact=True, id="mode"), name="mode"
        )
        yield FormRow(
            "From id",
            InOrderInput(
                self.selected or "", placeholder="<epoch-ms>-<seq>, as on the Events tab", compact=True, id="start"
            ),
            name="start",
        )
        yield FormRow(
            "Up to id",
            InOrderInput(
                self.selected or "", placeholder="<epoch-ms>-<seq>, as on the Events tab", compact=True, id="end"
            ),
            name="end",
        )
        yield FormRow(
            "Covers", Static(Text("counting the events listed now…", style="dim"), id="preview"), name="preview"
        )

    def on_mount(self) -> None:
        self._arrange()
        self.query_one("#mode", Select).focus()
        self._count()

    @work(group="count", exclusive=True, exit_on_error=False)
    async def _count(self) -> None:
        try:
            # In full (expand=event), so the journal's copies of what may be deleted are whole.
            self.events, self.complete = await retained_events(self.session.client, self.source.id, expand=True)
        except ApiError as error:
            self.read_problem = visible(error.message, 200)
        else:
            self.session.journal_events(self.events, self.source.id)
        self._preview()

    # --- the choice ---------------------------------------------------------------------------------------

    @property
    def mode(self) -> str:
        value = self.query_one("#mode", Select).value
        return value if isinstance(value, str) else "all"

    def choice(self) -> Choice:
        mode = self.mode
        start = self.query_one("#start", Input).value.strip()
        end = self.query_one("#end", Input).value.strip()
        if mode == "one":
            return Choice(mode, start, start)
        uses_start, uses_end = USES[mode]
        return Choice(mode, start if uses_start else None, end if uses_end else None)

    @on(Select.Changed, "#mode")
    def _mode_changed(self) -> None:
        self._arrange()
        self._preview()

    @on(Input.Changed)
    def _ids_changed(self) -> None:
        self._preview()

    def _arrange(self) -> None:
        """Only the ids the mode uses are shown; "one" calls its id what it is."""
        uses_start, uses_end = USES[self.mode]
        rows = self.rows()
        rows["start"].display = uses_start
        rows["end"].display = uses_end
        rows["start"].query_one(Label).update("Event id" if self.mode == "one" else "From id")

    def _preview(self) -> None:
        preview = self.query_one("#preview", Static)
        if self.read_problem:
            preview.update(Text(f"The events could not be listed ({self.read_problem}): no count.", style="yellow"))
            return
        if self.events is None:
            return
        choice = self.choice()
        problems = self._problems(choice)
        if problems:
            # The one problem itself when there is one: "give valid ids" over two valid ids in the wrong
            # order read as a typo to hunt for.
            words = next(iter(problems.values())) if len(problems) == 1 else "give valid ids"
            preview.update(Text(f"{words} (then this says how many events it covers)", style="dim"))
            return
        covered = [e for e in self.events if choice.covers(e)]
        text = Text(covered_words(len(covered), len(self.events), self.complete))
        if covered:
            ordered = sorted(covered, key=lambda e: e.key or (0, 0))
            first, last = visible(ordered[0].id, 30), visible(ordered[-1].id, 30)
            text.append("\n" + (first if first == last else f"{first} … {last}"), style="dim")
        preview.update(text)

    def _problems(self, choice: Choice) -> dict[str, str]:
        uses_start, uses_end = USES[choice.mode]
        problems: dict[str, str] = {}
        if uses_start:
            issue = id_problem(choice.start_id or "", "event id" if choice.mode == "one" else "first id")
            if issue:
                problems["start"] = issue
        if uses_end and choice.mode != "one":
            issue = id_problem(choice.end_id or "", "last id")
            if issue:
                problems["end"] = issue
        start, end = choice.bounds
        if not problems and start is not None and end is not None and start > end:
            problems["start"] = "The first id is after the last one: swap them."
        return problems

    # --- sending --------------------------------------------------------------------------------------------

    async def submit(self) -> Deletion:
        choice = self.choice()
        problems = self._problems(choice)
        if problems:
            raise Invalid(problems)
        events = self.events or []
        covered = tuple(e.id for e in events if e.id and choice.covers(e))
        known = self.events is not None
        if known and self.complete and not covered:
            raise Invalid({"preview": "No event listed now falls in this choice: there is nothing to delete."})
        working = self.query_one("#working", Static)
        working.update("")  # nothing is sent while the question is open
        if not await self.app.push_screen_wait(self._confirm(choice, covered, known)):
            raise Invalid({})  # not confirmed: the form stays as it was, nothing sent
        working.update(Text("sending…"))
        client = self.session.client
        await client.delete_source_events(
            self.source.id, start_id=choice.start_id or None, end_id=choice.end_id or None
        )
        return Deletion(self.source.id, choice, covered, len(events), self.complete)

    def _confirm(self, choice: Choice, covered: tuple[str, ...], known: bool) -> ConfirmScreen:
        name = visible(self.source.name or self.source.id, 60)
        count = (
            covered_words(len(covered), len(self.events or []), self.complete)
            if known
            else "how many could not be counted"
        )
        what = [
            f"events of the source {name} ({self.source.id}): {choice.words()}",
            count,
            "the service removes them shortly after accepting (202); this cannot be undone",
        ]
        if known and self.session.journal is not None:
            what.append("the copies read for this count stay in aftui's local journal (aftui journal search)")
        return ConfirmScreen(f"Delete events of {name}?", what)

    def done(self, result: Deletion) -> str:
        n = len(result.covered)
        return f"Deletion accepted (202): {n} event{'s' if n != 1 else ''} of {self.source.name or self.source.id} to go; watching the list until they are gone"
