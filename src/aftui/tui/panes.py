"""The panes of the sidebar, in order: keys 1-9 follow it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .screens.accounts import AccountsPane
from .screens.apps import AppsPane
from .screens.components import ComponentsPane
from .screens.connect import ConnectPane
from .screens.sources import SourcesPane
from .screens.subscriptions import SubscriptionsPane
from .screens.webhooks import WebhooksPane
from .screens.workflows import WorkflowsPane
from .screens.workspaces import WorkspacesPane
from .widgets.pane import Pane


@dataclass(frozen=True)
class PaneSpec:
    id: str
    title: str
    make: Callable[[], Pane]


def pane_specs() -> list[PaneSpec]:
    """The sidebar, in order; keys 1-9 follow it."""
    return [
        PaneSpec("workspaces", "Workspaces", WorkspacesPane),
        PaneSpec("sources", "Sources", SourcesPane),
        PaneSpec("workflows", "Workflows", WorkflowsPane),
        PaneSpec("webhooks", "Webhooks", WebhooksPane),
        PaneSpec("subscriptions", "Subscriptions", SubscriptionsPane),
        PaneSpec("connect", "Connect", ConnectPane),
        PaneSpec("apps", "Apps", AppsPane),
        PaneSpec("accounts", "Accounts", AccountsPane),
        PaneSpec("components", "Components", ComponentsPane),
    ]
