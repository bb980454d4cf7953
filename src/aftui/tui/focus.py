"""Keys typed ahead follow the focus to the field just opened; the focus comes back where it was after a dialog.

Over SSH, or typed fast, a key and the ones after it arrive together, and
Textual hands each to the widget focused as it reads it, in that widget's
own queue. A key the widget does not handle comes back to the App, which
looks for a binding from the widget focused *then*. So `/` then `query`,
read at once, were all queued for the list: `/` opened the filter, and the
letters after it met the list's bindings instead of the field (`q` quit the
app; on the Errors tab a `y` or an `e` opened a replay of the error under
the cursor). Two things keep them in the field. A key's action that opens a
field focuses it with `focus_now`, not with Textual's `focus`, which moves
the focus a turn of the message queue later; and `TypeAhead` sends a key
that comes back from a widget which meanwhile gave the focus to a text
field on to that field, where it is typed.

Textual gives a screen back the widget it had focused, unless that widget
lost the focus while the dialog was open (a list reloading under it after
the dialog's change: a loading widget cannot hold the focus). The screen
then focuses its first focusable widget: on the main screen, the sidebar,
where `r r` or `d` then meant something else. `FocusKeeper` remembers what
each covered screen had focused when it was covered, and gives it back as
the screen returns, instead of the first widget Textual picked; not when
that widget is hidden by then: `2` pressed on a detail closes it and shows
the Sources pane, whose list the focus is on, and the list of the pane left
behind (the first focusable at 80 columns, where the sidebar is hidden, is
the current pane's list, so it looked like Textual's pick) took it back.

Keys read with the enter that opens a row wait for what it opens
(`KeysForOpening`), and a detail keeps them until its tabs are built
(`KeyHolder`): `enter ] ]` used to lose both brackets.
"""

from __future__ import annotations

import sys
import weakref
from collections import OrderedDict
from typing import Any, Protocol, runtime_checkable

from textual import events
from textual.app import App
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

OPENING_S = 0.5  # the longest keys read after enter wait for the screen it opens (pushed within a few ms)
TYPED_KEPT = 64  # keys remembered with the widget they were handed to: far more than a burst is ahead of the UI
TYPED_AHEAD_KEPT = 512  # keys a screen keeps for what it is opening (`KeyHolder`): a fix typed or pasted ahead


def focus_now(widget: Widget) -> None:
    """Focus `widget` at once (see above); a widget that cannot take the focus yet gets it as Textual gives it."""
    if widget.is_attached and widget.focusable:
        widget.screen.set_focus(widget)
    else:
        widget.focus()


def _types_text(widget: Widget) -> bool:
    """An Input or a TextArea. TextArea is looked up, not imported: its import (3 ms, most of it its themes)
    would be part of every start, and a widget can only be one once a form has imported it."""
    if isinstance(widget, Input):
        return True
    text_area = sys.modules.get("textual.widgets._text_area")
    return text_area is not None and isinstance(widget, text_area.TextArea)


class TypeAhead:
    """Which widget each key was handed to (`handed`); `follow` sends one that came back unhandled after the
    focus moved to a text field on to that field."""

    def __init__(self) -> None:
        # By the event itself (events compare by identity); a key handled on the way never comes back, so
        # only the newest are kept.
        self._handed: OrderedDict[events.Key, Widget | None] = OrderedDict()

    def handed(self, event: events.Key, widget: Widget | None) -> None:
        self._handed[event] = widget
        if len(self._handed) > TYPED_KEPT:
            self._handed.popitem(last=False)

    def follow(self, event: events.Key, focused: Widget | None) -> bool:
        """True when `event` was sent on to `focused`: a text field that took the focus after the key was handed out."""
        if event not in self._handed:
            return False
        widget = self._handed.pop(event)
        if focused is None or focused is widget or not _types_text(focused):
            return False
        bindings = focused._bindings.key_to_bindings.get(event.key)
        if bindings and not getattr(focused, "KEYS_IN_ORDER", False):
            # A key the field acts on through a binding (backspace, the arrows, enter): a key event sent to it
            # does not run that, and came back for the App to, after the letters typed behind it had been
            # typed (`/zzz`, three backspaces and `inject` left "zzzinj"). Queued behind those before it instead.
            focused.call_later(focused.run_action, bindings[0].action)
            return True
        # A key of its own, or one a field that runs its bound keys as it reads them (`KEYS_IN_ORDER`) takes
        # as a key: the one that came back is done with (its handling ends at the App).
        typed = events.Key(event.key, event.character)
        typed.set_sender(focused.app)
        self.handed(typed, focused)  # back again unhandled (a key no field types): the bindings' turn
        focused._forward_event(typed)
        return True


