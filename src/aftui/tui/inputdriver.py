"""The terminal driver, made to tell the app of a key or click the moment the terminal delivers it.

During a burst the feeds' and the journal writer's threads share the GIL with the UI. A key press is
read by the driver's input thread, then crosses to the UI's event loop and is dispatched there, and
under load each turn of that loop waited for the GIL: 2-10 ms (traced) before the App's own listener
(`AftuiApp._feeds_input_first`) held the feeds back. The input thread sees the key first, so the
hold starts there, and the key's way to the screen runs with the feeds already stepping back.
"""

from __future__ import annotations

from functools import cache

from textual import events
from textual.driver import Driver
from textual.message import Message

# What a person does on purpose: a mouse moving over the screen does not hold anything back.
INPUT = (events.Key, events.MouseDown, events.MouseScrollDown, events.MouseScrollUp)


@cache  # one class per driver class, not one per app
def input_first(base: type[Driver]) -> type[Driver]:
    """`base`, calling its app's `input_arrived()` for each key or click before passing it on.

    That call is made on the input thread: it must only do what is safe from there (set a deadline).
    """

    def process_message(self: Driver, message: Message) -> None:
        if isinstance(message, INPUT):
            arrived = getattr(self._app, "input_arrived", None)
            if arrived is not None:
                arrived()
        base.process_message(self, message)

    return type(f"InputFirst{base.__name__}", (base,), {"process_message": process_message})
