"""The changes the API can make, shared by the routes and the demo data.

Each function checks what the service checks, changes the store and tells
the runtime, so that the demo is built through the same doors as a client.
"""

from __future__ import annotations

import functools
import re
from typing import Any
from urllib.parse import urlsplit

from .component_code import ComponentCodeError, ComponentMeta, parse_component
from .core import Core
from .errors import ApiProblem, bad_request, not_found
from .ids import parse_event_id
from .props import PropError, normalize_timer, validate_configured_props
from .registry_read import shipped_read
from .runtime import code_hash
from .store import AutoSubscription, Component, Source, Step, Subscription, Trigger, Webhook, Workflow

FETCH_TIMEOUT_S = 5.0
MAX_CODE_BYTES = 1024 * 1024


# --- components ----------------------------------------------------------------------


def read_component(code: str) -> ComponentMeta:
    if len(code.encode()) > MAX_CODE_BYTES:
        raise bad_request("component_code is larger than 1 MB", param="component_code")
    try:
        return parse_component(code)
    except ComponentCodeError as err:
        raise ApiProblem(
            400, f"cannot read the component code: {err}", code="invalid_component", details={"param": "component_code"}
        ) from None


@functools.cache
def _registry_meta(code: str) -> ComponentMeta:
    """The registry's code is the same for every emulator of a process: read once, not at every start,
    and not at all when it is the code as shipped (`registry_read.py`).

    Safe to share: nothing changes a ComponentMeta or its props (views copy them).
    Only the catalogue's code comes here (one entry per registry component), never a client's.
    """
    return shipped_read(code) or read_component(code)


def save_component(
    core: Core, owner_id: str | None, org_id: str | None, code: str, url: str | None, *, registry: bool = False
) -> Component:
    meta = _registry_meta(code) if registry else read_component(code)
    now = core.store.clock.now_s()
    comp = Component(
        id=core.store.ids.new("sc_"),
        owner_id=owner_id,
        org_id=org_id,
        code=code,
        code_hash=code_hash(code),
        meta=meta,
        component_url=url,
        created_at=now,
        updated_at=now,
        registry=registry,
    )
    core.store.components[comp.id] = comp
    return comp


async def fetch_code(core: Core, url: str) -> str:
    """The code behind `component_url`.

    The emulator has no network: a URL whose file name is a registry key
    (as in the public components repository) reads the registry's copy;
    anything else is fetched over HTTP, which on this machine reaches only
    loopback servers.
    """
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a port that is not a number from 0 to 65535
    except ValueError:
        raise bad_request(f"component_url is not a valid URL: {url}", param="component_url") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise bad_request("component_url must be an http(s) URL with a hostname", param="component_url")
    stem = re.sub(r"\.(mjs|js|ts)$", "", parts.path.rsplit("/", 1)[-1])
    registry = core.store.registry_component(stem)
    if registry is not None:
        return registry.code
    import httpx  # here: the demo's emulator process imports this module before it serves, and never fetches

    try:
        async with httpx.AsyncClient(timeout=FETCH_TIMEOUT_S) as client:
            response = await client.get(url)
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        raise bad_request(f"could not fetch component_url: {type(exc).__name__}", param="component_url") from None
    if response.status_code != 200:
        raise bad_request(f"could not fetch component_url: HTTP {response.status_code}", param="component_url")
    return response.text


async def component_from_params(core: Core, owner_id: str, org_id: str, params: dict[str, Any]) -> Component:
    """component_id, then component_code, then component_url (kept as metadata when code is given)."""
    comp_id, code, url = params.get("component_id"), params.get("component_code"), params.get("component_url")
    for name, value in (("component_id", comp_id), ("component_code", code), ("component_url", url)):
        if value is not None and not isinstance(value, str):
            raise bad_request(f"{name} must be a string", param=name)
    if comp_id:
        comp = core.store.component_by_key_or_id(comp_id, owner_id)
        if comp is None:
            raise not_found("component", comp_id)
        return comp
    if code:
        return save_component(core, owner_id, org_id, code, url or None)
    if url:
        return save_component(core, owner_id, org_id, await fetch_code(core, url), url)
    key = params.get("key")
    if isinstance(key, str) and key:
        comp = core.store.registry_component(key)
        if comp is None:
            raise not_found("registry component", key)
        return comp
    raise ApiProblem(
        400,
        "one of component_id, component_code or component_url is required",
        code="missing_parameter",
        details={"param": "component_id"},
    )


# --- sources -------------------------------------------------------------------------


