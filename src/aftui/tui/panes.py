"""The panes of the sidebar, in order: keys 1-9 follow it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .widgets.pane import Pane


@dataclass(frozen=True)
class PaneSpec:
    id: str
    title: str
    make: Callable[[], Pane]


# Each pane's module is imported when the pane is first shown: a start imports only the pane it opens on.


def _workspaces() -> Pane:
    from .screens.workspaces import WorkspacesPane

    return WorkspacesPane()


def _sources() -> Pane:
    from .screens.sources import SourcesPane

    return SourcesPane()


def _workflows() -> Pane:
    from .screens.workflows import WorkflowsPane

    return WorkflowsPane()


def _webhooks() -> Pane:
    from .screens.webhooks import WebhooksPane

    return WebhooksPane()


def _subscriptions() -> Pane:
    from .screens.subscriptions import SubscriptionsPane

    return SubscriptionsPane()


def _connect() -> Pane:
    from .screens.connect import ConnectPane

    return ConnectPane()


def _apps() -> Pane:
    from .screens.apps import AppsPane

    return AppsPane()


def _accounts() -> Pane:
    from .screens.accounts import AccountsPane

    return AccountsPane()


def _components() -> Pane:
    from .screens.components import ComponentsPane

    return ComponentsPane()


def pane_specs() -> list[PaneSpec]:
    """The sidebar, in order; keys 1-9 follow it."""
    return [
        PaneSpec("workspaces", "Workspaces", _workspaces),
        PaneSpec("sources", "Sources", _sources),
        PaneSpec("workflows", "Workflows", _workflows),
        PaneSpec("webhooks", "Webhooks", _webhooks),
        PaneSpec("subscriptions", "Subscriptions", _subscriptions),
        PaneSpec("connect", "Connect", _connect),
        PaneSpec("apps", "Apps", _apps),
        PaneSpec("accounts", "Accounts", _accounts),
        PaneSpec("components", "Components", _components),
    ]
