"""The frame every form shares: labelled rows, an error line under each, submit, and read-only.

A subclass yields its rows (`FormRow`) from `fields()` and makes the change
in `submit()`. Checks done before sending raise `Invalid`; the service's
refusal arrives as `ApiError`. Either way the form stays open and filled,
and each message goes beside the field it names (the server's `param`,
mapped through `PARAMS`), or in the problem box above the buttons when it
names none. On success the form closes with the result, a notification
says what changed, and the lists that show it reload.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, Generic, TypeVar, cast

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static, Switch, TextArea

from ...api import ApiError, AuthError, ReadOnlyError
from ...text import visible
from ..change import READ_ONLY_REASON, describe_error, read_only, refresh_lists, said_by
from ..host import session_of
from ..messages import AuthFailed
from ..session import Session
from ..widgets.footer import KeyFooter
from ..widgets.status import StatusHeader
from .confirm import ConfirmScreen

T = TypeVar("T")


class Invalid(Exception):
    """Checks failed: field name -> message (the key "" is the form as a whole). The form's own, unless `by`
    says who else said them (`said_by`: a refusal the form places beside the field it is about)."""

    def __init__(self, problems: Mapping[str, str], *, by: str | None = None) -> None:
        super().__init__("; ".join(problems.values()))
        self.problems = dict(problems)
        self.by = by


class FormRow(Vertical):
    """A label, the input, a hint, and the line where this field's problem is shown."""

    DEFAULT_CSS = """
    FormRow { height: auto; margin: 0 0 1 0; }
    FormRow > Horizontal { height: auto; }
    FormRow > Horizontal > Label { width: 20; padding: 0 1 0 0; color: $text-muted; }
    FormRow > Horizontal > .field { width: 1fr; }
    FormRow:focus-within > Horizontal > Label { color: $accent; text-style: bold reverse; }  /* NO_COLOR keeps reverse */
    FormRow .hint { color: $text-muted; padding: 0 0 0 20; }
    FormRow .field-error { display: none; color: $error; padding: 0 0 0 20; }
    FormRow.-invalid .field-error { display: block; }
    """

    def __init__(self, label: str, field: Widget, *, name: str, hint: str | Text | None = None) -> None:
        # Children are given here, not composed later, so the form's on_mount can already focus the field.
        field.add_class("field")
        parts: list[Widget] = [Horizontal(Label(Text(label)), field)]
        if hint:
            parts.append(Static(hint if isinstance(hint, Text) else Text(hint), classes="hint"))
        parts.append(Static("", classes="field-error"))
        super().__init__(*parts, name=name)
        self.label = label
        self.field = field

    @property
    def plain_label(self) -> str:
        """The label without its required mark, for sentences ("What you typed in stripe is lost")."""
        return self.label.removesuffix(" *")

    def on_descendant_focus(self) -> None:
        self._restyle()

    def on_descendant_blur(self) -> None:
        self._restyle()

    def _restyle(self) -> None:
        """The label's focus look follows `:focus-within` at once (Textual restyles only the focused widget)."""
        self.update_node_styles(animate=False)

    class Edited(Message):
        """This row's problem came or went outside a submit (an edit, a check as one types): count them again."""

    @on(Input.Changed)
    @on(TextArea.Changed)
    @on(Select.Changed)
    @on(Switch.Changed)
    def _edited(self) -> None:
        # Said until the next submit, "must include a hostname" stood beside the URL already mended.
        if self.has_class("-invalid"):
            self.show_error(None)

    def show_error(self, message: str | None, *, by: str | None = None, counted: bool = False) -> None:
        """`message` under the field (None: none); `by` says who said it, where it was not the form's own check;
        `counted`: the form counts the problems itself (a submit's), else it is told to count them again."""
        if bool(message) != self.has_class("-invalid") and not counted and self.is_attached:
            # To the form itself, not bubbled: a message made in a parent's handler (a prop's live check)
            # does not bubble back through that parent, its sender.
            self.screen.post_message(self.Edited())
        self.set_class(bool(message), "-invalid")
        said = Text.assemble((f"{by}: ", "bold"), message) if message and by else Text(message or "")
        self.query_one(".field-error", Static).update(said)


ROWS_SHARE = 60  # per cent of the screen's height the rows may take at most (a tall form scrolls)


