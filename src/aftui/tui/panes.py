"""The panes of the sidebar, in order, each with its key: 0 Health, then 1-9."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .screens.accounts import AccountsPane
from .screens.apps import AppsPane
from .screens.components import ComponentsPane
from .screens.connect import ConnectPane
from .screens.health import HealthPane
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
    key: str  # the digit that shows it


def pane_specs() -> list[PaneSpec]:
    """The sidebar, in order. Health came first later than the rest: it took 0, so 1-9 kept their panes."""
    return [
        PaneSpec("health", "Health", HealthPane, "0"),
        PaneSpec("workspaces", "Workspaces", WorkspacesPane, "1"),
        PaneSpec("sources", "Sources", SourcesPane, "2"),
        PaneSpec("workflows", "Workflows", WorkflowsPane, "3"),
        PaneSpec("webhooks", "Webhooks", WebhooksPane, "4"),
        PaneSpec("subscriptions", "Subscriptions", SubscriptionsPane, "5"),
        PaneSpec("connect", "Connect", ConnectPane, "6"),
        PaneSpec("apps", "Apps", AppsPane, "7"),
        PaneSpec("accounts", "Accounts", AccountsPane, "8"),
        PaneSpec("components", "Components", ComponentsPane, "9"),
    ]
