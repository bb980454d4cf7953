"""`?`: every key of the screen the user is on, with what it does."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

_NAMES = {"slash": "/", "question_mark": "?", "colon": ":", "escape": "esc", "enter": "enter", "space": "space"}


def key_name(key: str) -> str:
    return ", ".join(_NAMES.get(k.strip(), k.strip()) for k in key.split(","))


class KeysScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "app.pop_screen", "Close")]

    DEFAULT_CSS = """
    KeysScreen { align: center middle; }
    KeysScreen > VerticalScroll { width: 70; max-width: 95%; height: auto; max-height: 90%; border: round $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, screen: Screen) -> None:
        super().__init__()
        self._of = screen

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        table.add_column(style="dim")
        seen: set[tuple[str, str]] = set()
        for key, active in self._of.active_bindings.items():
            binding = active.binding
            description = binding.description or binding.action
            if (description, binding.action) in seen or (binding.action.endswith("pop_screen") and key != "escape"):
                continue
            seen.add((description, binding.action))
            where = type(active.node).__name__
            table.add_row(
                Text(key_name(key)), Text(description), Text(where if active.enabled else f"{where} (not now)")
            )
        with VerticalScroll():
            yield Static(Text("Keys on this screen", style="bold"))
            yield Static(table)
            yield Static(Text("esc closes · ctrl+p or : opens the palette", style="dim"))
