"""Open any resource from its id: the prefix tells its kind (palette, pasted ids)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from ..text import visible


def _source(ident: str) -> Screen[Any]:
    from .screens.sources import SourceScreen

    return SourceScreen(ident, ("Sources", ident))


# prefix -> what opens it; a prefix maps to a screen factory taking the id.
OPENERS: dict[str, Callable[[str], Screen[Any]]] = {
    "dc_": _source,
}

PREFIXES = ("dc_", "p_", "wh_", "sub_", "apn_", "app_", "sc_", "tch_", "o_")


def kind_of(ident: str) -> str | None:
    return next((p for p in PREFIXES if ident.startswith(p) and len(ident) > len(p)), None)


def open_resource(app: Any, ident: str) -> bool:
    prefix = kind_of(ident)
    if prefix == "o_":
        app.set_workspace(ident)
        app.show_pane("workspaces")
        return True
    opener = OPENERS.get(prefix or "")
    if opener is None:
        app.notify(f"Cannot open {visible(ident, 60)}: unknown id prefix", severity="warning", markup=False)
        return False
    app.push_screen(opener(ident))
    return True
