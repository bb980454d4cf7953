"""`?`: every key of the screen the user is on, grouped by where it works, in words.

The groups follow Textual's own order of who answers a key: what has the
cursor first (the list, the tab bar, the editor), then the screen, then the
keys that work everywhere. A key is listed once, under whoever answers it now.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.keys import format_key
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from ..escape_keys import ESCAPED_KEYS

_NAMES = {
    "escape": "esc",
    "space": "space",
    "enter": "enter",
    "tab": "tab",
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "pageup": "page up",
    "pagedown": "page down",
}

# Textual's widgets, and ours that do not say it themselves (`KEYS_AREA`), by what the user sees.
_AREAS = {
    "DataTable": "The table",
    "Tabs": "The tab bar",
    "ContentTabs": "The tab bar",
    "Input": "The text box",
    "TextArea": "The editor",
    "Tree": "The tree",
    "OptionList": "The list",
    "SelectionList": "The list",
    "Select": "The choice",
    "Checkbox": "The check box",
    "Switch": "The switch",
    "Button": "The button",
}

_HIDDEN_ACTIONS = {"screen.copy_text"}  # copying a selection, which every screen has: not a key to learn
# Moving the cursor is the same in every list: said once at the bottom, not in each group.
_MOVES = ("cursor_", "scroll_", "page_")
_WORDS = {
    "select_cursor": "Open the highlighted row",
    "app.focus_next": "Next field",
    "app.focus_previous": "Previous field",
}


KEY_WIDTH = 14


def key_name(key: str) -> str:
    """`left_square_bracket` → `[`, `ctrl+r` → `ctrl+r`, `escape` → `esc`; a list of keys joined by commas."""
    return ", ".join(_one_key(k.strip()) for k in key.split(","))


def _one_key(key: str) -> str:
    *modifiers, name = key.split("+")
    shown = _NAMES.get(name) or format_key(name)
    return "+".join([*modifiers, shown])


def area_of(node: DOMNode) -> str:
    """Where a key works, in words: `The list`, `This screen`, `Everywhere`."""
    if isinstance(node, App):
        return "Everywhere"
    if isinstance(node, Screen):
        return "This screen"
    said = getattr(node, "KEYS_AREA", None)
    if isinstance(said, str):
        return said
    if type(node).__module__.startswith("textual."):  # Textual's table inside our list is the list
        for part in node.ancestors:
            if isinstance(part, Screen):
                break
            said = getattr(part, "KEYS_AREA", None)
            if isinstance(said, str):
                return said
    return next((_AREAS[k.__name__] for k in type(node).__mro__ if k.__name__ in _AREAS), "Where the cursor is")


def key_groups(screen: Screen) -> list[tuple[str, list[tuple[str, str, bool]]]]:
    """(area, [(keys, what they do, works now)]) in the order keys are answered; keys of one action on one row."""
    rows: dict[tuple[str, str, str], tuple[list[str], bool]] = {}
    for key, active in screen.active_bindings.items():
        binding: Binding = active.binding
        if binding.action in _HIDDEN_ACTIONS or binding.action.startswith(_MOVES) or key in ESCAPED_KEYS:
            continue
        description = _WORDS.get(binding.action) or binding.description or binding.action.replace("_", " ")
        keys, _ = rows.setdefault((area_of(active.node), description, binding.action), ([], active.enabled))
        keys.append(key_name(key))
    groups: dict[str, list[tuple[str, str, bool]]] = {}
    for (area, description, _), (keys, enabled) in rows.items():
        groups.setdefault(area, []).append((", ".join(keys), description, enabled))
    return list(groups.items())


class KeysScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "app.pop_screen", "Close")]

    DEFAULT_CSS = """
    KeysScreen { align: center middle; }
    KeysScreen > VerticalScroll { width: 70; max-width: 95%; height: auto; max-height: 90%; border: round $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, screen: Screen) -> None:
        super().__init__()
        # Read now, while `screen` is the one shown: some keys work only then (a pane's esc back to Health, its r),
        # and once this one is on top they read as off and were left out.
        self._groups = key_groups(screen)

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text("Keys on this screen", style="bold"))
            for area, rows in self._groups:
                yield Static(_table(area, rows))
            yield Static(
                Text(
                    "↑ ↓ page up/down home end move in any list · esc closes · ctrl+p or : opens the palette",
                    style="dim",
                )
            )


def _table(area: str, rows: Iterable[tuple[str, str, bool]]) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold cyan", no_wrap=True, width=KEY_WIDTH)
    table.add_column()
    table.add_row(Text(""), Text(area, style="bold underline"))
    for key, description, enabled in rows:
        table.add_row(Text(key), Text(description if enabled else f"{description} (not now)"))
    return table
