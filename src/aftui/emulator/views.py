"""How each record looks on the wire, with the timestamp types of the spec.

Accounts carry ISO 8601 strings; components, sources, webhooks, workflows
and triggers carry integer epoch seconds.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from .store import Account, Component, Org, Source, Step, Store, Subscription, Trigger, User, Webhook, Workflow


def iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def user(u: User, store: Store) -> dict[str, Any]:
    data: dict[str, Any] = {"id": u.id, "username": u.username, "email": u.email}
    if u.plan == "paid":
        data.update(
            billing_period_start_ts=u.billing_period_start_ts,
            billing_period_end_ts=u.billing_period_end_ts,
            billing_period_credits=u.billing_period_credits,
        )
    else:
        data.update(
            daily_compute_time_quota=u.daily_compute_time_quota,
            daily_compute_time_used=u.daily_compute_time_used,
            daily_invocations_quota=u.daily_invocations_quota,
            daily_invocations_used=u.daily_invocations_used,
        )
    data["orgs"] = [org(store.orgs[o]) for o in u.org_ids]
    return data


def org(o: Org) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": o.name,
        "id": o.id,
        "orgname": o.orgname,
        "email": o.email,
        "daily_credits_quota": o.daily_credits_quota,
        "daily_credits_used": o.daily_credits_used,
    }
    for field in (
        "daily_compute_time_quota",
        "daily_compute_time_used",
        "daily_invocations_quota",
        "daily_invocations_used",
    ):
        value = getattr(o, field)
        if value is not None:
            data[field] = value
    return data


def account(a: Account, store: Store, *, credentials: bool = False, full_app: bool = False) -> dict[str, Any]:
    app = store.apps[a.app_id]
    data: dict[str, Any] = {
        "id": a.id,
        "name": a.name,
        "app": dict(app) if full_app else {"id": app["id"], "name": app["name"]},
        "healthy": a.healthy,
        "created_at": iso(a.created_at_ms),
        "updated_at": iso(a.updated_at_ms),
    }
    if a.external_id is not None:
        data["external_id"] = a.external_id
        data["dead"] = a.dead
    if credentials:
        data["credentials"] = dict(a.credentials)
        data["expires_at"] = iso(a.expires_at_ms)
        if a.project_id is not None:
            data.update(
                project_id=_project_number(a.project_id),
                user_id=a.external_id,
                error=a.error,
                last_refreshed_at=iso(a.last_refreshed_at_ms),
                next_refresh_at=iso(a.next_refresh_at_ms),
            )
    return data


def _project_number(project_id: str) -> int:
    """The spec gives `project_id` on a credentialed Connect account as an integer."""
    return int.from_bytes(project_id.encode(), "big") % 10_000_000


def component(c: Component) -> dict[str, Any]:
    return {
        "id": c.id,
        "code": c.code,
        "code_hash": c.code_hash,
        "name": c.meta.name,
        "key": c.meta.key,
        "version": c.meta.version,
        "type": c.meta.type,
        "description": c.meta.description,
        "configurable_props": [dict(p) for p in c.meta.props],
        "component_url": c.component_url,
        "created_at": c.created_at,
        "updated_at": c.updated_at,
    }


def source(s: Source, store: Store, root_url: str) -> dict[str, Any]:
    return {
        "id": s.id,
        "user_id": s.owner_id,
        "component_id": s.component_id,
        "configured_props": configured_props(s, root_url),
        "active": s.active,
        "created_at": s.created_at,
        "updated_at": s.updated_at,
        "name": s.name,
        "name_slug": s.name_slug,
    }


def configured_props(s: Source, root_url: str) -> dict[str, Any]:
    props = dict(s.configured_props)
    for name, value in props.items():
        if isinstance(value, dict) and "endpoint_url" in value:
            props[name] = {**value, "endpoint_url": endpoint_url(root_url, s.endpoint_key)}
    return props


def endpoint_url(root_url: str, key: str | None) -> str | None:
    return f"{root_url}/e/{key}" if key else None


def webhook(w: Webhook) -> dict[str, Any]:
    return {
        "id": w.id,
        "user_id": w.user_id,
        "name": w.name,
        "description": w.description,
        "url": w.url,
        "active": w.active,
        "created_at": w.created_at,
        "updated_at": w.updated_at,
    }


def subscription(s: Subscription) -> dict[str, Any]:
    return {"id": s.id, "emitter_id": s.emitter_id, "listener_id": s.listener_id, "event_name": s.event_name}


def trigger(t: Trigger, store: Store, root_url: str) -> dict[str, Any]:
    base = {"id": t.id, "created_at": t.created_at, "updated_at": t.updated_at}
    if t.kind == "http":
        return {
            **base,
            "key": t.endpoint_key,
            "endpoint_url": endpoint_url(root_url, t.endpoint_key),
            "custom_response": t.custom_response,
        }
    if t.kind == "timer":
        return {
            **base,
            "interval_seconds": t.interval_seconds,
            "cron": t.cron,
            "timezone": t.timezone,
            "schedule_changed_at": t.schedule_changed_at,
        }
    if t.kind == "email":
        return {**base, "email_address": t.email_address}
    src = store.sources[t.source_id or ""]
    comp = store.components[src.component_id]
    data = source(src, store, root_url)
    data["owner_id"] = data.pop("user_id")
    data["configurable_props"] = [dict(p) for p in comp.meta.props]
    return data


def step(s: Any, store: Store) -> dict[str, Any]:
    comp = store.components[s.component_id]
    meta = comp.meta
    apps = [p["app"] for p in meta.props if p.get("type") == "app" and p.get("app")]
    auth_ids = {
        name: value["authProvisionId"]
        for name, value in s.configured_props.items()
        if isinstance(value, dict) and "authProvisionId" in value
    }
    return {
        "id": s.id,
        "type": "CodeCell",
        "namespace": s.namespace,
        "disabled": s.disabled,
        "lang": "nodejs20.x",
        "component": True,
        "component_key": meta.key,
        "component_owner_id": comp.owner_id,
        "savedComponent": {
            "id": comp.id,
            "code": comp.code,
            "codeHash": comp.code_hash,
            "configurableProps": [dict(p) for p in meta.props],
            "key": meta.key,
            "description": meta.description,
            "entryPath": None,
            "version": meta.version,
            "apps": [_step_app(store, slug) for slug in apps],
        },
        "configured_props_json": json.dumps(s.configured_props),
        "params_json": "{}",
        "authProvisionIdMap": auth_ids,
        "authProvisionIds": sorted(set(auth_ids.values())),
        "appConnections": [],
        "code_raw": None,
        "codeRaw": None,
        "codeConfigJson": None,
        "text_raw": None,
        "flat_params_visibility_json": None,
    }


def _step_app(store: Store, slug: str) -> dict[str, Any]:
    app = store.app(slug)
    return {"appId": app["id"] if app else None, "nameSlug": slug, "authType": app["auth_type"] if app else None}


def workflow(w: Workflow, store: Store, root_url: str) -> dict[str, Any]:
    return {
        "id": w.id,
        "name": w.name,
        "active": w.active,
        "created_at": w.created_at,
        "updated_at": w.updated_at,
        "triggers": [trigger(t, store, root_url) for t in w.triggers],
        "steps": [step(s, store) for s in w.steps],
    }


def template(t: dict[str, Any], store: Store) -> dict[str, Any]:
    """A template (`tch_`) in the workflow shape: the spec finds a template's props in the
    configurable props of its triggers and steps "as returned by GET /workflows/{id}".
    Nothing is deployed, so trigger and step ids are derived from the template's id,
    HTTP and email triggers have no endpoint or address yet, and values are the template's."""
    suffix = t["id"].removeprefix("tch_")
    triggers = [_template_trigger(spec, f"{suffix}{i}", store) for i, spec in enumerate(t["triggers"])]
    steps = [
        step(Step(f"c_{suffix}{i}", spec["namespace"], comp.id, dict(spec.get("props", {}))), store)
        for i, spec in enumerate(t["steps"])
        if (comp := store.registry_component(spec["component_key"])) is not None
    ]
    return {"id": t["id"], "name": t["name"], "description": t.get("description"), "triggers": triggers, "steps": steps}


