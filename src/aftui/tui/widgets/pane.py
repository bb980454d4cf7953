"""A pane of the main screen: one area of the service, in the sidebar."""

from __future__ import annotations

from textual.containers import Vertical
from textual.dom import DOMNode
from textual.widget import Widget

from ...api import Client
from ...health.alerts import Alert
from ..host import session_of
from ..session import Session


class Pane(Vertical):
    """Panes are mounted when first shown and told when the workspace changes."""

    TITLE = ""
    KEYS_AREA = "This pane"  # its heading in `?`
    DEFAULT_CSS = """
    Pane { height: 1fr; }
    Pane > .pane-title { height: 1; padding: 0 1; text-style: bold; background: $boost; }
    """

    @property
    def session(self) -> Session:
        return session_of(self)

    @property
    def client(self) -> Client:
        return session_of(self).client

    def focus_main(self) -> None:
        """Focus the pane's list: the first table, tree or option list on show."""
        # By type name, which matches subclasses too: importing DataTable and Tree to test against them would
        # cost the start, whose Health pane has neither, about 5 ms.
        for widget in self.query("Board, DataTable, OptionList, Tree"):
            if self._shown(widget):
                # At once, not on the next message as widget.focus() does: a key typed right after the pane's
                # number (`0 enter`) must reach this list, not the one of the pane left behind.
                self.screen.set_focus(widget)
                if self.screen.focused is not widget:
                    widget.focus()  # not focusable yet (a new pane's list is enabled once shown): a message later
                return

    def _shown(self, widget: Widget) -> bool:
        """The widget and its containers up to this pane are displayed (a hidden list is not the one to focus)."""
        node: DOMNode | None = widget
        while node is not None and node is not self:
            if not node.display:
                return False
            node = node.parent
        return True

    def workspace_changed(self) -> None:
        """The user chose another workspace (or environment): reload what depends on it."""

    def health_changed(self) -> None:
        """The health board has news (the App calls it about once a second while the pane is shown)."""

    def alerts_missed(self, alerts: list[Alert]) -> None:
        """Alerts raised while the user was elsewhere, handed over when the Health pane is shown (it marks
        their rows; the other panes show none of them)."""
