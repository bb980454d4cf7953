"""What the emulator's components do when they run.

The emulator cannot run JavaScript. A component is given a behaviour from
what it declares: an HTTP interface emits each request, a timer emits a tick,
and the registry's app sources emit plausible records of their app. Workflow
steps named `demo-*` are the built-in behaviours of docs/emulator.md; any other step
passes its input through.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .store import Source


@dataclass
class Emission:
    """One `$emit` call: the payload and its `{id, name, summary, ts}` metadata."""

    event: Any
    id: str | int | float | None = None  # as the component gives it: 5 and "5" are one id to dedupe
    channel: str = "default"
    summary: str | None = None
    ts: float | None = None  # epoch milliseconds


class StepError(Exception):
    """A step threw: becomes a `$errors` event."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- sources -----------------------------------------------------------------


def timer_emissions(source: Source, key: str | None, now_ms: int, rng: random.Random) -> list[Emission]:
    """What a timer-driven source emits when its timer fires."""
    make = _APP_SOURCES.get(key or "")
    if make is not None:
        return make(source, now_ms, rng)
    timer = next((v for v in source.configured_props.values() if isinstance(v, dict) and "interval_seconds" in v), {})
    tick = {"timestamp": now_ms // 1000, "interval_seconds": timer.get("interval_seconds"), "cron": timer.get("cron")}
    return [Emission(tick, id=str(now_ms), summary=f"Timer fired at {now_ms // 1000}", ts=now_ms)]


def _counter(source: Source, name: str, step: int = 1) -> int:
    value = int(source.db.get(name, 0)) + step
    source.db[name] = value
    return value


def _github_issues(source: Source, now_ms: int, rng: random.Random) -> list[Emission]:
    repo = str(source.configured_props.get("repo") or "acme/api")
    out = []
    for _ in range(rng.randint(0, 2)):
        number = _counter(source, "last_issue")
        title = rng.choice(
            ["Crash on empty payload", "Timeout talking to billing", "Docs: webhook retries", "Flaky test in CI"]
        )
        issue = {
            "number": number,
            "title": title,
            "state": "open",
            "html_url": f"https://github.example.com/{repo}/issues/{number}",
            "user": {"login": rng.choice(["mara", "devon", "kit", "sol"])},
            "labels": [{"name": rng.choice(["bug", "triage", "docs"])}],
            "created_at": now_ms // 1000,
        }
        out.append(Emission(issue, id=str(number), summary=f"#{number} {title}", ts=now_ms))
    if out and rng.random() < 0.3:
        # Polling APIs return the same record twice; dedupe "unique" drops it.
        out.append(Emission(out[0].event, id=out[0].id, summary=out[0].summary, ts=now_ms))
    return out


def _slack_messages(source: Source, now_ms: int, rng: random.Random) -> list[Emission]:
    channel = str(source.configured_props.get("channel") or "C024BE91L")
    out = []
    for i in range(rng.randint(0, 3)):
        ts = f"{now_ms / 1000 + i / 1000:.6f}"
        text = rng.choice(["deploy finished", "anyone seen the 502s?", "standup in 5", "rolled back v2.3.1"])
        out.append(
            Emission(
                {"type": "message", "channel": channel, "text": text, "ts": ts, "user": "U0G9QF9C6"},
                id=ts,
                summary=text,
                ts=now_ms + i,
            )
        )
    return out


def _sheet_rows(source: Source, now_ms: int, rng: random.Random) -> list[Emission]:
    out = []
    for _ in range(rng.randint(0, 2)):
        row = _counter(source, "last_row")
        values = [f"order-{1000 + row}", rng.choice(["paid", "refunded", "pending"]), rng.randint(5, 500)]
        out.append(Emission({"rowNumber": row, "values": values}, id=str(row), summary=f"Row {row} added", ts=now_ms))
    return out


def _postgres_rows(source: Source, now_ms: int, rng: random.Random) -> list[Emission]:
    out = []
    for _ in range(rng.randint(0, 2)):
        row_id = _counter(source, "last_id")
        row = {"id": row_id, "email": f"user{row_id}@example.com", "plan": rng.choice(["free", "team", "business"])}
        out.append(Emission(row, id=str(row_id), summary=f"New row {row_id}", ts=now_ms))
    return out


def _rss_items(source: Source, now_ms: int, rng: random.Random) -> list[Emission]:
    out = []
    for _ in range(rng.randint(0, 1)):
        n = _counter(source, "item")
        item = {"guid": f"urn:post:{n}", "title": f"Release notes #{n}", "link": f"https://blog.example.com/posts/{n}"}
        out.append(Emission(item, id=item["guid"], summary=item["title"], ts=now_ms))
    return out


_APP_SOURCES = {
    "github-new-issue": _github_issues,
    "slack-new-message-in-channels": _slack_messages,
    "google_sheets-new-row-added": _sheet_rows,
    "postgresql-new-row": _postgres_rows,
    "rss-new-item-in-feed": _rss_items,
}


def http_emission(request_event: dict[str, Any], *, body_only: bool = False) -> Emission:
    """The request as the event; with the registry's `emitBodyOnly` prop, only its body."""
    summary = f"{request_event['method']} {request_event['path']}"
    if not body_only:
        return Emission(request_event, summary=summary)
    body = request_event["body"]
    return Emission(body if body is not None else {}, summary=summary)


# --- workflow steps ------------------------------------------------------------


@dataclass
class StepResult:
    value: Any
    emit: Any = None  # set when the step emits to the workflow's destination
    call: dict[str, Any] | None = None  # set when the step asks for an HTTP call


def run_step(key: str | None, props: dict[str, Any], event: Any, previous: Any, rng: random.Random) -> StepResult:
    """One built-in step. `previous` is the last step's return value."""
    data = previous if previous is not None else event
    if key == "demo-validate-fields":
        return StepResult(_validate(props, event))
    if key == "demo-transform":
        return StepResult(_transform(props, data))
    if key == "demo-emit":
        return StepResult(data, emit=data)
    if key == "demo-fail-rate":
        rate = int(props.get("failure_rate") or 0)
        if rng.random() * 100 < rate:
            raise StepError("PartnerTimeoutError", f"partner API timed out ({rate}% of runs fail)")
        return StepResult(data)
    if key == "demo-call-url":
        return StepResult(data, call={"url": props.get("url"), "method": props.get("method") or "POST", "json": data})
    return StepResult(data)


def _validate(props: dict[str, Any], event: Any) -> Any:
    required = props.get("required_fields") or []
    body = event.get("body") if isinstance(event, dict) and isinstance(event.get("body"), dict) else event
    if not isinstance(body, dict):
        raise StepError("ValidationError", "event is not a JSON object")
    for name in required:
        if body.get(name) in (None, ""):
            raise StepError("ValidationError", f"Missing required field: {name}")
    return body


def _transform(props: dict[str, Any], data: Any) -> Any:
    if not isinstance(data, dict):
        return data
    out = dict(data)
    for name in props.get("uppercase") or []:
        if isinstance(out.get(name), str):
            out[name] = out[name].upper()
    extra = props.get("add_fields")
    if isinstance(extra, dict):
        out.update(extra)
    return out
