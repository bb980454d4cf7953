"""`LeavingInput`: a field whose enter takes the user on, and the keys typed with that enter with it."""

from __future__ import annotations

from textual import events
from textual.timer import Timer

from ..focus import OPENING_S, TYPED_AHEAD_KEPT, read_again
from .in_order_input import InOrderInput


class LeavingInput(InOrderInput):
    """An Input whose enter hands the focus on: a filter to the rows it let through, the bulk fix to its table.

    Textual types a letter as the field reads it, but runs enter's binding once the key has bubbled up to
    the App, and the owner moves the focus once the `Submitted` that posts has come round: every key read
    in the same burst was typed into the field before. `/ord_5⏎⏎` opened nothing (the second enter met the
    field) and a fix sent with `⏎d` ended in "d". Here enter submits as it is read, and the keys read after
    it wait until the focus has gone, then are read again where it went; if it stays (nothing took it within
    OPENING_S), they are typed here, as before. Its other bound keys (backspace, the arrows) run as they are
    read too, as every `InOrderInput`'s do.
    """

    _after_enter: list[events.Key] | None = None
    _timer: Timer | None = None

    async def _on_key(self, event: events.Key) -> None:
        if self._after_enter is not None:
            event.stop()
            event.prevent_default()
            if len(self._after_enter) < TYPED_AHEAD_KEPT:
                self._after_enter.append(event)
            return
        if event.key == "enter":
            # Held from now: the submit that follows may move the focus, and what is typed after it goes there.
            self._after_enter = []
            self._timer = self.set_timer(OPENING_S, self._hand_on)
        # Then InOrderInput's handler runs enter's submit, here and now (each class's handler runs, base last).

    def on_blur(self) -> None:
        self._hand_on()

    def _hand_on(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        held, self._after_enter = self._after_enter, None
        if held:
            read_again(self.app, held)
