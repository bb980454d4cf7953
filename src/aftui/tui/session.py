"""What the TUI is connected to: client, profile, user, workspace, known workflows, clock."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone

from ..api import Client, RetryPolicy
from ..api.models import Org, User
from ..known import KnownWorkflows


# A person is waiting: a long Retry-After (Connect's minute) is shown at once, not slept through.
TUI_RETRY = RetryPolicy(attempts=3, max_retry_after=5)


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Session:
    client: Client
    profile_name: str
    known: KnownWorkflows
    demo: bool = False
    user: User | None = None
    now: Callable[[], datetime] = field(default=utc_now)  # fixed in snapshot tests

    @property
    def org_id(self) -> str | None:
        return self.client.org_id

    @property
    def workspace(self) -> Org | None:
        if self.user is None:
            return None
        return next((o for o in self.user.orgs if o.id == self.client.org_id), None)

    @property
    def workspace_label(self) -> str:
        org = self.workspace
        if org is not None:
            return org.name or org.orgname or org.id
        return self.client.org_id or "no workspace"

    @property
    def read_only(self) -> bool:
        return self.client.read_only

    @property
    def environment(self) -> str:
        return self.client.environment
