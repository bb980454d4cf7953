"""`--prop name=value`, typed by the component's props: the rules the TUI's props form uses (`aftui.props`).

- `string`: the text (one of the options when the prop has static options;
  an option's label is taken for its value); `integer`: a whole number
  within min/max; `boolean`: true/false, yes/no, on/off, 1/0; `object`: a
  JSON object; `any`: JSON, or the text as a string.
- `T[]`: a JSON array, or `--prop name=a --prop name=b` (each typed as T).
- `$.interface.timer`: seconds (`900`, `15m`, `2h`, `1d`) or a cron
  expression (`0 9 * * 1-5`).
- `app`: a connected account's id (`apn_...`; a name is resolved by `changes.py`), sent as `{authProvisionId}`.
- `http_request`: a JSON object.
- `$.interface.http`, `$.service.db`, `data_store` and `alert` are the
  service's to fill: setting one is refused.

Every value is held to the service's 64 KB of text per prop. A problem is a
`ValueError` naming the prop, raised before anything is sent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..api.models import ComponentProp
from ..props import (
    SERVICE_KINDS,
    Omitted,
    ValueProblem,
    option_pairs,
    read_integer,
    read_json,
    read_timer,
    required,
    size_problem,
    split_type,
    timer_minimum,
)
from ..text import visible

__all__ = ["collect", "props_for_update", "read_prop", "split_assignments"]

TRUE = frozenset({"true", "yes", "on", "1", "y"})
FALSE = frozenset({"false", "no", "off", "0", "n"})


def split_assignments(texts: Sequence[str]) -> dict[str, list[str]]:
    """`["a=1", "tags=x", "tags=y"]` -> `{"a": ["1"], "tags": ["x", "y"]}` (in the order given)."""
    out: dict[str, list[str]] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ValueError(f"--prop {visible(text, 60)!r}: write --prop name=value")
        out.setdefault(name, []).append(value)
    return out


def _scalar(prop: ComponentProp, kind: str, text: str) -> Any:
    if kind == "integer":
        value = read_integer(text, prop)
        if isinstance(value, Omitted):
            raise ValueProblem("needs a whole number")
        return value
    if kind == "boolean":
        word = text.strip().lower()
        if word in TRUE:
            return True
        if word in FALSE:
            return False
        raise ValueProblem("must be true or false")
    if kind in ("object", "any", "http_request"):
        value = read_json(text, "object" if kind in ("object", "http_request") else "any")
        if isinstance(value, Omitted):
            raise ValueProblem("needs a value")
        return value
    if kind == "string":
        pairs = option_pairs(prop.options)
        if pairs:
            for _, option in pairs:
                if text == str(option):
                    return option
            for label, option in pairs:
                if text == label:
                    return option
            shown = ", ".join(str(option) for _, option in pairs[:20])
            raise ValueProblem(f"must be one of: {shown}")
        return text
    # A type the rules do not know: JSON when it reads as JSON, else the text.
    try:
        return json.loads(text)
    except ValueError:
        return text


def read_prop(prop: ComponentProp, texts: Sequence[str]) -> Any:
    """The value to send for `prop` from what was typed (one or more --prop of it)."""
    kind, is_list = split_type(prop.type)
    name = prop.name
    try:
        if prop.type in SERVICE_KINDS or prop.type in ("$.interface.http", "alert"):
            raise ValueProblem(f"is a {prop.type} prop, which the service fills: it cannot be set")
        if not is_list and len(texts) > 1:
            raise ValueProblem("is given more than once")
        if prop.type == "$.interface.timer":
            timer = read_timer(texts[0], timer_minimum(prop))
            if isinstance(timer, Omitted):
                raise ValueProblem("needs seconds (900, 15m, 2h) or a cron expression")
            return timer
        if kind == "app":
            account = texts[0].strip()
            if not account.startswith("apn_"):
                raise ValueProblem(
                    f"needs a connected account (its apn_ id or its name) of {prop.app or 'its app'}: "
                    f"see aftui accounts --app {prop.app or 'APP'}"
                )
            return {"authProvisionId": account}
        if is_list:
            value: Any = _list(prop, kind, texts)
        else:
            value = _scalar(prop, kind, texts[0])
        problem = size_problem(value)
        if problem:
            raise ValueProblem(problem)
        return value
    except ValueProblem as problem:
        raise ValueError(f"--prop {name}: {problem.message}") from None


def _list(prop: ComponentProp, kind: str, texts: Sequence[str]) -> list[Any]:
    if len(texts) == 1 and texts[0].strip().startswith("["):
        try:
            items = json.loads(texts[0])
        except ValueError as error:
            raise ValueProblem(f"is not a valid JSON array ({error})") from None
        if not isinstance(items, list):
            raise ValueProblem("must be a JSON array")
        return [_scalar(prop, kind, item if isinstance(item, str) else json.dumps(item)) for item in items]
    return [_scalar(prop, kind, text) for text in texts]


def collect(
    props: Sequence[ComponentProp], given: Mapping[str, Sequence[str]], start: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """`configured_props` for a deploy (start empty) or an update (start from the source's), checked.

    Unknown names and required props left without a value are refused, naming them.
    """
    by_name = {p.name: p for p in props}
    unknown = [name for name in given if name not in by_name]
    if unknown:
        settable = [
            p.name for p in props if p.type not in SERVICE_KINDS and p.type not in ("$.interface.http", "alert")
        ]
        raise ValueError(
            f"--prop {', '.join(unknown)}: the component has no such prop; its props are: {', '.join(settable) or 'none'}"
        )
    values: dict[str, Any] = dict(start or {})
    for name, texts in given.items():
        values[name] = read_prop(by_name[name], texts)
    missing = [p.name for p in props if required(p) and p.name not in values]
    if missing:
        raise ValueError(f"--prop {', '.join(missing)}: required by the component, and not given")
    return values


def props_for_update(configured: Mapping[str, Any], props: Sequence[ComponentProp]) -> dict[str, Any]:
    """A source's current props as a PUT takes them: timers as `{intervalSeconds}`/`{cron}`, the HTTP interface left out."""
    kinds = {p.name: p.type for p in props}
    out: dict[str, Any] = {}
    for name, value in configured.items():
        kind = kinds.get(name)
        if kind == "$.interface.http" or kind in SERVICE_KINDS:
            continue
        if kind == "$.interface.timer" and isinstance(value, dict):
            timer: dict[str, Any] = {}
            if value.get("cron"):
                timer["cron"] = value["cron"]
            else:
                seconds = value.get("intervalSeconds", value.get("interval_seconds"))
                if seconds is not None:
                    timer["intervalSeconds"] = seconds
            if value.get("timezone"):
                timer["timezone"] = value["timezone"]
            out[name] = timer
            continue
        out[name] = value
    return out
