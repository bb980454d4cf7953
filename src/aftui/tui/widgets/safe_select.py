"""A Select that may be removed while it mounts."""

from __future__ import annotations

from typing import TypeVar

from textual import events
from textual.widgets import Select

T = TypeVar("T")


class SafeSelect(Select[T]):
    """Textual's Select, safe to close while it mounts.

    Select's mount handler fills its overlay and label. When its screen closes while a form is
    still mounting (esc right after the props appear, or props reloaded for another component),
    Textual prunes those children first, and Select's handler then raises NoMatches, which ends
    the app. A Select on its way out has nothing to show, so its mount is skipped.
    """

    def _on_mount(self, event: events.Mount) -> None:
        if self._pruning:
            event.prevent_default()  # Select's own handler runs after this one unless stopped here
