"""The footer: the keys of the screen on top, nearest first, with `?` always in sight.

Textual's Footer lists the focused widget's keys, then its screen's, then
the App's, and cuts what does not fit: at 80 columns that cut `?` (an App
key, so the last). This one is compact, docks `?` at the right where the
palette key was (the palette stays on ctrl+p and `:`, and `?` says so),
shows each description once, and reads the bindings again whenever its
screen comes back on top, so what it shows is what the keys do. A key that
would not fit whole before `?` is not shown at all: Footer cut the last one
mid-word ("q Qu"), which reads as something else. Where keys are left out,
every list's own (sort, refresh, filter) go first, and the way back (esc) is
never among them.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.geometry import Size
from textual.layout import ArrangeResult, Layout
from textual.layouts.horizontal import HorizontalLayout
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

HELP_KEY = "question_mark"


# Every list's own keys, the same on every pane and first in the row (the focused list's), and a detail's
# r Refresh: where the row is short (80 columns) they give way first, so the pane's own verbs (n New,
# d Delete, t On/off; an error's e Edit & replay) stay in sight rather than being cut at the end. `?` lists
# them all.
YIELD_FIRST = ("sort", "refresh", "reload", "filter")
# The way back (esc Back, Cancel, Stop) is never cut: the keys before it give way to it. It comes after the
# focused list's keys, and an error list's five verbs at 80 columns left no room for it: the way out of a
# screen was nowhere in sight.
WAY_BACK_KEY = "escape"


class _WholeKeys(HorizontalLayout):
    """Footer's row of keys, less those that would not end in the room left of `?` (docked: not in `size`).
    In the layout, not after it: the keys that fit are known in the same pass that places them."""

    name = "horizontal"

    def arrange(self, parent: Widget, children: list[Widget], size: Size, greedy: bool = True) -> ArrangeResult:
        placed = super().arrange(parent, children, size, greedy)
        for action in YIELD_FIRST:
            if all(p.region.right <= size.width for p in placed):
                break
            kept = [child for child in children if getattr(child, "action", None) != action]
            if len(kept) < len(children):
                children = kept
                placed = super().arrange(parent, children, size, greedy)
        way_back = next((c for c in children if getattr(c, "key", None) == WAY_BACK_KEY), None)
        while way_back is not None and any(p.widget is way_back and p.region.right > size.width for p in placed):
            at = children.index(way_back)
            if at == 0:
                break
            children = children[: at - 1] + children[at:]  # the key before it: the focused list's last
            placed = super().arrange(parent, children, size, greedy)
        return [p for p in placed if p.region.right <= size.width]


_WHOLE_KEYS = _WholeKeys()


class KeyFooter(Footer):
    DEFAULT_CSS = """
    KeyFooter.-compact FooterKey.-command-palette { padding: 0 1; margin: 0; }
    KeyFooter.-compact KeyGroup { margin: 0 1 0 0; padding-left: 0; }
    KeyFooter.-compact FooterLabel { margin: 0 1 0 0; }
    """

    def __init__(self) -> None:
        super().__init__(compact=True, show_command_palette=False)
        self._recompose_due = False
        self._shown: tuple[tuple[object, ...], ...] | None = None  # the keys the last compose drew

    def _keys(self) -> tuple[tuple[object, ...], ...]:
        active = self.screen.active_bindings.values()
        return tuple((binding, enabled, tip) for _, binding, enabled, tip in active)  # a Binding compares whole

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """Footer rebuilds every key after the next refresh at each change (about 3 ms, and a layout): here only
        when the keys differ from those drawn, and once for changes in a row (focus settling at start, a pane
        shown, the keys just mounted telling their screen)."""
        mine = self.is_attached and screen is self.screen
        if mine and (self._recompose_due or self._shown == self._keys()):
            return
        self._recompose_due = mine and screen.app.app_focus  # as Footer decides whether to recompose
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        self._recompose_due = False  # from here on a change is read by another one
        await super().recompose()

    @property
    def layout(self) -> Layout:
        return _WHOLE_KEYS

    def compose(self) -> ComposeResult:
        self._shown = self._keys() if self._bindings_ready else None
        seen: set[str] = set()
        help_key: FooterKey | None = None
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                if widget.key == HELP_KEY:
                    help_key = widget
                    continue
                if widget.description and widget.description in seen:
                    continue  # two keys for one thing (or two things told alike): the nearest one only
                seen.add(widget.description)
            yield widget
        if help_key is not None:
            help_key.add_class("-command-palette")  # Footer's own style for its docked key: right, after a bar
            yield help_key

    def on_mount(self) -> None:
        self.app.screen_change_signal.subscribe(self, self._screen_changed)

    def _screen_changed(self, screen: Screen[Any]) -> None:
        """Back on top (a dialog or a pushed screen closed): focus is restored by now, so read the keys again."""
        if screen is self.screen:
            self.call_after_refresh(screen.refresh_bindings)