def _template_trigger(spec: dict[str, Any], suffix: str, store: Store) -> dict[str, Any]:
    times = {"created_at": None, "updated_at": None}
    kind = spec["kind"]
    if kind == "http":
        custom = bool(spec.get("custom_response", False))
        prop = {"name": "custom_response", "type": "boolean", "optional": True, "default": custom}
        return {
            "id": f"hi_{suffix}",
            "key": None,
            "endpoint_url": None,
            "custom_response": custom,
            **times,
            "configurable_props": [prop],
        }
    if kind == "timer":
        default = (
            {"cron": spec["cron"]} if spec.get("cron") else {"intervalSeconds": spec.get("interval_seconds", 3600)}
        )
        return {
            "id": f"ti_{suffix}",
            "interval_seconds": spec.get("interval_seconds"),
            "cron": spec.get("cron"),
            "timezone": spec.get("timezone") or "UTC",
            "schedule_changed_at": None,
            **times,
            "configurable_props": [{"name": "timer", "type": "$.interface.timer", "default": default}],
        }
    if kind == "email":
        return {"id": f"ei_{suffix}", "email_address": None, **times, "configurable_props": []}
    comp = store.registry_component(spec["component_key"])
    meta = comp.meta if comp is not None else None
    return {
        "id": f"dc_{suffix}",
        "owner_id": None,
        "component_id": comp.id if comp is not None else None,
        "configured_props": dict(spec.get("props", {})),
        "active": None,
        "name": meta.name if meta else spec["component_key"],
        "name_slug": meta.key if meta else spec["component_key"],
        **times,
        "configurable_props": [dict(p) for p in meta.props] if meta else [],
    }
