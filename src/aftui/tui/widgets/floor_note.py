"""A note above the footer that notifications stand above, not over.

Textual's notifications are docked at the screen's bottom right, lifted by a
fixed margin (aftui.tcss: the footer and one line). A note of several lines
there, such as Health's line under the board, was covered on its right by
every notification, the alerts included: the text the user reads next. While
a `FloorNote` is shown, the screen's notifications stand above its height.
"""

from __future__ import annotations

from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Static

TOAST_RACK = "#textual-toastrack"  # the id Textual gives each screen's rack of notifications
FOOTER_ROWS = 1


class FloorNote(Static):
    """A Static docked (by its layout) right above the footer; notifications are lifted over it while shown."""

    def on_resize(self) -> None:
        self._lift()

    def on_show(self) -> None:
        self._lift()

    def on_hide(self) -> None:
        rack = _rack(self)
        if rack is not None:
            rack.styles.margin = None  # back to the stylesheet's: other panes have a one-line note there

    def _lift(self) -> None:
        rack = _rack(self)
        if rack is not None and self.display:
            rack.styles.margin = (0, 0, FOOTER_ROWS + self.outer_size.height, 0)


def _rack(widget: Widget) -> Widget | None:
    try:
        return widget.screen.query_one(TOAST_RACK)
    except NoMatches:
        return None
