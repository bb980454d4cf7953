"""What a props form sends: typed text read into prop values, checked as the service checks them.

No Textual here: the field widgets (`tui/widgets/prop_fields.py`) hold what was
typed and ask these functions what it means, so the rules are tested
without a screen. A value of `OMIT` means "send nothing for this prop",
which the service treats as "use the default" (or refuses when the prop is
required).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any, Final

from croniter import croniter

from .api.models import ComponentProp
from .schedule import describe_timer

MAX_STATIC_TEXT: Final = 64 * 1024  # bytes of UTF-8 per prop (spec, Limits: "Prop value size")


class Omitted:
    def __repr__(self) -> str:
        return "OMIT"


OMIT: Final = Omitted()  # the one value of its type

SCALARS = ("string", "integer", "boolean", "object", "any")
# Props the service fills itself: nothing to type (the value, if any, is kept as it is).
SERVICE_KINDS: Final[Mapping[str, str]] = {
    "$.service.db": "A key-value store the service gives the component ($.service.db): nothing to set.",
    "data_store": "A data store of the workspace, picked in the service's own editor: the API does not list data stores, so aftui keeps whatever is set.",
}
HTTP_REQUEST_NOTE = 'An HTTP request configuration (http_request, run with execute()): a JSON object such as {"url": …, "method": "GET"}.'


class ValueProblem(ValueError):
    """What is wrong with a typed value; `blank` marks "required but empty", not said while typing."""

    def __init__(self, message: str, *, blank: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.blank = blank


def split_type(kind: str) -> tuple[str, bool]:
    """`"string[]"` -> ("string", True); `"integer"` -> ("integer", False)."""
    return (kind[:-2], True) if kind.endswith("[]") else (kind, False)


def label_of(prop: ComponentProp) -> str:
    return prop.label or prop.name


def has_default(prop: ComponentProp) -> bool:
    return "default" in prop.model_fields_set or prop.default is not None


NO_INPUT_KINDS = frozenset({*SERVICE_KINDS, "$.interface.http", "http_request", "alert"})


def required(prop: ComponentProp) -> bool:
    """The service refuses a missing value only for a user-input prop that is neither optional, defaulted nor disabled."""
    if prop.type in NO_INPUT_KINDS:
        return False
    return not (prop.optional or prop.disabled or has_default(prop))


def extra(prop: ComponentProp, name: str, default: Any = None) -> Any:
    """A property the model does not name (alertType, content, customResponse, remoteOptions …)."""
    return (prop.model_extra or {}).get(name, default)


# --- scalars -----------------------------------------------------------------------------------


def read_integer(text: str, prop: ComponentProp) -> int | Omitted:
    text = text.strip()
    if not text:
        return OMIT
    if not re.fullmatch(r"[+-]?\d+", text):
        raise ValueProblem("must be a whole number")
    value = int(text)
    if prop.min is not None and value < prop.min:
        raise ValueProblem(f"must be at least {prop.min}")
    if prop.max is not None and value > prop.max:
        raise ValueProblem(f"must be at most {prop.max}")
    return value


def read_json(text: str, kind: str) -> Any:
    """`object`: a JSON object; `any`: JSON, or plain text sent as a string (text that opens with { or [ must be JSON)."""
    stripped = text.strip()
    if not stripped:
        return OMIT
    try:
        value = json.loads(stripped)
    except json.JSONDecodeError as error:
        if kind == "any" and stripped[0] not in "{[":
            return text  # SQL, a name, a sentence: an `any` prop takes a string as well
        raise ValueProblem(f"is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})") from None
    except RecursionError:
        raise ValueProblem("is nested too deep") from None
    if kind == "object" and not isinstance(value, dict):
        raise ValueProblem("must be a JSON object: {…}")
    if not _finite(value):
        raise ValueProblem("must not contain NaN or Infinity")
    return value


def _finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    return True


def json_text(value: Any) -> str:
    """A stored value as the editor shows it."""
    if value is None or value is OMIT:
        return ""
    return json.dumps(value, indent=2, ensure_ascii=False)


def option_pairs(options: list[Any] | None) -> list[tuple[str, Any]]:
    """Options as (label, value): strings stand for themselves, {label, value} pairs are kept."""
    pairs: list[tuple[str, Any]] = []
    for option in options or []:
        if isinstance(option, dict) and "value" in option:
            label = option.get("label")
            pairs.append((str(label if label is not None else option["value"]), option["value"]))
        elif isinstance(option, (str, int, float, bool)):
            pairs.append((str(option), option))
    return pairs


# --- timers --------------------------------------------------------------------------------------

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
# The shortest interval a timer runs at (the registry's interval source says so in its
# description); a timer prop that declares `min` in seconds is held to that instead.
MIN_INTERVAL_SECONDS = 15


def timer_minimum(prop: ComponentProp) -> int:
    """The shortest interval, in seconds, the timer prop accepts."""
    return prop.min if prop.min is not None and prop.min > 0 else MIN_INTERVAL_SECONDS


def read_timer(text: str, minimum: int = MIN_INTERVAL_SECONDS) -> dict[str, Any] | Omitted:
    """Seconds (`900`, or `15m`, `2h`, `1d`) or a 5-field cron expression -> `{intervalSeconds}` / `{cron}`."""
    text = " ".join(text.split())
    if not text:
        return OMIT
    match = re.fullmatch(r"(\d+)\s*([smhd]?)", text.lower())
    if match:
        seconds = int(match.group(1)) * _UNITS[match.group(2) or "s"]
        if seconds < minimum:
            raise ValueProblem(f"an interval must be at least {minimum} seconds")
        return {"intervalSeconds": seconds}
    if len(text.split(" ")) != 5:
        raise ValueProblem("give seconds (900, 15m, 2h) or a 5-field cron expression (minute hour day month weekday)")
    if not croniter.is_valid(text):
        raise ValueProblem(f"{text!r} is not a valid cron expression")
    return {"cron": text}


def timer_text(value: Any) -> str:
    """A timer in either stored form (`{cron, interval_seconds}` or `{intervalSeconds}`/`{cron}`) as the field shows it."""
    if not isinstance(value, Mapping):
        return ""
    cron = value.get("cron")
    if isinstance(cron, str) and cron:
        return cron
    seconds = value.get("interval_seconds", value.get("intervalSeconds"))
    return str(seconds) if isinstance(seconds, int) and not isinstance(seconds, bool) else ""


def timer_words(text: str, zone: str | None = None, minimum: int = MIN_INTERVAL_SECONDS) -> str:
    """What the typed schedule means, or what is wrong with it (for the line under the field)."""
    try:
        timer = read_timer(text, minimum)
    except ValueProblem as problem:
        return f"✖ {problem.message}"
    if isinstance(timer, Omitted):
        return "no schedule"
    return "runs " + describe_timer({**timer, **({"timezone": zone} if zone else {})})


# --- size --------------------------------------------------------------------------------------------


def is_expression(text: str) -> bool:
    """A whole-string `{{ … }}` expression, which the 64 KB limit does not bind."""
    stripped = text.strip()
    return stripped.startswith("{{") and stripped.endswith("}}") and bool(stripped[2:-2].strip())


def static_text_bytes(value: Any) -> int:
    """UTF-8 bytes of all static text in a value, object keys included (as the service counts)."""
    if isinstance(value, str):
        return 0 if is_expression(value) else len(value.encode("utf-8", "surrogatepass"))
    if isinstance(value, list):
        return sum(static_text_bytes(v) for v in value)
    if isinstance(value, dict):
        return sum(static_text_bytes(k) + static_text_bytes(v) for k, v in value.items())
    return 0


def size_problem(value: Any) -> str | None:
    size = static_text_bytes(value)
    if size > MAX_STATIC_TEXT:
        return f"holds {size:,} bytes of text; the service takes at most 64 KB ({MAX_STATIC_TEXT:,} bytes) per prop"
    return None