class FormScreen(ModalScreen[T | None], Generic[T]):
    """A modal form; `ctrl+s` submits, `esc` leaves without changing anything, and asks first when something
    was typed: one esc too many threw away a whole form's props."""

    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", priority=True),
        Binding("escape", "cancel", "Cancel"),
    ]

    DEFAULT_CSS = """
    FormScreen { align: center middle; }
    FormScreen > StatusHeader { dock: top; }
    FormScreen > #frame { width: 100; max-width: 100%; height: auto; max-height: 100%; border: round $accent; background: $surface; padding: 0 1; }
    FormScreen #form-title { text-style: bold; height: auto; }
    FormScreen #form-note { color: $text-muted; height: auto; padding: 0 0 1 0; }
    FormScreen #read-only { color: $warning; height: auto; padding: 0 0 1 0; }
    FormScreen #rows { height: auto; max-height: 60vh; }  /* a tall form scrolls; `_fit_rows` keeps the buttons in sight */
    FormScreen #problem { display: none; height: auto; color: $error; border: round $error; padding: 0 1; }
    FormScreen #problem.shown { display: block; }
    FormScreen #buttons { height: auto; padding: 1 0 0 20; }
    FormScreen #buttons > Button { margin: 0 2 0 0; }
    FormScreen #working { height: 1; color: $text-muted; padding: 0 0 0 20; }
    """

    TITLE_TEXT: ClassVar[str] = "Form"
    SUBMIT_LABEL: ClassVar[str] = "Save"
    # The server's `param` -> the name of the row that shows it, where they differ.
    PARAMS: ClassVar[Mapping[str, str]] = {}
    # Lists (by PagedTable noun) that show what this form changes.
    REFRESH: ClassVar[tuple[str, ...]] = ()

    def __init__(self) -> None:
        super().__init__()
        self.busy = False
        # Each field the user has been in, and its value before: what `typed_in` compares against.
        self._before: dict[int, tuple[Widget, object]] = {}
        self._rows_fitted: int | None = None  # the rows' max height `_fit_rows` set last
        self._loose: list[str] = []  # the problems said in the box, beside no field

    @property
    def session(self) -> Session:
        return session_of(self)

    def on_mount(self) -> None:
        self.query_one(StatusHeader).sync()

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_rows)

    def _fit_rows(self) -> None:
        """The rows get what the screen leaves the frame's other parts, so the buttons stay in sight: with a
        problem box and the rows' 60vh, at 80x24 the buttons went below the screen."""
        frames = self.query("#frame")
        if not frames:
            return
        frame = frames.first()
        rows = frame.query_one("#rows")
        room = self.size.height - sum(w.outer_size.height for w in self.children if w is not frame and w.display)
        others = sum(w.outer_size.height for w in frame.children if w is not rows and w.display)
        frame_edges = frame.outer_size.height - frame.content_region.height
        fitted = max(3, min(room - others - frame_edges, self.size.height * ROWS_SHARE // 100))
        if fitted != self._rows_fitted:
            self._rows_fitted = fitted
            rows.styles.max_height = fitted

    # --- what a subclass says ------------------------------------------------------------------------

    def title_text(self) -> str:
        return self.TITLE_TEXT

    def note(self) -> str | Text | None:
        """A line under the title: what the form does, and what to know before using it."""
        return None

    def fields(self) -> ComposeResult:
        """The form's rows (`FormRow`), or any other widgets between the title and the buttons."""
        yield from ()

    async def submit(self) -> T:
        """Check (raise `Invalid`), then make the change; the result is what the form dismisses with."""
        raise NotImplementedError

    def done(self, result: T) -> str:
        """The notification after a success: say what changed, by name."""
        return "Done"

    # --- the frame ---------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # Its own header, not dimmed and never under the frame (at 80x24 a tall form covered the app's): a
        # change is made knowing where, ▲ PRODUCTION or DEMO, which profile and workspace.
        yield StatusHeader()
        with Vertical(id="frame"):
            yield Static(Text(visible(self.title_text(), 200)), id="form-title")
            note = self.note()
            if note:
                yield Static(note if isinstance(note, Text) else Text(note), id="form-note")
            if read_only(self):
                yield Static(Text(READ_ONLY_REASON), id="read-only")
            with VerticalScroll(id="rows", can_focus=False):  # tab goes from field to field, not to the frame
                yield from self.fields()
            yield Static(id="problem")
            with Horizontal(id="buttons"):
                yield Button(self.SUBMIT_LABEL + " (ctrl+s)", variant="primary", id="submit", disabled=read_only(self))
                yield Button("Cancel (esc)", id="cancel")
            yield Static("", id="working")
        yield KeyFooter()

    def rows(self) -> dict[str, FormRow]:
        return {row.name: row for row in self.query(FormRow) if row.name}

    def show_problems(self, problems: Mapping[str, str], *, by: str | None = None) -> None:
        """Each message beside its field; the rest (and unknown names) in the problem box. `by`: who said them
        (`said_by`), shown before each beside a field, where the form's own checks read alike."""
        rows = self.rows()
        loose: list[str] = []
        marked: list[FormRow] = []
        for row in rows.values():
            row.show_error(None, counted=True)
        for name, message in problems.items():
            shown = rows.get(self.PARAMS.get(name, name))
            if shown is None:
                loose.append(message if not name else f"{name}: {message}")
                continue
            shown.show_error(message, by=by, counted=True)
            marked.append(shown)
        self._loose = loose
        self._show_box()
        first = marked[0] if marked else None
        if first is not None:
            _problem_focus(first.field).focus()
            first.scroll_visible()

    def _show_box(self) -> None:
        """The problems beside no field, and how many fields still have one (on 80x24 the first is in sight, the
        others may be scrolled out of it)."""
        lines = list(self._loose)
        marked = [row for row in self.rows().values() if row.has_class("-invalid")]
        if len(marked) > 1:
            fields = ", ".join(dict.fromkeys(row.plain_label for row in marked))
            lines.insert(0, f"{len(marked)} fields to fix, each said beside it: {fields}")
        box = self.query_one("#problem", Static)
        box.update(Text("\n".join(lines)))
        box.set_class(bool(lines), "shown")
        self.call_after_refresh(self._fit_rows)  # the box came or went: the rows get what is left

    def on_form_row_edited(self, event: FormRow.Edited) -> None:
        event.stop()
        self._show_box()

    def clear_problems(self) -> None:
        self.show_problems({})

    @on(Button.Pressed, "#submit")
    def action_submit(self) -> None:
        if read_only(self):
            self.notify(READ_ONLY_REASON, title="Read-only", severity="warning", markup=False)
            return
        if not self.busy:
            self._run()

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        typed = self.typed_in()
        if not typed:
            self.dismiss(None)
            return
        what = [f"What you typed in {', '.join(typed)} is lost.", "n or esc: back to the form, as you left it."]
        question = ConfirmScreen("Leave this form?", what, action="Leave", stay="Back to the form", destructive=False)
        self.app.push_screen(question, self._leave_if)

    def _leave_if(self, leave: bool | None) -> None:
        if leave:
            self.dismiss(None)

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        """Every focus in the form passes here, before a key can reach the field: its value is noted then."""
        if widget is not None and id(widget) not in self._before:
            value = _value_of(widget)
            if value is not None:
                self._before[id(widget)] = (widget, value)
        if isinstance(widget, Input):
            # Typed keys add to a field's text: selected on focus, the first key replaced a stored name.
            widget.select_on_focus = False
        super().set_focus(widget, scroll_visible, from_app_focus)

    def typed_in(self) -> list[str]:
        """The labels of the fields whose values the user changed (a field outside a row: "the form")."""
        labels: list[str] = []
        for widget, before in self._before.values():
            if widget.is_attached and _value_of(widget) != before:
                row = next((a for a in widget.ancestors if isinstance(a, FormRow)), None)
                label = row.plain_label if row is not None else "the form"
                if label not in labels:
                    labels.append(label)
        return labels

    @work(group="form", exclusive=True, exit_on_error=False)
    async def _run(self) -> None:
        self.busy = True
        working = self.query_one("#working", Static)
        working.update(Text("sending…"))
        try:
            result = await self.submit()
        except Invalid as invalid:
            self.show_problems(invalid.problems, by=invalid.by)
            return
        except ReadOnlyError:
            self.show_problems({"": READ_ONLY_REASON})
            return
        except ApiError as error:
            # Beside the field it names, the service's words; in the box, who said them too.
            if error.param:
                self.show_problems({error.param: describe_error(error)}, by=said_by(error))
            else:
                self.show_problems({"": _said(error)})
            if isinstance(error, AuthError):
                self.app.post_message(AuthFailed(error))
            return
        finally:
            self.busy = False
            working.update("")
        self.clear_problems()
        self.app.notify(visible(self.done(result), 300), markup=False)
        refresh_lists(self.app, self.REFRESH)
        self.dismiss(result)


def _value_of(widget: Widget) -> object:
    """What the user can change in `widget` (None: nothing, a button)."""
    if isinstance(widget, TextArea):
        return widget.text
    return getattr(widget, "value", None)


def _problem_focus(field: Widget) -> Widget:
    """Where a field's problem is fixed: the part it names (a field of several parts: the channel's name, not its
    select), else the field, else its first focusable part."""
    aim = getattr(field, "problem_focus", None)
    if callable(aim):
        return cast(Widget, aim())
    if field.focusable:
        return field
    return next((w for w in field.query("*") if w.focusable), field)


def _said(error: ApiError) -> str:
    """A refusal with who said it and how, beside the form's own checks, which read alike: `The service said
    (422): …`, or `No answer: Could not reach …`."""
    status = f" ({error.status})" if error.status else ""
    return f"{said_by(error)}{status}: {describe_error(error)}"


def problems_of(checks: Iterable[tuple[str, str | None]]) -> dict[str, str]:
    """Collect (field, message-or-None) pairs into the problems an `Invalid` carries."""
    return {name: message for name, message in checks if message}
