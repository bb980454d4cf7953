"""Open any resource from its id: the prefix tells its kind (palette, pasted ids)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.dom import DOMNode
from textual.screen import Screen

from ..text import visible
from .host import host
from .screens.accounts import AccountScreen
from .screens.apps import AppScreen
from .screens.components import ComponentScreen
from .screens.sources import SourceScreen
from .screens.subscriptions import SubscriptionScreen
from .screens.webhooks import WebhookScreen
from .screens.workflows import WorkflowScreen


def _source(ident: str) -> Screen[Any]:
    return SourceScreen(ident, ("Sources", ident))


def _webhook(ident: str) -> Screen[Any]:
    return WebhookScreen(ident, ("Webhooks", ident))


def _subscription(ident: str) -> Screen[Any]:
    return SubscriptionScreen(ident, ("Subscriptions", ident))


def _account(ident: str) -> Screen[Any]:
    return AccountScreen(ident, ("Accounts", ident), connect=None)  # management first, then Connect


def _app(ident: str) -> Screen[Any]:
    return AppScreen(ident, ("Apps", ident))


def _component(ident: str) -> Screen[Any]:
    return ComponentScreen(ident, ("Components", ident))


def _workflow(ident: str) -> Screen[Any]:
    return WorkflowScreen(ident, ("Templates" if ident.startswith("tch_") else "Workflows", ident))


# prefix -> what opens it; a prefix maps to a screen factory taking the id.
OPENERS: dict[str, Callable[[str], Screen[Any]]] = {
    "dc_": _source,
    "p_": _workflow,
    "tch_": _workflow,
    "wh_": _webhook,
    "sub_": _subscription,
    "apn_": _account,
    "app_": _app,
    "sc_": _component,
}

PREFIXES = ("dc_", "p_", "wh_", "sub_", "apn_", "app_", "sc_", "tch_", "o_")


def kind_of(ident: str) -> str | None:
    return next((p for p in PREFIXES if ident.startswith(p) and len(ident) > len(p)), None)


def open_resource(node: DOMNode, ident: str) -> bool:
    """Open `ident` on top of the app (`node`: the app, or any widget of it); False for an unknown prefix."""
    prefix = kind_of(ident)
    if prefix == "o_":
        host(node).set_workspace(ident)
        host(node).show_pane("workspaces")
        return True
    opener = OPENERS.get(prefix or "")
    if opener is None:
        node.app.notify(f"Cannot open {visible(ident, 60)}: unknown id prefix", severity="warning", markup=False)
        return False
    node.app.push_screen(opener(ident))
    return True