class KeysForOpening:
    """Keys read with the enter that opens a row (`enter ] ]`, `enter u`), kept for the screen it opens.

    Enter's row is opened a few messages later; the keys read with it came back to the App before that and
    met the list's bindings: `]` found none and was lost, a pane's digit switched the pane under the detail
    about to open. Now, from enter (`selected`) until a screen opens or OPENING_S passes, the keys that come
    back unhandled are kept (`held`), then read again in order, by the screen that opened (a detail keeps
    them for its tabs: `KeyHolder`), or where they were when enter opened nothing."""

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self._held: list[events.Key] = []
        self._depth = 0
        self._timer: Timer | None = None

    def selected(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._depth = len(self._app.screen_stack)
        self._timer = self._app.set_timer(OPENING_S, self._hand_on)

    def held(self, event: events.Key) -> bool:
        if self._timer is None:
            return False
        self._held.append(event)
        return True

    def screen_changed(self) -> None:
        """A screen opened, or closed (enter picked in a dialog): the keys go to the one on top now."""
        if self._timer is not None and len(self._app.screen_stack) != self._depth:
            self._hand_on()

    def _hand_on(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        held, self._held = self._held, []
        read_again(self._app, held)


async def run_bound_key(widget: Widget, event: events.Key, own: type[Widget] | None = None) -> bool:
    """Run the binding of `event` on `widget` as it reads the key, not once the key has bubbled up to the App,
    messages later, when the letters read in the same burst had overtaken it (`json_editor.InOrderTextArea`,
    `widgets/leaving_input.py`). Printable keys are left to be typed. With `own`, only a binding whose action
    that class defines: a scroll key `widget` inherits, and skips when there is nothing to scroll, goes on up
    the chain (a filter's down goes to its rows). True when it ran: the key is done with."""
    bindings = widget._bindings.key_to_bindings.get(event.key)
    if not bindings or event.is_printable:
        return False
    action = bindings[0].action
    if own is not None and f"action_{action.partition('(')[0]}" not in vars(own):
        return False
    event.stop()
    event.prevent_default()  # the widget's own `_on_key` (a TextArea's enter or tab inserts; these do not)
    await widget.run_action(action)
    return True


def read_again(app: App[Any], keys: list[events.Key]) -> None:
    """Post `keys` to `app` in order, as new keys read now: each goes to the focus of the moment it is read."""
    for event in keys:
        app.post_message(events.Key(event.key, event.character))


@runtime_checkable
class KeyHolder(Protocol):
    """A screen that takes keys read before it can use them: a detail loading its record keeps them to hand
    on; a question drops those read before it was asked (`modals/confirm.py`)."""

    def hold_typed_ahead(self, event: events.Key) -> bool: ...


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
        if not shown(widget):  # a pane switched away from under the dialog (`2` from a detail): the new one's focus
            return
        if screen.focused is None or screen.focused in _firsts(screen):  # Textual's pick, not the user's
            if widget.focusable:
                screen.set_focus(widget)
            else:  # still loading: it takes the focus back once it can
                widget.call_after_refresh(_focus_when_ready, widget, 20)


def _focus_when_ready(widget: Widget, tries: int) -> None:
    screen = widget.screen if widget.is_attached else None
    if screen is None or screen.focused not in (None, *_firsts(screen)) or not shown(widget):
        return  # gone, or the user went elsewhere
    if widget.focusable:
        screen.set_focus(widget)
    elif tries:
        widget.set_timer(0.05, lambda: _focus_when_ready(widget, tries - 1))


def shown(widget: Widget) -> bool:
    """Neither it nor a container of it is hidden (`display: none`: a ContentSwitcher's other panes, the groups
    view in place of a list). Textual's `focusable` does not ask: a hidden field or list can be focused."""
    return all(node.display for node in widget.ancestors_with_self if isinstance(node, Widget))


def first_focusable(container: Widget) -> Widget | None:
    """The first widget in `container` that can take the focus and is shown."""
    return next((w for w in container.query("*") if w.focusable and shown(w)), None)


def _firsts(screen: Screen[Any]) -> tuple[Widget, ...]:
    """What Textual focuses by itself on a screen that returns with nothing focused."""
    chain = screen.focus_chain
    return (chain[0],) if chain else ()


def keep_focus(app: App[Any]) -> None:
    keeper = FocusKeeper()
    app.screen_change_signal.subscribe(app, lambda screen: keeper.changed(app, screen))
