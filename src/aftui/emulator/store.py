"""The emulator's state: every resource the service holds, in memory.

Records are plain dataclasses; how they look on the wire is `views.py`'s
business, and what happens when they change is `runtime.py`'s. Every record
carries `seq`, its store's creation counter, which orders lists and cursors:
a record gets it when it enters its table, so that two emulators with the
same seed hand out the same cursors.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .clock import Clock
from .component_code import ComponentMeta
from .events import EventLog
from .ids import IdFactory


@dataclass
class Org:
    id: str
    name: str
    orgname: str
    email: str
    daily_credits_quota: int
    daily_credits_used: int
    daily_compute_time_quota: int | None = None
    daily_compute_time_used: int | None = None
    daily_invocations_quota: int | None = None
    daily_invocations_used: int | None = None


@dataclass
class User:
    id: str
    username: str
    email: str
    api_key: str
    plan: str  # "free" or "paid"
    org_ids: list[str]
    daily_compute_time_quota: int = 0
    daily_compute_time_used: int = 0
    daily_invocations_quota: int = 0
    daily_invocations_used: int = 0
    billing_period_start_ts: int = 0
    billing_period_end_ts: int = 0
    billing_period_credits: int = 0
    revoked_keys: list[str] = field(default_factory=list)


@dataclass
class OAuthClient:
    client_id: str
    client_secret: str
    org_id: str
    name: str


@dataclass
class Account:
    id: str
    app_id: str
    name: str | None
    org_id: str
    owner_id: str
    created_at_ms: int
    updated_at_ms: int
    credentials: dict[str, Any]
    expires_at_ms: int | None
    healthy: bool = True
    dead: bool = False
    oauth_app_id: str | None = None
    # Connect accounts belong to an end user of a project, in one environment.
    external_id: str | None = None
    project_id: str | None = None
    environment: str | None = None
    error: str | None = None
    last_refreshed_at_ms: int | None = None
    next_refresh_at_ms: int | None = None
    seq: int = 0  # given by the store (Table)


@dataclass
class Component:
    id: str
    owner_id: str | None  # None for registry components
    org_id: str | None
    code: str
    code_hash: str
    meta: ComponentMeta
    component_url: str | None
    created_at: int
    updated_at: int
    registry: bool = False
    seq: int = 0  # given by the store (Table)

    @property
    def key(self) -> str | None:
        return self.meta.key


@dataclass
class Source:
    id: str
    owner_id: str
    org_id: str
    component_id: str
    name: str
    name_slug: str
    configured_props: dict[str, Any]
    active: bool
    created_at: int
    updated_at: int
    endpoint_key: str | None = None
    next_fire_s: float | None = None
    # Runtime state of the component: its $.service.db and dedupe caches.
    db: dict[str, Any] = field(default_factory=dict)
    dedupe_seen: list[str] = field(default_factory=list)
    dedupe_greatest: float | None = None
    dedupe_last: str | None = None
    seq: int = 0  # given by the store (Table)


@dataclass
class Webhook:
    id: str
    user_id: str
    org_id: str
    name: str | None
    description: str | None
    url: str
    active: bool
    created_at: int
    updated_at: int
    seq: int = 0  # given by the store (Table)


@dataclass
class Subscription:
    id: str
    emitter_id: str
    listener_id: str
    event_name: str
    owner_id: str
    org_id: str
    seq: int = 0  # given by the store (Table)


@dataclass
class AutoSubscription:
    id: str
    event_name: str
    listener_id: str
    owner_id: str
    org_id: str
    created_seq: int = 0  # given by the store (Table), from the same counter as `seq`


@dataclass
class Trigger:
    id: str
    kind: str  # "http", "timer", "email" or "source"
    created_at: int
    updated_at: int
    endpoint_key: str | None = None
    custom_response: bool = False
    interval_seconds: int | None = None
    cron: str | None = None
    timezone: str = "UTC"
    schedule_changed_at: int | None = None
    email_address: str | None = None
    source_id: str | None = None
    next_fire_s: float | None = None


@dataclass
class Step:
    id: str
    namespace: str
    component_id: str
    configured_props: dict[str, Any]
    disabled: bool = False


@dataclass
class Workflow:
    id: str
    name: str
    owner_id: str
    org_id: str
    project_id: str | None
    template_id: str | None
    active: bool
    triggers: list[Trigger]
    steps: list[Step]
    created_at: int
    updated_at: int
    deployment_id: str
    seq: int = 0  # given by the store (Table)


@dataclass
class ConnectProject:
    id: str
    org_id: str
    name: str
    app_name: str
    support_email: str
    created_at: int


@dataclass
class ConnectToken:
    token: str
    project_id: str
    environment: str
    external_user_id: str
    expires_at_ms: int
    success_redirect_uri: str | None = None
    error_redirect_uri: str | None = None
    webhook_uri: str | None = None


@dataclass
class EndUser:
    project_id: str
    environment: str
    external_id: str
    created_at_ms: int


R = TypeVar("R")


class Table(dict[str, R]):
    """Records of one kind by id; a record entering it gets the store's next creation number."""

    def __init__(self, counter: Iterator[int], attr: str = "seq") -> None:
        super().__init__()
        self._counter = counter
        self._attr = attr

    def __setitem__(self, key: str, record: R) -> None:
        if key not in self:
            setattr(record, self._attr, next(self._counter))
        super().__setitem__(key, record)


