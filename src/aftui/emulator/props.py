"""Check a source's configured_props against its component's props, and read timers.

`POST /sources` takes values by prop name; the service refuses values that
do not fit the component's configurable_props and stores the rest in a
normalized form (a timer as `{cron, interval_seconds}`, an HTTP interface
as its endpoint). The emulator does the same here, naming the first bad
prop so a form can show the message beside the right field.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from croniter import croniter

from .. import schedule

__all__ = [
    "MAX_STATIC_TEXT",
    "PropError",
    "describe_timer",
    "is_expression",
    "next_fire",
    "normalize_timer",
    "validate_configured_props",
]

MAX_STATIC_TEXT = 64 * 1024  # bytes of UTF-8 (spec, Limits: "Prop value size")


class PropError(ValueError):
    """A configured prop the service would refuse; `prop` is its name ("" for the whole object)."""

    def __init__(self, prop: str, message: str) -> None:
        super().__init__(f"configured_props.{prop}: {message}" if prop else f"configured_props: {message}")
        self.prop = prop
        self.message = message


_SCALAR_TYPES = ("boolean", "integer", "string", "object", "any")
_PASS_THROUGH_TYPES = frozenset({"$.service.db", "data_store", "http_request"})
_OMIT = object()  # the prop gets no entry in the normalized result


def validate_configured_props(props: list[dict], configured: dict, *, account_app: Callable[[str], str | None]) -> dict:
    """Return the normalized configured props, or raise PropError naming the first bad prop.

    `account_app(account_id)` returns the app name slug of a connected
    account, or None when there is no such account. A null value counts as
    not given, as it does for an optional field of a form.
    """
    if not isinstance(configured, dict):
        raise PropError("", "must be an object of values by prop name")
    known = {prop["name"] for prop in props}
    for name in configured:
        if name not in known:
            raise PropError(name, "is not a prop of this component")
    result = {}
    for prop in props:
        value = _configure(prop, configured.get(prop["name"]), account_app)
        if value is not _OMIT:
            result[prop["name"]] = value
    return result


def _configure(prop: dict, value: object, account_app: Callable[[str], str | None]) -> object:
    """The normalized value of one prop (or _OMIT); `value` None means not given."""
    name, kind = prop["name"], prop["type"]
    if kind == "alert":
        if value is not None:
            raise PropError(name, "is an alert and takes no value")
        return _OMIT
    if kind == "$.interface.http":
        # The caller assigns the endpoint; customResponse says whether run() answers the request.
        return {"endpoint_url": None, "customResponse": prop.get("customResponse", False)}
    if kind == "$.interface.timer":
        return _timer(prop, value)
    if kind in _PASS_THROUGH_TYPES:
        return _OMIT if value is None else value
    if kind != "app" and kind.removesuffix("[]") not in _SCALAR_TYPES:
        raise PropError(name, f"has a type the emulator does not know: {kind!r}")
    if value is None:
        if "default" in prop:
            return copy.deepcopy(prop["default"])
        if not prop.get("optional") and not prop.get("disabled"):
            raise PropError(name, "is required")
        return _OMIT
    if kind == "app":
        return _app_account(prop, value, account_app)
    _check_user_value(prop, value)
    return value


def _timer(prop: dict, value: object) -> object:
    if value is None:
        if "default" not in prop:
            # A timer without a schedule would never run, so it is required like user input.
            if prop.get("optional"):
                return _OMIT
            raise PropError(prop["name"], "is required")
        value = prop["default"]
    try:
        return normalize_timer(value)
    except ValueError as error:
        raise PropError(prop["name"], str(error)) from None


def _app_account(prop: dict, value: object, account_app: Callable[[str], str | None]) -> dict:
    name, app = prop["name"], prop.get("app")
    account = value.get("authProvisionId") if isinstance(value, dict) and len(value) == 1 else None
    if not isinstance(account, str) or not account.startswith("apn_"):
        raise PropError(name, 'must be {"authProvisionId": "apn_..."}')
    account_slug = account_app(account)
    if account_slug is None:
        raise PropError(name, f"account {account} not found")
    if account_slug != app:
        raise PropError(name, f"account {account} is a {account_slug} account, expected {app}")
    return {"authProvisionId": account}


# -- user input ------------------------------------------------------------

_PLURALS = {
    "boolean": "booleans",
    "integer": "integers",
    "string": "strings",
    "object": "objects",
    "any": "JSON values",
}


def _check_user_value(prop: dict, value: object) -> None:
    name, kind = prop["name"], prop["type"]
    if kind.endswith("[]"):
        item_kind = kind.removesuffix("[]")
        if not isinstance(value, list):
            raise PropError(name, f"must be an array of {_PLURALS[item_kind]}")
        for index, item in enumerate(value, start=1):
            problem = _item_problem(prop, item_kind, item)
            if problem:
                raise PropError(name, f"item {index} {problem}")
    else:
        problem = _item_problem(prop, kind, value)
        if problem:
            raise PropError(name, problem)
    if _static_text_bytes(value) > MAX_STATIC_TEXT:
        raise PropError(name, "exceeds the 64 KB limit on static text")


def _item_problem(prop: dict, kind: str, value: object) -> str | None:
    """What is wrong with one value of scalar type `kind`, or None if nothing is."""
    if kind == "boolean" and not isinstance(value, bool):
        return "must be true or false"
    if kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return "must be an integer"
        if "min" in prop and value < prop["min"]:
            return f"must be at least {prop['min']}"
        if "max" in prop and value > prop["max"]:
            return f"must be at most {prop['max']}"
    if kind == "string" and not isinstance(value, str):
        return "must be a string"
    if kind == "object" and not isinstance(value, dict):
        return "must be an object"
    if not _is_json(value):
        return "must be a JSON value"
    return _option_problem(prop, value)


def _option_problem(prop: dict, value: object) -> str | None:
    options = prop.get("options")
    if not isinstance(options, list) or (isinstance(value, str) and is_expression(value)):
        return None  # no static options, or a value only known when the expression runs
    allowed = [option["value"] if isinstance(option, dict) else option for option in options]
    if value in allowed:
        return None
    return "must be one of: " + ", ".join(str(option) for option in allowed)


def _is_json(value: object) -> bool:
    if value is None or isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_is_json(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and _is_json(item) for key, item in value.items())
    return False


def _static_text_bytes(value: object) -> int:
    """UTF-8 bytes of all text in a value, keys included, except whole-string expressions."""
    if isinstance(value, str):
        return 0 if is_expression(value) else len(value.encode("utf-8", "surrogatepass"))
    if isinstance(value, list):
        return sum(_static_text_bytes(item) for item in value)
    if isinstance(value, dict):
        return sum(_static_text_bytes(key) + _static_text_bytes(item) for key, item in value.items())
    return 0


def is_expression(value: str) -> bool:
    """True for a whole-string `{{ ... }}` expression, which the 64 KB limit does not bind."""
    text = value.strip()
    return text.startswith("{{") and text.endswith("}}") and bool(text[2:-2].strip())


# -- timers ----------------------------------------------------------------

_TIMER_KEYS = frozenset({"intervalSeconds", "interval_seconds", "cron", "timezone"})
_TIMER_SHAPE = 'must be {"intervalSeconds": <seconds>} or {"cron": "<5-field cron>"}'


def normalize_timer(value: object) -> dict:
    """`{intervalSeconds}` / `{cron}` (or the stored form) -> `{cron, interval_seconds[, timezone]}`.

    Raises ValueError saying what is wrong.
    """
    if not isinstance(value, dict):
        raise ValueError(_TIMER_SHAPE)
    unknown = sorted(set(value) - _TIMER_KEYS)
    if unknown:
        raise ValueError(f"has an unknown field {unknown[0]!r}; a timer {_TIMER_SHAPE}")
    interval = value.get("intervalSeconds")
    if interval is None:
        interval = value.get("interval_seconds")
    cron = value.get("cron")
    if (interval is None) == (cron is None):
        raise ValueError(f"needs exactly one of intervalSeconds and cron; a timer {_TIMER_SHAPE}")
    timer: dict = {"cron": None, "interval_seconds": None}
    if interval is not None:
        if not isinstance(interval, int) or isinstance(interval, bool) or interval < 1:
            raise ValueError("intervalSeconds must be a whole number of seconds, at least 1")
        timer["interval_seconds"] = interval
    else:
        timer["cron"] = _normalize_cron(cron)
    zone = value.get("timezone")
    if zone is not None:
        _zone(zone)  # refuses an unknown zone
        timer["timezone"] = zone
    return timer


def _normalize_cron(cron: object) -> str:
    fields = cron.split() if isinstance(cron, str) else []
    expression = " ".join(fields)
    if len(fields) != 5 or not croniter.is_valid(expression):
        raise ValueError(f"cron {cron!r} is not a valid 5-field cron expression")
    return expression


def _zone(name: object) -> ZoneInfo:
    if isinstance(name, str):
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    raise ValueError(f"timezone {name!r} is not a known IANA time zone")


def next_fire(timer: dict, after_s: float) -> float:
    """The first epoch second after `after_s` at which the timer fires.

    Intervals fire on a fixed grid counted from the epoch (every 15 minutes
    is :00, :15, :30, :45), so the answer does not depend on when the source
    was deployed; cron runs in the timer's zone (UTC by default), DST included.
    """
    timer = normalize_timer(timer)
    interval = timer["interval_seconds"]
    if interval is not None:
        return float((after_s // interval + 1) * interval)
    start = datetime.fromtimestamp(after_s, _zone(timer.get("timezone", "UTC")))
    return croniter(timer["cron"], start).get_next(float)


def describe_timer(timer: dict) -> str:
    """Human words for a timer ("every 15 minutes", "weekdays at 09:00 (UTC)"), after checking it."""
    return schedule.describe_timer(normalize_timer(timer))
