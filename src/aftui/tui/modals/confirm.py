"""Ask before a destructive change, saying exactly what will be removed.

For the changes that cannot be undone and hit many things at once (a source
and its events, an end user and all their accounts) the user types a name
back: the confirm button stays disabled until the typed text matches.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events, on
from textual._time import get_time
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from ...text import visible
from ..focus import focus_now
from ..widgets.footer import KeyFooter
from ..widgets.in_order_input import InOrderInput

TYPED_AHEAD_WORDS = "Keys typed before this question was asked were not taken as answers."


class ConfirmScreen(ModalScreen[bool]):
    """Dismisses with True only on an explicit yes (and the typed name, when one is asked for)."""

    # y and n answer at once, except when a name is to be typed back: then they are letters of it.
    BINDINGS = [
        Binding("y", "yes", "Yes"),
        Binding("n", "no", "No"),
        Binding("escape", "cancel", "Cancel"),
    ]

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 72; max-width: 96%; height: auto; max-height: 90%; border: round $error; background: $surface; padding: 0 1; }
    ConfirmScreen.-mild > Vertical { border: round $warning; }
    ConfirmScreen .title { text-style: bold; color: $error; }
    ConfirmScreen.-mild .title { color: $warning; }
    ConfirmScreen .what { padding: 1 0 0 0; }
    ConfirmScreen #what-scroll { height: auto; }
    ConfirmScreen .typed-hint { color: $text-muted; padding: 1 0 0 0; }
    ConfirmScreen .typed-ahead { display: none; color: $warning; padding: 1 0 0 0; }
    ConfirmScreen Input { margin: 0; }
    ConfirmScreen Horizontal { height: auto; padding: 1 0 0 0; }
    ConfirmScreen Button { margin: 0 2 0 0; }
    /* The focused button is the one filled: a solid red Delete beside a focused Cancel, marked only by its
       reversed label, read as the one enter would press. Unfocused, the action is an outline in its colour. */
    ConfirmScreen #yes, ConfirmScreen #no {
        background: $surface; border-top: tall $surface-lighten-1; border-bottom: tall $surface-darken-1;
    }
    ConfirmScreen #yes.-error { color: $error; }
    ConfirmScreen #yes.-warning { color: $warning; }
    ConfirmScreen #yes:focus, ConfirmScreen #no:focus {
        background: $accent; color: $background; text-style: bold;
        border-top: tall $accent-lighten-2; border-bottom: tall $accent-darken-3;
    }
    ConfirmScreen #yes.-error:focus {
        background: $error; color: $text; border-top: tall $error-lighten-2; border-bottom: tall $error-darken-3;
    }
    ConfirmScreen #yes.-warning:focus {
        background: $warning; color: $background;
        border-top: tall $warning-lighten-2; border-bottom: tall $warning-darken-3;
    }
    """

    def __init__(
        self,
        title: str,
        what: Sequence[str],
        *,
        action: str = "Delete",
        typed: str | None = None,
        destructive: bool = True,
        stay: str = "Cancel",
    ) -> None:
        """`stay`: the button that changes nothing ("Back to the form" where "Cancel" would read as leaving it)."""
        super().__init__(classes="" if destructive else "-mild")
        self.stay = stay
        self.title_text = title
        self.what = list(what)
        self.action_label = action
        self.typed = typed
        self._asked_at: float | None = None  # when it was mounted: keys read before are not answers

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(visible(self.title_text, 140)), classes="title")
            with VerticalScroll(id="what-scroll", can_focus=False):
                yield Static(Text("\n".join("• " + visible(line, 300) for line in self.what)), classes="what")
            if self.typed is not None:
                yield Static(
                    Text.assemble("Type ", (visible(self.typed, 120), "bold"), " to confirm:"), classes="typed-hint"
                )
                # Not the name itself: shown grey in the field, it read as already typed.
                yield InOrderInput(id="typed", placeholder="type it here")
            yield Static(TYPED_AHEAD_WORDS, classes="typed-ahead")
            with Horizontal():
                yield Button(
                    self.action_label + (" (y)" if self.typed is None else ""),
                    variant="error" if not self.has_class("-mild") else "warning",
                    id="yes",
                    disabled=self.typed is not None,
                )
                yield Button(self.stay + (" (n)" if self.typed is None else " (esc)"), id="no")
        yield KeyFooter()  # this question's keys, not those of the screen under it

    def on_mount(self) -> None:
        self._asked_at = get_time()
        focus_now(self.query_one("#typed" if self.typed is not None else "#no"))
        self.call_after_refresh(self._fit)

    def hold_typed_ahead(self, event: events.Key) -> bool:
        """Drop a key read before the question was asked (True), but esc (`focus.KeyHolder`, asked by the App
        before the bindings). Letters typed fast for something else (a filter, a field) had reached the screen
        whose keys they are: `t` asked "Deactivate workflow …?" and a `y` or an enter typed behind it, meant for
        another screen, answered the question before anyone had read it."""
        if event.key == "escape" or (self._asked_at is not None and event.time >= self._asked_at):
            return False
        said = self.query_one(".typed-ahead")
        if not said.display:
            said.display = True
            self.call_after_refresh(self._fit)
        return True

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """What it does gets the rows the box has left, and scrolls past them, so that the typed name and the
        buttons stay on screen: a long name at 80x24 pushed them out, and enter pressed a button no one saw."""
        box = self.query_one("ConfirmScreen > Vertical")
        scroll = self.query_one("#what-scroll")
        others = sum(child.outer_size.height for child in box.children if child is not scroll)
        height = self.size.height - self.query_one(KeyFooter).outer_size.height  # the box's 90% is of what is left
        room = int(height * 0.9) - box.styles.gutter.height - others
        scroll.styles.max_height = max(3, room)

    @on(Input.Changed, "#typed")
    def _typed(self, event: Input.Changed) -> None:
        self.query_one("#yes", Button).disabled = event.value != self.typed

    @on(Input.Submitted, "#typed")
    def _submitted(self, event: Input.Submitted) -> None:
        if event.value == self.typed:
            self.dismiss(True)
            return
        # Said where the eye is: enter on a name one letter short did nothing, and it looked typed whole.
        hint = Text.assemble("Type ", (visible(self.typed or "", 120), "bold"), " to confirm: ")
        hint.append("what is typed does not match it yet", style="bold red")
        self.query_one(".typed-hint", Static).update(hint)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action in ("yes", "no") and self.typed is not None)

    def action_no(self) -> None:
        self.dismiss(False)

    @on(Button.Pressed, "#yes")
    def action_yes(self) -> None:
        if not self.query_one("#yes", Button).disabled:
            self.dismiss(True)

    @on(Button.Pressed, "#no")
    def action_cancel(self) -> None:
        self.dismiss(False)
