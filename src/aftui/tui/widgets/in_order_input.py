"""`InOrderInput`: an Input whose bound keys run in their place among the letters typed around them."""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from ..focus import run_bound_key


class InOrderInput(Input):
    """An Input that runs its bound keys (backspace, ctrl+u, the arrows, home, enter) as it reads them.

    Textual types a letter as the field reads it, but runs a bound key once it has bubbled up to the App,
    messages later: in a burst the letters overtake it. A timer's "15m" with four backspaces and "600" typed
    at once was saved as "15" (the letters typed, then four characters erased), and ctrl+u before a new URL
    erased the URL. Every field aftui shows is one of these; `json_editor.InOrderTextArea` does the same for
    the editor.
    """

    KEYS_IN_ORDER = True  # its bound keys are keys to it, not actions to run (`focus.TypeAhead`)

    async def _on_key(self, event: events.Key) -> None:
        # Only the actions Input defines: a scroll key it inherits, and skips with nothing to scroll, goes on up
        # the chain (a filter's down to its rows). A letter goes on to Input's own `_on_key`, which types it.
        await run_bound_key(self, event, Input)