@dataclass
class Store:
    clock: Clock
    ids: IdFactory
    users: dict[str, User] = field(default_factory=dict)
    orgs: dict[str, Org] = field(default_factory=dict)
    oauth_clients: dict[str, OAuthClient] = field(default_factory=dict)
    apps: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Tables of records that carry `seq` share one counter (see __post_init__).
    accounts: dict[str, Account] = field(init=False)
    components: dict[str, Component] = field(init=False)
    sources: dict[str, Source] = field(init=False)
    webhooks: dict[str, Webhook] = field(init=False)
    subscriptions: dict[str, Subscription] = field(init=False)
    auto_subscriptions: dict[str, AutoSubscription] = field(init=False)
    workflows: dict[str, Workflow] = field(init=False)
    templates: dict[str, dict[str, Any]] = field(default_factory=dict)
    projects: dict[str, ConnectProject] = field(default_factory=dict)
    connect_tokens: dict[str, ConnectToken] = field(default_factory=dict)
    end_users: dict[tuple[str, str, str], EndUser] = field(default_factory=dict)
    event_logs: dict[str, EventLog] = field(default_factory=dict)
    # endpoint key -> the HTTP source or workflow that answers at {root_url}/e/{key}
    endpoints: dict[str, str] = field(default_factory=dict)
    revoked_tokens: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        seq = itertools.count(1)
        for name in ("accounts", "components", "sources", "webhooks", "subscriptions", "workflows"):
            setattr(self, name, Table(seq))
        self.auto_subscriptions = Table(seq, "created_seq")

    # --- lookups -----------------------------------------------------------

    def app(self, id_or_slug: str) -> dict[str, Any] | None:
        app = self.apps.get(id_or_slug)
        if app is not None:
            return app
        return next((a for a in self.apps.values() if a["name_slug"] == id_or_slug), None)

    def user_by_key(self, key: str) -> User | None:
        return next((u for u in self.users.values() if u.api_key == key), None)

    def registry_component(self, key: str) -> Component | None:
        return next((c for c in self.components.values() if c.registry and c.key == key), None)

    def component_by_key_or_id(self, ident: str, owner_id: str | None) -> Component | None:
        comp = self.components.get(ident)
        if comp is not None:
            return comp
        saved = [c for c in self.components.values() if c.key == ident and not c.registry and c.owner_id == owner_id]
        if saved:
            return max(saved, key=lambda c: c.seq)
        return self.registry_component(ident)

    def endpoint(self, key: str) -> Source | tuple[Workflow, Trigger] | None:
        """What answers at `{root_url}/e/{key}`: an HTTP source or a workflow's HTTP trigger."""
        owner_id = self.endpoints.get(key)
        if owner_id is None:
            return None
        source = self.sources.get(owner_id)
        if source is not None:
            return source
        workflow = self.workflows.get(owner_id)
        if workflow is None:
            return None
        trigger = next((t for t in workflow.triggers if t.endpoint_key == key), None)
        return (workflow, trigger) if trigger is not None else None

    def log(self, emitter_id: str) -> EventLog:
        log = self.event_logs.get(emitter_id)
        if log is None:
            log = self.event_logs[emitter_id] = EventLog()
        return log

    def slug_taken(self, slug: str, org_id: str, except_id: str | None = None) -> bool:
        return any(s.name_slug == slug and s.org_id == org_id and s.id != except_id for s in self.sources.values())
