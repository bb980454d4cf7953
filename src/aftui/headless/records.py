"""The stable records of `--json`: one schema per resource, the same keys in the same order on every line.

A record is built from the service's answer but is aftui's own shape: it
does not change when the service adds a field, times are ISO 8601 in UTC
(`2026-11-01T09:00:00.000Z`), and a value the service did not send is
`null`, never a missing key. docs/headless.md documents every field; a
test holds the two together. `--fields` picks among these keys, for the
table and for `--json` alike.
"""

from __future__ import annotations

from typing import Any

from ..api.models import Account, App, Component, Source, Subscription, Webhook, Workflow
from ..connect import EndUser
from ..masking import url_secrets_masked
from .output import iso

__all__ = [
    "account_record",
    "app_record",
    "component_record",
    "end_user_record",
    "source_record",
    "subscription_record",
    "webhook_record",
    "workflow_record",
]


def _interface(source: Source) -> str | None:
    if source.endpoint_url:
        return "http"
    for value in source.configured_props.values():
        if isinstance(value, dict) and ("interval_seconds" in value or "cron" in value or "intervalSeconds" in value):
            return "timer"
    return None


def source_record(source: Source) -> dict[str, Any]:
    return {
        "kind": "source",
        "id": source.id,
        "name": source.name,
        "name_slug": source.name_slug,
        "active": source.active,
        "interface": _interface(source),
        "endpoint_url": source.endpoint_url,
        "component_id": source.component_id,
        "created_at": iso(source.created_at),
        "updated_at": iso(source.updated_at),
        "configured_props": source.configured_props,
    }


def workflow_record(
    workflow_id: str,
    workflow: Workflow | None,
    *,
    name: str | None = None,
    found: str | None = None,
    problem: str | None = None,
) -> dict[str, Any]:
    """A workflow aftui knows: what GET /workflows/{id} said, or the remembered name and why it could not be read."""
    triggers = [
        {
            "id": t.id,
            "kind": t.kind,
            "endpoint_url": t.endpoint_url,
            "interval_seconds": t.interval_seconds,
            "cron": t.cron,
            "email_address": t.email_address,
        }
        for t in (workflow.triggers if workflow else [])
    ]
    return {
        "kind": "workflow",
        "id": workflow_id,
        "name": (workflow.name if workflow else None) or name,
        "active": workflow.active if workflow else None,
        "triggers": triggers if workflow else None,
        "steps": [s.namespace for s in workflow.steps] if workflow else None,
        "found": found,
        "problem": problem,
    }


def webhook_record(webhook: Webhook, *, show_secrets: bool = False) -> dict[str, Any]:
    """The webhook's record, its URL's tokens masked unless `show_secrets` (the URL is the credential)."""
    return {
        "kind": "webhook",
        "id": webhook.id,
        "name": webhook.name,
        "description": webhook.description,
        "url": webhook.url if show_secrets else url_secrets_masked(webhook.url),
        "active": webhook.active,
        "created_at": iso(webhook.created_at),
        "updated_at": iso(webhook.updated_at),
    }


def subscription_record(sub: Subscription, names: dict[str, str]) -> dict[str, Any]:
    return {
        "kind": "subscription",
        "id": sub.id,
        "emitter_id": sub.emitter_id,
        "emitter_name": names.get(sub.emitter_id),
        "listener_id": sub.listener_id,
        "listener_name": names.get(sub.listener_id),
        "event_name": sub.event_name or "",
    }


def account_record(account: Account) -> dict[str, Any]:
    app = account.app
    return {
        "kind": "account",
        "id": account.id,
        "name": account.name,
        "app_id": app.id if app else None,
        "app_name": app.name if app else None,
        "app_slug": app.name_slug if app else None,
        "healthy": account.healthy,
        "dead": account.dead,
        "external_id": account.external_id,
        "created_at": iso(account.created_at),
        "updated_at": iso(account.updated_at),
    }


def end_user_record(user: EndUser) -> dict[str, Any]:
    return {
        "kind": "end_user",
        "external_id": user.external_id,
        "accounts": user.count,
        "healthy": user.healthy,
        "dead": user.dead,
        "apps": user.apps,
    }


def component_record(component: Component, key: str | None = None) -> dict[str, Any]:
    return {
        "kind": "component",
        "key": component.key or key,
        "id": component.id,
        "name": component.name,
        "version": component.version,
        "type": component.type or "source",
        "description": component.description,
        "props": [p.name for p in component.configurable_props],
    }


def app_record(app: App) -> dict[str, Any]:
    return {
        "kind": "app",
        "id": app.id,
        "name_slug": app.name_slug,
        "name": app.name,
        "auth_type": app.auth_type,
        "categories": app.categories,
        "description": app.description,
    }
