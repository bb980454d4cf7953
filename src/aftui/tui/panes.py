"""The panes of the sidebar, in order, each with its key: 0 Health, then 1-9."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .widgets.pane import Pane


@dataclass(frozen=True)
class PaneSpec:
    id: str
    title: str
    make: Callable[[], Pane]
    key: str  # the digit that shows it


# Each pane's module is imported when the pane is first shown: a start imports only the pane it opens on.


def _health() -> Pane:
    from .screens.health import HealthPane

    return HealthPane()


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
    """The sidebar, in order. Health came first later than the rest: it took 0, so 1-9 kept their panes."""
    return [
        PaneSpec("health", "Health", _health, "0"),
        PaneSpec("workspaces", "Workspaces", _workspaces, "1"),
        PaneSpec("sources", "Sources", _sources, "2"),
        PaneSpec("workflows", "Workflows", _workflows, "3"),
        PaneSpec("webhooks", "Webhooks", _webhooks, "4"),
        PaneSpec("subscriptions", "Subscriptions", _subscriptions, "5"),
        PaneSpec("connect", "Connect", _connect, "6"),
        PaneSpec("apps", "Apps", _apps, "7"),
        PaneSpec("accounts", "Accounts", _accounts, "8"),
        PaneSpec("components", "Components", _components, "9"),
    ]
