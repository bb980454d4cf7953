"""`Palette`: Textual's command palette, with an enter typed with its search acting on that search's matches.

`:order webhooks⏎` sent in one burst (as a terminal hands over a pasted or fast-typed line) ran Textual's
"Keys" command: the enter came while the search for the whole text was still running, and Textual's palette
acted on the list it showed, the matches of the first letters. Here an enter read while a search runs waits
for it, and then does what an enter does once the list is up: the first match, highlighted, is run.
"""

from __future__ import annotations

from textual import on
from textual.command import CommandPalette
from textual.widgets import Input
from textual.worker import Worker, WorkerState

PALETTE_ID = "--command-palette"  # Textual's `CommandPalette.is_open` looks for this id


class Palette(CommandPalette):
    _enter_waiting = False

    @on(Input.Submitted)
    def _enter_after_search(self, event: Input.Submitted) -> None:
        if not self._searching():
            return  # Textual's own handler acts on the list, up to date
        event.stop()
        event.prevent_default()  # Textual's handler (the base class's) would act on the stale list
        self._enter_waiting = True

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if not self._enter_waiting or event.worker.group != self._GATHER_COMMANDS_GROUP:
            return
        if event.state in (WorkerState.SUCCESS, WorkerState.ERROR) and not self._searching():
            self._enter_waiting = False
            self._select_or_command()

    def _searching(self) -> bool:
        """A search for what the input holds is running (each letter typed cancels the last one's)."""
        return any(
            worker.node is self and worker.group == self._GATHER_COMMANDS_GROUP and not worker.is_finished
            for worker in self.app.workers
        )
