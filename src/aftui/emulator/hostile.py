"""The hostile data set: what a compromised or careless upstream could put in front of aftui.

Planted on top of the demo (`POST /_emulator/hostile`, `aftui demo --hostile`,
`aftui emulator --hostile`) into the demo user's workspace: a source, its
events, a webhook, a workflow's `$errors`, an app of the catalogue and a
Connect end user's account, each carrying every sample below in the fields
aftui shows (names, descriptions, payloads, error stacks, account fields).
A client that renders any of it as markup or lets an escape sequence through
to the terminal is caught by `tests/hostile/`.
"""

from __future__ import annotations

from typing import Any

from . import operations
from .core import Core
from .demo import DemoInfo
from .raw import RawJson
from .store import Account, EndUser, Source, Webhook

# One of each kind of trouble. The markers (PWNED, EVIL...) are what the tests look for in the terminal's bytes.
SAMPLES: dict[str, str] = {
    "markup": "[bold red]MARKUP-BOLD[/] [link=https://evil.example/markup]MARKUP-LINK[/link] [/] [@click=app.quit]MARKUP-CLICK[/]",
    "ansi_csi": "\x1b[31mCSI-RED\x1b[0m \x1b[2J\x1b[1;1HCSI-HOME \x1b[?1049l\x1b[5A",
    "osc_title": "\x1b]0;PWNED-TITLE\x07 and \x1b]2;PWNED-TITLE2\x1b\\",
    "osc52": "\x1b]52;c;UFdORUQtQ0xJUEJPQVJE\x07",
    "osc8": "\x1b]8;;https://evil.example/osc8\x1b\\OSC8-LINK\x1b]8;;\x1b\\",
    "controls": "nul\x00 bell\x07 bs\x08 vt\x0b ff\x0c cr\rCR-OVERWRITE del\x7f c1-csi\x9b31mC1-RED",
    "bidi": "invoice\u202egpj.exe\u202c \u2067RTL-ISOLATE\u2069 \u200fmark",
    "zero_width": "pay\u200bpal\u200d-ZW\ufeff\u2060",
}
# Every sample in one string, for fields that hold one value (names, descriptions).
ALL_IN_ONE = " | ".join(SAMPLES.values())
BIG = 10 * 1024 * 1024
DEEP = 10_000
BIG_TEXT = "HUGE-" + "x" * (BIG - 10) + "-END"


def deep_document(depth: int = DEEP) -> RawJson:
    """An object nested `depth` levels, which Python's json cannot write."""
    return RawJson(('{"deep":' * depth + '"DEEP-BOTTOM"' + "}" * depth).encode())


def invalid_utf8_document() -> RawJson:
    """A payload whose strings hold bytes that are not UTF-8 (and an overlong encoding of '/')."""
    return RawJson(b'{"kind":"invalid_utf8","text":"bad \xff\xfe bytes \xc0\xaf and \xed\xa0\x80 INVALID-UTF8"}')


def plant(core: Core, info: DemoInfo) -> dict[str, Any]:
    """Add the hostile records to the workspace of the demo's user (`info`); returns their ids."""
    store, runtime = core.store, core.runtime
    owner, org = info.user_id, info.org_id
    now_s, now_ms = store.clock.now_s(), store.clock.now_ms()

    source = _source(core, owner, org)
    for kind, text in SAMPLES.items():
        runtime.emit(source.id, {"kind": kind, "text": text, "nested": {kind: text, "list": [text]}})
    runtime.emit(source.id, {"kind": "big", "text": BIG_TEXT})
    runtime.emit(source.id, deep_document())
    runtime.emit(source.id, invalid_utf8_document())

    webhook = Webhook(
        id=store.ids.new("wh_"),
        user_id=owner,
        org_id=org,
        name=ALL_IN_ONE,
        description=ALL_IN_ONE + "\n" + BIG_TEXT[:100_000],
        url="https://hooks.example.com/[bold]PWNED[/]",
        active=True,
        created_at=now_s,
        updated_at=now_s,
    )
    store.webhooks[webhook.id] = webhook

    workflow_id = info.order_workflow_id
    if workflow_id:
        for kind, text in SAMPLES.items():
            runtime.emit(workflow_id, _error(kind, text), "$errors")
        runtime.emit(workflow_id, _error("big", BIG_TEXT), "$errors")

    app = dict(next(iter(store.apps.values())))
    app.update(id="app_h0st1e", name_slug="hostile_app", name=ALL_IN_ONE, description=ALL_IN_ONE)
    store.apps[app["id"]] = app

    account = _connect_account(core, info, app["id"], now_ms)
    return {
        "source_id": source.id,
        "webhook_id": webhook.id,
        "workflow_id": workflow_id,
        "app_id": app["id"],
        "account_id": account.id,
        "external_user_id": account.external_id,
    }


def _source(core: Core, owner: str, org: str) -> Source:
    component = core.store.registry_component("http-new-requests")
    assert component is not None
    source = operations.deploy_source(core, owner, org, component, "hostile-source", {})
    source.name = ALL_IN_ONE  # past the API's own checks, as a compromised upstream would
    source.configured_props = {**source.configured_props, **{f"p_{kind}": text for kind, text in SAMPLES.items()}}
    return source


def _error(kind: str, text: str) -> dict[str, Any]:
    return {
        "original_event": {
            "kind": kind,
            "body": {"customer": {"name": text}},
            "method": "POST",
            "path": "/",
            "headers": {"x-evil": text},
        },
        "original_context": {"id": f"ctx-{kind}", "workflow_name": text, "trigger": text},
        "error": {
            "code": "Error",
            "msg": text,
            "cellId": "c_h0st1e",
            "ts": "2026-11-01T09:00:00.000Z",
            "stack": f"Error: {text}\n    at run ({text})",
        },
    }


def _connect_account(core: Core, info: DemoInfo, app_id: str, now_ms: int) -> Account:
    store, org = core.store, info.org_id
    external = "user-" + SAMPLES["markup"] + SAMPLES["ansi_csi"]
    store.end_users[(info.project_id, "production", external)] = EndUser(
        info.project_id, "production", external, now_ms
    )
    account = Account(
        id=store.ids.new("apn_"),
        app_id=app_id,
        name=ALL_IN_ONE,
        org_id=org,
        owner_id=info.user_id,
        created_at_ms=now_ms,
        updated_at_ms=now_ms,
        credentials=dict(SAMPLES),
        expires_at_ms=None,
        external_id=external,
        project_id=info.project_id,
        environment="production",
        error=ALL_IN_ONE,
    )
    store.accounts[account.id] = account
    return account