def _slugify(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    return slug or "source"


def unique_slug(core: Core, name: str, org_id: str, except_id: str | None = None) -> str:
    base = _slugify(name)
    slug, n = base, 1
    while core.store.slug_taken(slug, org_id, except_id):
        n += 1
        slug = f"{base}_{n}"
    return slug


def check_props(core: Core, comp: Component, configured: Any, where: str = "configured_props") -> dict[str, Any]:
    """A source's props, checked; errors name the prop as the client wrote it (`where`.<name>)."""
    if comp.meta.type != "source":
        raise bad_request(f"component {comp.meta.key or comp.id} is an action, not a source", param="component_id")
    if configured is None:
        configured = {}
    if not isinstance(configured, dict):
        raise bad_request(f"{where} must be an object of values by prop name", param=where)
    return validate_props(core, comp, configured, where)


def validate_props(core: Core, comp: Component, configured: dict[str, Any], where: str) -> dict[str, Any]:
    def account_app(account_id: str) -> str | None:
        account = core.store.accounts.get(account_id)
        return core.store.apps[account.app_id]["name_slug"] if account else None

    try:
        return validate_configured_props(list(comp.meta.props), configured, account_app=account_app)
    except PropError as err:
        param = f"{where}.{err.prop}" if err.prop else where
        raise bad_request(f"{param}: {err.message}", param=param) from None


def deploy_source(
    core: Core,
    owner_id: str,
    org_id: str,
    comp: Component,
    name: str | None,
    configured: Any,
    where: str = "configured_props",
) -> Source:
    props = check_props(core, comp, configured, where)
    now = core.store.clock.now_s()
    display = name or _slugify(comp.meta.name)
    source = Source(
        id=core.store.ids.new("dc_"),
        owner_id=owner_id,
        org_id=org_id,
        component_id=comp.id,
        name=display,
        name_slug=unique_slug(core, display, org_id),
        configured_props=props,
        active=True,
        created_at=now,
        updated_at=now,
    )
    _give_endpoint(core, source)
    core.store.sources[source.id] = source
    core.runtime.run_hooks(source, ("deploy", "activate"))
    core.runtime.schedule_source(source)
    apply_auto_subscriptions(core, source.id, org_id, source.seq)
    return source


def _give_endpoint(core: Core, source: Source) -> None:
    has_http = any(isinstance(v, dict) and "endpoint_url" in v for v in source.configured_props.values())
    if has_http and source.endpoint_key is None:
        source.endpoint_key = core.store.ids.new("en", 14).lower()
        core.store.endpoints[source.endpoint_key] = source.id
    elif not has_http and source.endpoint_key is not None:
        core.store.endpoints.pop(source.endpoint_key, None)
        source.endpoint_key = None


def update_source(
    core: Core, source: Source, comp: Component | None, name: str | None, configured: Any, active: bool | None
) -> Source:
    """deactivate() runs, then code and props are replaced, then activate() runs."""
    new_comp = comp or core.store.components[source.component_id]
    changes_code = comp is not None or configured is not None
    props = (
        check_props(core, new_comp, configured if configured is not None else _reconfigurable(source))
        if changes_code
        else None
    )
    if changes_code:
        core.runtime.run_hooks(source, ("deactivate",))
        source.component_id = new_comp.id
        source.configured_props = props or {}
        _give_endpoint(core, source)
        core.runtime.run_hooks(source, ("activate",))
    if name is not None and name != source.name:
        source.name = name
        source.name_slug = unique_slug(core, name, source.org_id, except_id=source.id)
    if active is not None and active != source.active:
        source.active = active
        core.runtime.run_hooks(source, ("activate",) if active else ("deactivate",))
    source.updated_at = core.store.clock.now_s()
    core.runtime.schedule_source(source)
    return source


def _reconfigurable(source: Source) -> dict[str, Any]:
    """Stored props in the form a client sends them (timers back to intervalSeconds/cron)."""
    out: dict[str, Any] = {}
    for name, value in source.configured_props.items():
        if isinstance(value, dict) and "endpoint_url" in value:
            continue
        out[name] = value
    return out


def delete_source(core: Core, source: Source) -> None:
    core.runtime.run_hooks(source, ("deactivate",))
    core.runtime.drop_streams(source.id)
    if source.endpoint_key:
        core.store.endpoints.pop(source.endpoint_key, None)
    del core.store.sources[source.id]
    core.store.event_logs.pop(source.id, None)
    _forget_subscriptions(core, source.id)
    # A workflow it triggered loses that trigger (the spec does not say; the workflow is still read whole, where
    # the emulator answered 500 for the source it could not find).
    for workflow in core.store.workflows.values():
        workflow.triggers = [t for t in workflow.triggers if t.source_id != source.id]


def _forget_subscriptions(core: Core, resource_id: str) -> None:
    subs = core.store.subscriptions
    for sub_id in [s.id for s in subs.values() if resource_id in (s.emitter_id, s.listener_id)]:
        del subs[sub_id]
    core.runtime.subscriptions_changed()


# --- subscriptions and webhooks ----------------------------------------------------------

SPECIAL_CHANNELS = ("$errors", "$logs")


def check_webhook_url(url: Any) -> str:
    """http or https, with a hostname; port and path allowed; nothing else."""
    if not isinstance(url, str) or not url:
        raise ApiProblem(400, "url is required", code="missing_parameter", details={"param": "url"})
    if any(c.isspace() or not c.isprintable() for c in url):
        # urlsplit would quietly strip a leading " " and keep "exa mple.com" as a hostname
        raise bad_request("url must not contain spaces or control characters", param="url")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise bad_request(f"url is not a valid URL: {url}", param="url") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise bad_request("url must use the http or https protocol", param="url")
    if not parts.hostname:
        raise bad_request("url must include a hostname", param="url")
    return url


def create_webhook(
    core: Core, owner_id: str, org_id: str, url: Any, name: str | None, description: str | None
) -> Webhook:
    now = core.store.clock.now_s()
    webhook = Webhook(
        id=core.store.ids.new("wh_"),
        user_id=owner_id,
        org_id=org_id,
        name=name,
        description=description,
        url=check_webhook_url(url),
        active=True,
        created_at=now,
        updated_at=now,
    )
    core.store.webhooks[webhook.id] = webhook
    return webhook


def delete_webhook(core: Core, webhook: Webhook) -> None:
    del core.store.webhooks[webhook.id]
    _forget_subscriptions(core, webhook.id)


def org_of(core: Core, resource_id: str) -> str | None:
    store = core.store
    for table in (store.sources, store.workflows, store.webhooks):
        record = table.get(resource_id)
        if record is not None:
            return record.org_id
    return None


def create_subscription(
    core: Core,
    owner_id: str,
    visible_orgs: tuple[str, ...],
    org_id: str,
    emitter_id: Any,
    listener_id: Any,
    event_name: Any,
) -> Subscription:
    emitter = _id_param(emitter_id, "emitter_id")
    listener = _id_param(listener_id, "listener_id")
    if event_name is not None and not isinstance(event_name, str):
        raise bad_request("event_name must be a string", param="event_name")
    if emitter not in ("p_*", "dc_*"):
        if not emitter.startswith(("p_", "dc_")):
            raise bad_request(
                "emitter_id must be a source (dc_) or workflow (p_) id, or the glob p_* or dc_*", param="emitter_id"
            )
        emitter_org = org_of(core, emitter)
        if emitter_org not in visible_orgs:
            raise not_found("emitter", emitter)
        org_id = emitter_org
    if not listener.startswith(("p_", "dc_", "wh_")):
        raise bad_request("listener_id must be a workflow (p_), source (dc_) or webhook (wh_) id", param="listener_id")
    if org_of(core, listener) not in visible_orgs:
        raise not_found("listener", listener)
    channel = event_name or ""
    existing = next(
        (
            s
            for s in core.store.subscriptions.values()
            if (s.emitter_id, s.listener_id, s.event_name) == (emitter, listener, channel)
        ),
        None,
    )
    if existing is not None:
        return existing
    sub = Subscription(core.store.ids.new("sub_"), emitter, listener, channel, owner_id, org_id)
    core.store.subscriptions[sub.id] = sub
    core.runtime.subscriptions_changed()
    return sub


def _id_param(value: Any, name: str) -> str:
    if value is None or value == "":
        raise ApiProblem(400, f"{name} is required", code="missing_parameter", details={"param": name})
    if not isinstance(value, str):
        raise bad_request(f"{name} must be a string", param=name)
    return value


def delete_subscription(core: Core, visible_orgs: tuple[str, ...], params: dict[str, Any]) -> int:
    emitter = _id_param(params.get("emitter_id"), "emitter_id")
    listener = _id_param(params.get("listener_id"), "listener_id")
    if "event_name" not in params:
        raise ApiProblem(
            400,
            "event_name is required; pass event_name= (empty) for a subscription without an event name",
            code="missing_parameter",
            details={"param": "event_name"},
        )
    channel = params.get("event_name") or ""
    doomed = [
        s.id
        for s in core.store.subscriptions.values()
        if (s.emitter_id, s.listener_id, s.event_name) == (emitter, listener, channel) and s.org_id in visible_orgs
    ]
    if not doomed:
        raise ApiProblem(
            404, f"no subscription from {emitter} to {listener} on {channel or 'the default channel'}", code="not_found"
        )
    for sub_id in doomed:
        del core.store.subscriptions[sub_id]
    core.runtime.subscriptions_changed()
    return len(doomed)


def create_auto_subscription(
    core: Core, owner_id: str, org_id: str | None, visible_orgs: tuple[str, ...], event_name: Any, listener_id: Any
) -> AutoSubscription:
    """Subscribe `listener_id` to what is created later in `org_id`, by default the listener's workspace."""
    if event_name in (None, ""):
        raise ApiProblem(
            400, "event_name is required ($errors or $logs)", code="missing_parameter", details={"param": "event_name"}
        )
    if event_name not in SPECIAL_CHANNELS:
        raise bad_request("event_name must be $errors or $logs", param="event_name")
    listener = _id_param(listener_id, "listener_id")
    listener_org = org_of(core, listener)
    if listener_org is None or listener_org not in visible_orgs:
        raise not_found("listener", listener)
    auto = AutoSubscription(core.store.ids.new("asub_"), str(event_name), listener, owner_id, org_id or listener_org)
    core.store.auto_subscriptions[auto.id] = auto
    return auto


def apply_auto_subscriptions(core: Core, emitter_id: str, org_id: str, created_seq: int) -> None:
    """Auto-subscriptions reach only emitters created after them."""
    for auto in list(core.store.auto_subscriptions.values()):
        if auto.org_id == org_id and auto.created_seq < created_seq and auto.listener_id != emitter_id:
            sub = Subscription(
                core.store.ids.new("sub_"), emitter_id, auto.listener_id, auto.event_name, auto.owner_id, org_id
            )
            core.store.subscriptions[sub.id] = sub
    core.runtime.subscriptions_changed()


# --- workflows ---------------------------------------------------------------------------


def create_workflow(core: Core, owner_id: str, org_id: str, params: dict[str, Any]) -> Workflow:
    template_id = params.get("template_id")
    if not template_id:
        raise ApiProblem(400, "template_id is required", code="missing_parameter", details={"param": "template_id"})
    if not isinstance(template_id, str) or not template_id.startswith("tch_"):
        raise bad_request("template_id must be a workflow template id (tch_...)", param="template_id")
    template = core.store.templates.get(template_id)
    if template is None:
        raise not_found("workflow template", template_id)
    project_id = params.get("project_id")
    if project_id is not None and (not isinstance(project_id, str) or not project_id.startswith("proj_")):
        raise bad_request("project_id must be a project id (proj_...)", param="project_id")
    settings = _settings(params.get("settings"))
    step_props = _step_props(params.get("steps"), template)
    trigger_props = _trigger_props(params.get("triggers"), template)
    now = core.store.clock.now_s()
    workflow = Workflow(
        id=core.store.ids.new("p_"),
        name=settings.get("name") or template["name"],
        owner_id=owner_id,
        org_id=org_id,
        project_id=project_id,
        template_id=template_id,
        active=bool(settings.get("auto_deploy", False)),
        triggers=[],
        steps=[],
        created_at=now,
        updated_at=now,
        deployment_id=core.store.ids.new("d_", 8),
    )
    workflow.steps = [_make_step(core, spec, step_props.get(spec["namespace"], {})) for spec in template["steps"]]
    workflow.triggers = [
        _make_trigger(core, owner_id, org_id, spec, trigger_props.get(i, {}), workflow, i)
        for i, spec in enumerate(template["triggers"])
    ]
    core.store.workflows[workflow.id] = workflow
    apply_auto_subscriptions(core, workflow.id, org_id, workflow.seq)
    return workflow


def _settings(raw: Any) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise bad_request("settings must be an object with name and auto_deploy", param="settings")
    if "name" in raw and not isinstance(raw["name"], str):
        raise bad_request("settings.name must be a string", param="settings.name")
    if "auto_deploy" in raw and not isinstance(raw["auto_deploy"], bool):
        raise bad_request("settings.auto_deploy must be a boolean", param="settings.auto_deploy")
    return raw


def _step_props(raw: Any, template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Steps are addressed by namespace."""
    if raw is None:
        return {}
    if not isinstance(raw, list):
        raise bad_request("steps must be an array of {namespace, props}", param="steps")
    namespaces = {s["namespace"] for s in template["steps"]}
    out: dict[str, dict[str, Any]] = {}
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or not isinstance(item.get("namespace"), str):
            raise bad_request(f"steps[{i}] must be an object with a namespace", param=f"steps[{i}].namespace")
        if item["namespace"] not in namespaces:
            raise bad_request(
                f"steps[{i}]: the template has no step {item['namespace']!r}", param=f"steps[{i}].namespace"
            )
        props = item.get("props", {})
        if not isinstance(props, dict):
            raise bad_request(f"steps[{i}].props must be an object", param=f"steps[{i}].props")
        out[item["namespace"]] = props
    return out


def _trigger_props(raw: Any, template: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Triggers are addressed by their index and take no namespace."""
    if raw is None:
        return {}
    if not isinstance(raw, list):
        raise bad_request("triggers must be an array of {props}", param="triggers")
    if len(raw) > len(template["triggers"]):
        raise bad_request(f"the template has {len(template['triggers'])} trigger(s), got {len(raw)}", param="triggers")
    out: dict[int, dict[str, Any]] = {}
    for i, item in enumerate(raw):
        if not isinstance(item, dict):
            raise bad_request(f"triggers[{i}] must be an object with props", param=f"triggers[{i}]")
        if "namespace" in item:
            raise bad_request(
                f"triggers[{i}]: triggers are addressed by index and take no namespace",
                param=f"triggers[{i}].namespace",
            )
        props = item.get("props", {})
        if not isinstance(props, dict):
            raise bad_request(f"triggers[{i}].props must be an object", param=f"triggers[{i}].props")
        out[i] = props
    return out


def _make_step(core: Core, spec: dict[str, Any], given: dict[str, Any]) -> Step:
    comp = core.store.registry_component(spec["component_key"])
    if comp is None:  # a template naming a missing component is our bug, not the client's
        raise RuntimeError(f"template step {spec['namespace']} names unknown component {spec['component_key']}")
    configured = {**spec.get("props", {}), **given}
    props = validate_props(core, comp, configured, f"steps.{spec['namespace']}.props")
    return Step(core.store.ids.new("c_"), spec["namespace"], comp.id, props)


def _make_trigger(
    core: Core,
    owner_id: str,
    org_id: str,
    spec: dict[str, Any],
    props: dict[str, Any],
    workflow: Workflow,
    index: int,
) -> Trigger:
    now = core.store.clock.now_s()
    kind = spec["kind"]
    trigger = Trigger(id="", kind=kind, created_at=now, updated_at=now)
    if kind == "http":
        trigger.id = core.store.ids.new("hi_")
        trigger.endpoint_key = core.store.ids.new("en", 14).lower()
        trigger.custom_response = bool(props.get("custom_response", spec.get("custom_response", False)))
        core.store.endpoints[trigger.endpoint_key] = workflow.id
    elif kind == "timer":
        trigger.id = core.store.ids.new("ti_")
        timer = _timer_from(props, spec)
        trigger.interval_seconds, trigger.cron = timer["interval_seconds"], timer["cron"]
        trigger.timezone = timer.get("timezone") or "UTC"
        trigger.schedule_changed_at = now
        core.runtime.schedule_trigger(trigger)
    elif kind == "email":
        trigger.id = core.store.ids.new("ei_")
        trigger.email_address = f"{core.store.ids.new('em', 12).lower()}@upload.emulator.local"
    else:
        comp = core.store.registry_component(spec["component_key"])
        if comp is None:
            raise RuntimeError(f"template trigger names unknown component {spec['component_key']}")
        source = deploy_source(
            core, owner_id, org_id, comp, f"{workflow.name} trigger", props, f"triggers[{index}].props"
        )
        trigger.id = source.id
        trigger.source_id = source.id
        sub = Subscription(core.store.ids.new("sub_"), source.id, workflow.id, "", owner_id, org_id)
        core.store.subscriptions[sub.id] = sub
        core.runtime.subscriptions_changed()
    return trigger


def _timer_from(props: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    raw = props.get("timer", props) if props else {}
    if not raw:
        raw = (
            {"cron": spec["cron"], "timezone": spec.get("timezone")}
            if spec.get("cron")
            else {"intervalSeconds": spec.get("interval_seconds", 3600)}
        )
    if not isinstance(raw, dict):
        raise bad_request("triggers timer must be an object with intervalSeconds or cron", param="triggers.props.timer")
    try:
        return normalize_timer({k: v for k, v in raw.items() if v is not None})
    except (ValueError, PropError) as err:
        raise bad_request(f"triggers timer: {err}", param="triggers.props.timer") from None


# --- events ------------------------------------------------------------------------------


def event_key_param(value: Any, name: str) -> tuple[int, int] | None:
    if value in (None, ""):
        return None
    key = parse_event_id(str(value))
    if key is None:
        raise bad_request(f"{name} must be an event id of the form <epoch-ms>-<seq>", param=name)
    return key
