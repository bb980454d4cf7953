"""The demo data set: the same for the same seed.

Built through `operations`, the same doors a client goes through, so every
demo record is one the API itself could have made. Two workspaces, the
catalogue's apps, registry components and templates, sources of every kind,
workflows with every trigger kind (one of which fails on orders without a
customer e-mail), webhooks and subscriptions, and a Connect project with end
users in both environments.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from . import catalog, operations
from .core import Core
from .identity import DemoIdentity, draw_identity
from .runtime import run_sync
from .store import Account, ConnectProject, EndUser, OAuthClient, Org, Source, User, Workflow
from .traffic import ORDER_WEBHOOKS, ORDER_WORKFLOW, activity_requests

DAY_MS = 24 * 3600 * 1000
HISTORY_MS = 2 * 3600 * 1000


@dataclass
class DemoInfo:
    identity: DemoIdentity  # the people's ids and keys (drawn first: identity.py)
    order_workflow_id: str | None = None
    order_endpoint_key: str | None = None
    inbox_source_id: str | None = None

    @property
    def api_key(self) -> str:
        return self.identity.api_key

    @property
    def org_id(self) -> str:
        """The demo user's team workspace, Acme Ops: where the demo's resources are."""
        return self.identity.acme_org_id

    @property
    def project_id(self) -> str:
        return self.identity.project_id

    @property
    def user_id(self) -> str:
        return self.identity.user_id


def populate(core: Core, *, data: str = "demo", scale: int = 0) -> DemoInfo:
    """Load the catalogue, the demo people and, for `data="demo"`, their resources."""
    store = core.store
    # The people's ids first: the seed alone gives them, so the demo's emulator process can say them before it
    # has built anything (identity.py, child.py).
    identity = draw_identity(store.ids)
    for app in catalog.APPS:
        store.apps[app["id"]] = dict(app)
    for code in catalog.REGISTRY.values():
        operations.save_component(core, None, None, code, None, registry=True)
    for template in catalog.TEMPLATES:
        store.templates[template["id"]] = dict(template)
    info = _people(core, identity)
    if data == "demo":
        rng = random.Random(core.settings.seed)
        _resources(core, info, rng)
    if scale:
        _scale(core, info, scale)
    return info


def _people(core: Core, identity: DemoIdentity) -> DemoInfo:
    store, now = core.store, core.store.clock.now_ms()
    personal = Org(
        identity.personal_org_id,
        "Dana's workspace",
        "dana",
        "dana@example.com",
        10_000,
        1_420,
        3_600_000,
        812_000,
        10_000,
        2_310,
    )
    acme = Org(identity.acme_org_id, "Acme Ops", "acme-ops", "ops@acme.example", 250_000, 61_870)
    for org in (personal, acme):
        store.orgs[org.id] = org
    user = User(
        id=identity.user_id,
        username="dana",
        email="dana@example.com",
        api_key=identity.api_key,
        plan="free",
        org_ids=[personal.id, acme.id],
        daily_compute_time_quota=1_800_000,
        daily_compute_time_used=412_500,
        daily_invocations_quota=10_000,
        daily_invocations_used=2_310,
    )
    paid_org = Org(identity.paid_org_id, "Lumen Labs", "lumen", "billing@lumen.example", 2_000_000, 340_112)
    store.orgs[paid_org.id] = paid_org
    paid = User(
        id=identity.paid_user_id,
        username="lee",
        email="lee@lumen.example",
        api_key=identity.paid_api_key,
        plan="paid",
        org_ids=[paid_org.id],
        billing_period_start_ts=(now - 9 * DAY_MS) // 1000,
        billing_period_end_ts=(now + 21 * DAY_MS) // 1000,
        billing_period_credits=48_210,
    )
    store.users[user.id] = user
    store.users[paid.id] = paid
    client = OAuthClient(identity.client_id, identity.client_secret, acme.id, "aftui demo")
    store.oauth_clients[client.client_id] = client
    project = ConnectProject(
        identity.project_id,
        acme.id,
        "Acme Customer Portal",
        "Acme Portal",
        "support@acme.example",
        now // 1000 - 120 * 86400,
    )
    store.projects[project.id] = project
    return DemoInfo(identity)


# --- resources ------------------------------------------------------------------------------------


def _account(
    core: Core,
    app_slug: str,
    org_id: str,
    owner_id: str,
    rng: random.Random,
    *,
    name: str | None = None,
    age_days: int = 30,
    **connect: Any,
) -> Account:
    store = core.store
    app = store.app(app_slug)
    assert app is not None, app_slug
    now = store.clock.now_ms()
    created = now - age_days * DAY_MS - rng.randint(0, DAY_MS)
    account = Account(
        id=store.ids.new("apn_"),
        app_id=app["id"],
        name=name,
        org_id=org_id,
        owner_id=owner_id,
        created_at_ms=created,
        updated_at_ms=created + rng.randint(0, age_days * DAY_MS),
        credentials=_credentials(core, app, rng),
        expires_at_ms=now + 3600_000 if app["auth_type"] == "oauth" else None,
        oauth_app_id=store.ids.new("oa_", 6) if app["auth_type"] == "oauth" and rng.random() < 0.2 else None,
        **connect,
    )
    if account.project_id is not None:
        account.last_refreshed_at_ms = now - rng.randint(1, 50) * 60_000
        account.next_refresh_at_ms = now + rng.randint(5, 55) * 60_000
    store.accounts[account.id] = account
    return account


def _credentials(core: Core, app: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    ids = core.store.ids
    if app["auth_type"] == "oauth":
        return {
            "oauth_access_token": ids.token("gho_" if app["name_slug"] == "github" else "ya29.", 36),
            "oauth_client_id": ids.token("", 20),
            "oauth_refresh_token": ids.token("rt_", 40),
            "oauth_uid": str(rng.randint(10_000, 99_999_999)),
        }
    return {name: ids.token("", 24) for name in catalog.APP_CREDENTIAL_FIELDS(app)}


_SOURCE_PLAN: list[tuple[str, str, dict[str, Any]]] = [
    # (registry key, name, props; "@slug" stands for the user's account of that app)
    ("http-new-requests", ORDER_WEBHOOKS, {}),
    ("http-new-requests", "Webhook inbox", {"emitBodyOnly": False}),
    ("http-new-requests", "Shopify order events", {"emitBodyOnly": True}),
    ("http-new-requests", "Intercom conversations", {}),
    ("http-new-requests", "Status page callbacks", {}),
    ("http-custom-response", "Partner ping", {"status": 202, "body": "accepted"}),
    ("http-custom-response", "Typeform submissions", {}),
    ("schedule-every-interval", "Heartbeat every 5 minutes", {"timer": {"intervalSeconds": 300}}),
    ("schedule-every-interval", "Cache warmer", {"timer": {"intervalSeconds": 900}}),
    ("schedule-every-interval", "Hourly invoice sweep", {"timer": {"intervalSeconds": 3600}}),
    (
        "schedule-cron-expression",
        "Weekday standup reminder",
        {"timer": {"cron": "0 9 * * 1-5"}, "timezone": "Europe/Berlin"},
    ),
    ("schedule-cron-expression", "Nightly backup check", {"timer": {"cron": "30 2 * * *"}}),
    ("schedule-cron-expression", "Month-end close", {"timer": {"cron": "0 6 1 * *"}}),
    ("github-new-issue", "New issues in acme/api", {"github": "@github", "repo": "acme/api", "labels": ["bug"]}),
    ("github-new-issue", "New issues in acme/web", {"github": "@github", "repo": "acme/web"}),
    (
        "github-new-issue",
        "New issues in acme/infra",
        {"github": "@github", "repo": "acme/infra", "timer": {"intervalSeconds": 600}},
    ),
    (
        "slack-new-message-in-channels",
        "Messages in #incidents",
        {"slack": "@slack", "channel": "C01INCIDENT", "keyword": "sev"},
    ),
    ("slack-new-message-in-channels", "Messages in #deploys", {"slack": "@slack", "channel": "C02DEPLOYS"}),
    ("stripe-new-payment", "Stripe payments", {"stripe": "@stripe", "minAmount": 100}),
    ("stripe-new-payment", "Stripe payments (EU)", {"stripe": "@stripe"}),
    ("rss-new-item-in-feed", "Engineering blog", {"urls": ["https://blog.example.com/feed.xml"]}),
    (
        "rss-new-item-in-feed",
        "Status feeds",
        {"urls": ["https://status.example.com/history.rss", "https://status.partner.example/feed"]},
    ),
    (
        "google_sheets-new-row-added",
        "Orders sheet",
        {"google_sheets": "@google_sheets", "sheetId": "1AbCdEfGhIjK", "worksheet": 0},
    ),
    (
        "google_sheets-new-row-added",
        "Refund requests sheet",
        {"google_sheets": "@google_sheets", "sheetId": "1ZyXwVuTsRqP", "worksheet": 2},
    ),
    (
        "postgresql-new-row",
        "New signups (postgres)",
        {"postgresql": "@postgresql", "table": "customers", "column": "id"},
    ),
    (
        "postgresql-new-row",
        "New orders (postgres)",
        {"postgresql": "@postgresql", "table": "orders", "filters": {"status": "paid"}},
    ),
    ("schedule-every-interval", "Quota watcher", {"timer": {"intervalSeconds": 120}}),
    ("http-new-requests", "Sandbox endpoint", {}),
]


def _resources(core: Core, info: DemoInfo, rng: random.Random) -> None:
    store = core.store
    user = store.users[info.user_id]
    acme, personal = info.org_id, user.org_ids[0]
    accounts = {
        slug: _account(core, slug, acme, user.id, rng, name=nick)
        for slug, nick in [
            ("github", "acme-bot"),
            ("slack", "Acme workspace"),
            ("stripe", "Stripe live"),
            ("google_sheets", None),
            ("postgresql", "orders-db (read replica)"),
            ("openai", None),
            ("twilio", "Alerts number"),
            ("datadog", None),
            ("trello", None),
        ]
    }
    for slug in ("github", "notion", "airtable", "gmail"):
        _account(core, slug, personal, user.id, rng, age_days=90)
    _account(core, "hubspot", acme, user.id, rng, name="HubSpot (expired)").healthy = False

    # Sources and workflows are made before the history they then live through,
    # so that their hook logs and events carry times in order.
    now = store.clock.now_ms()
    store.clock.set(now - HISTORY_MS - 60_000)
    sources = _sources(core, info, accounts, rng, acme, personal)
    workflows = _workflows(core, info, accounts, sources, acme)
    _routing(core, info, sources, workflows, acme)
    _history(core, sources, rng, until_ms=now)
    _connect(core, info, rng)


def _sources(
    core: Core, info: DemoInfo, accounts: dict[str, Account], rng: random.Random, acme: str, personal: str
) -> dict[str, Source]:
    out: dict[str, Source] = {}
    for i, (key, name, props) in enumerate(_SOURCE_PLAN):
        comp = core.store.registry_component(key)
        assert comp is not None, key
        configured = {
            k: ({"authProvisionId": accounts[v[1:]].id} if isinstance(v, str) and v.startswith("@") else v)
            for k, v in props.items()
        }
        org = personal if i % 7 == 6 else acme
        if org == personal and any(isinstance(v, dict) and "authProvisionId" in v for v in configured.values()):
            org = acme
        source = operations.deploy_source(core, info.user_id, org, comp, name, configured)
        _age(core, source, rng)
        out[name] = source
    out["Cache warmer"].active = False
    out["Month-end close"].active = False
    for source in out.values():
        core.runtime.schedule_source(source)
    info.inbox_source_id = out["Webhook inbox"].id
    return out


def _age(core: Core, record: Any, rng: random.Random) -> None:
    now = core.store.clock.now_s()
    record.created_at = now - rng.randint(2, 200) * 86400 - rng.randint(0, 86400)
    record.updated_at = min(now, record.created_at + rng.randint(0, 30) * 86400)


def _loopback(core: Core, source: Source, path: str) -> str:
    """Demo URLs point back at the emulator, so nothing leaves the machine."""
    return f"{core.root_url}/e/{source.endpoint_key}/{path}"


def _workflows(
    core: Core, info: DemoInfo, accounts: dict[str, Account], sources: dict[str, Source], acme: str
) -> dict[str, Workflow]:
    inbox = sources["Webhook inbox"]
    plan: list[tuple[str, str, dict[str, Any]]] = [
        ("tch_3Lm9Qa", ORDER_WORKFLOW, {}),
        (
            "tch_8Wd2Kc",
            "Nightly report",
            {
                "steps": [
                    {
                        "namespace": "fetch_metrics",
                        "props": {"url": _loopback(core, inbox, "metrics"), "method": "POST"},
                    }
                ]
            },
        ),
        (
            "tch_Gh5rT1",
            "GitHub issues to Slack",
            {
                "triggers": [{"props": {"github": {"authProvisionId": accounts["github"].id}, "repo": "acme/api"}}],
                "steps": [
                    {
                        "namespace": "send_message",
                        "props": {"slack": {"authProvisionId": accounts["slack"].id}, "channel": "C01INCIDENT"},
                    }
                ],
            },
        ),
        ("tch_Em4xV7", "Inbound email triage", {}),
        (
            "tch_Fk7pZ2",
            "Flaky partner sync",
            {"steps": [{"namespace": "sync", "props": {"url": _loopback(core, inbox, "partner-sync")}}]},
        ),
        ("tch_Wr6hN0", "Acknowledge and relay webhooks", {}),
        (
            "tch_3Lm9Qa",
            "Validate refunds",
            {"steps": [{"namespace": "validate", "props": {"required_fields": ["refund_id", "amount"]}}]},
        ),
    ]
    out: dict[str, Workflow] = {}
    for template_id, name, params in plan:
        params = {**params, "template_id": template_id, "settings": {"name": name, "auto_deploy": True}}
        workflow = operations.create_workflow(core, info.user_id, acme, params)
        out[name] = workflow
    out["Validate refunds"].active = False
    orders = out[ORDER_WORKFLOW]
    info.order_workflow_id = orders.id
    info.order_endpoint_key = next(t.endpoint_key for t in orders.triggers if t.kind == "http")
    return out


def _routing(core: Core, info: DemoInfo, sources: dict[str, Source], workflows: dict[str, Workflow], acme: str) -> None:
    uid = info.user_id
    orgs = tuple(core.store.users[uid].org_ids)
    inbox = sources["Webhook inbox"]
    relay = operations.create_webhook(
        core,
        uid,
        acme,
        _loopback(core, inbox, "relay"),
        "Relay to inbox",
        "Loops events back into the Webhook inbox source",
    )
    audit = operations.create_webhook(
        core, uid, acme, _loopback(core, inbox, "errors"), "Error audit", "Every workflow error, for the audit log"
    )
    operations.create_webhook(
        core,
        uid,
        acme,
        "https://hooks.slack.example/services/T04B1N2KX/B06QJ7R2M1L/9fQk2LxVb7TzR1mWc3YhN8sD",
        "Slack #alerts",
        None,
    )
    operations.create_webhook(
        core, uid, acme, "https://ops.acme.example:8443/pd/events", "Ops intake", "Not wired to any emitter yet"
    )
    sub = operations.create_subscription
    sub(core, uid, orgs, acme, sources[ORDER_WEBHOOKS].id, workflows["Acknowledge and relay webhooks"].id, None)
    sub(core, uid, orgs, acme, sources["Stripe payments"].id, relay.id, None)
    sub(core, uid, orgs, acme, workflows[ORDER_WORKFLOW].id, relay.id, None)
    sub(core, uid, orgs, acme, "p_*", audit.id, "$errors")
    sub(
        core,
        uid,
        orgs,
        acme,
        workflows["Flaky partner sync"].id,
        workflows["Acknowledge and relay webhooks"].id,
        "$errors",
    )
    sub(core, uid, orgs, acme, sources["Messages in #incidents"].id, sources["Sandbox endpoint"].id, None)
    sub(core, uid, orgs, acme, sources["Heartbeat every 5 minutes"].id, relay.id, "$logs")


_FIRST = [
    "ada",
    "bo",
    "cyd",
    "dee",
    "eli",
    "fay",
    "gus",
    "hal",
    "ivy",
    "jo",
    "kai",
    "lu",
    "max",
    "nia",
    "oz",
    "pia",
    "quin",
    "rae",
    "sam",
    "tey",
]
_CONNECT_APPS = [
    "slack",
    "google_sheets",
    "github",
    "notion",
    "hubspot",
    "stripe",
    "airtable",
    "gmail",
    "openai",
    "zendesk",
]


def _connect(core: Core, info: DemoInfo, rng: random.Random) -> None:
    project = core.store.projects[info.project_id]
    for env, count in (("production", 46), ("development", 14)):
        for n in range(count):
            external = _external_id(rng, n, env)
            created = core.store.clock.now_ms() - rng.randint(1, 300) * DAY_MS
            core.store.end_users[(project.id, env, external)] = EndUser(project.id, env, external, created)
            for slug in rng.sample(_CONNECT_APPS, rng.choice([1, 1, 2, 2, 3])):
                account = _account(
                    core,
                    slug,
                    project.org_id,
                    info.user_id,
                    rng,
                    name=None if rng.random() < 0.6 else f"{external}'s {slug}",
                    age_days=rng.randint(1, 200),
                    external_id=external,
                    project_id=project.id,
                    environment=env,
                )
                if rng.random() < 0.12:
                    account.healthy = False
                    account.error = "invalid_grant: token has been expired or revoked"
                    account.dead = rng.random() < 0.5


def _external_id(rng: random.Random, n: int, env: str) -> str:
    kind = n % 3
    if kind == 0:
        return f"{_FIRST[n % len(_FIRST)]}.{n}@customers.example"
    if kind == 1:
        return f"cus_{rng.randint(10**8, 10**9 - 1)}"
    return f"{'dev' if env == 'development' else 'user'}-{n:05d}"


def _history(core: Core, sources: dict[str, Source], rng: random.Random, *, until_ms: int) -> None:
    """Two hours of events already there, as on a workspace that has been running a while."""
    clock = core.store.clock
    for minute in range(0, HISTORY_MS // 60_000, 4):
        clock.set(until_ms - HISTORY_MS + minute * 60_000)
        for event in activity_requests(core.store, rng):
            run_sync(core.runtime.handle_endpoint(*event))
        for name in (
            "Heartbeat every 5 minutes",
            "New issues in acme/api",
            "Messages in #incidents",
            "New signups (postgres)",
            "Orders sheet",
        ):
            source = sources[name]
            if source.active:
                run_sync(core.runtime.fire_source_timer(source))
    clock.set(until_ms)
    for source in sources.values():
        core.runtime.schedule_source(source)


def _scale(core: Core, info: DemoInfo, count: int) -> None:
    """`--scale N`: N more timer sources, for load tests."""
    comp = core.store.registry_component("schedule-every-interval")
    assert comp is not None
    props = operations.check_props(core, comp, {"timer": {"intervalSeconds": 3600}})
    now = core.store.clock.now_s()
    for n in range(count):
        source = Source(
            id=core.store.ids.new("dc_"),
            owner_id=info.user_id,
            org_id=info.org_id,
            component_id=comp.id,
            name=f"Load source {n:05d}",
            name_slug=f"load_source_{n:05d}",
            configured_props=dict(props),
            active=True,
            created_at=now,
            updated_at=now,
        )
        core.store.sources[source.id] = source
        core.runtime.schedule_source(source)  # active timers: they fire when due, as the demo's do
