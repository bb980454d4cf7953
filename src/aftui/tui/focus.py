"""The focus comes back where it was when a dialog closes.

Textual gives a screen back the widget it had focused, unless that widget
lost the focus while the dialog was open (a list reloading under it after
the dialog's change: a loading widget cannot hold the focus). The screen
then focuses its first focusable widget: on the main screen, the sidebar,
where `r r` or `d` then meant something else. `FocusKeeper` remembers what
each covered screen had focused when it was covered, and gives it back as
the screen returns, instead of the first widget Textual picked.
"""

from __future__ import annotations

import weakref
from typing import Any

from textual.app import App
from textual.screen import Screen
from textual.widget import Widget


class FocusKeeper:
    """Subscribed to the app's screen changes (`keep_focus`)."""

    def __init__(self) -> None:
        self._kept: weakref.WeakKeyDictionary[Screen[Any], weakref.ref[Widget]] = weakref.WeakKeyDictionary()

    def changed(self, app: App[Any], screen: Screen[Any]) -> None:
        for below in app.screen_stack[:-1]:  # covered now: what they had focused
            if below.focused is not None:
                self._kept[below] = weakref.ref(below.focused)
        kept = self._kept.pop(screen, None)
        widget = kept() if kept is not None else None
        if widget is None or widget is screen.focused or not widget.is_attached or widget.screen is not screen:
            return
        if screen.focused is None or screen.focused in _firsts(screen):  # Textual's pick, not the user's
            if widget.focusable:
                screen.set_focus(widget)
            else:  # still loading: it takes the focus back once it can
                widget.call_after_refresh(_focus_when_ready, widget, 20)


def _focus_when_ready(widget: Widget, tries: int) -> None:
    screen = widget.screen if widget.is_attached else None
    if screen is None or screen.focused not in (None, *_firsts(screen)):
        return  # gone, or the user went elsewhere
    if widget.focusable:
        screen.set_focus(widget)
    elif tries:
        widget.set_timer(0.05, lambda: _focus_when_ready(widget, tries - 1))


def _firsts(screen: Screen[Any]) -> tuple[Widget, ...]:
    """What Textual focuses by itself on a screen that returns with nothing focused."""
    chain = screen.focus_chain
    return (chain[0],) if chain else ()


def keep_focus(app: App[Any]) -> None:
    keeper = FocusKeeper()
    app.screen_change_signal.subscribe(app, lambda screen: keeper.changed(app, screen))
