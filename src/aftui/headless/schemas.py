"""The names of the fields of each `--json` schema, and what a table shows: stdlib only.

The parser reads these to say the fields in `--help` (and shell completion
runs the parser on every TAB), so nothing heavy is imported here; the
records themselves are built in `records.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["COLUMNS", "SCHEMAS", "only", "pick_fields"]

SCHEMAS: dict[str, tuple[str, ...]] = {
    "source": (
        "kind",
        "id",
        "name",
        "name_slug",
        "active",
        "interface",
        "endpoint_url",
        "component_id",
        "created_at",
        "updated_at",
        "configured_props",
    ),
    "workflow": ("kind", "id", "name", "active", "triggers", "steps", "found", "problem"),
    "webhook": ("kind", "id", "name", "description", "url", "active", "created_at", "updated_at"),
    "subscription": ("kind", "id", "emitter_id", "emitter_name", "listener_id", "listener_name", "event_name"),
    "connect_token": (
        "kind",
        "token",
        "expires_at",
        "connect_link_url",
        "external_user_id",
        "environment",
        "project_id",
    ),
    "account": (
        "kind",
        "id",
        "name",
        "app_id",
        "app_name",
        "app_slug",
        "healthy",
        "dead",
        "external_id",
        "created_at",
        "updated_at",
    ),
    "end_user": ("kind", "external_id", "accounts", "healthy", "dead", "apps"),
    "component": ("kind", "key", "id", "name", "version", "type", "description", "props"),
    "app": ("kind", "id", "name_slug", "name", "auth_type", "categories", "description"),
    "error": (
        "kind",
        "id",
        "workflow_id",
        "workflow_name",
        "at",
        "step",
        "error",
        "message",
        "fingerprint",
        "source_type",
        "trigger_id",
        "replay",
        "replay_of",
        "stack",
        "original_event",
    ),
    "error_group": (
        "kind",
        "fingerprint",
        "workflow_id",
        "step",
        "error",
        "message",
        "sample",
        "count",
        "replay",
        "fixed",
        "first_at",
        "last_at",
        "error_ids",
    ),
    "replay_plan": (
        "kind",
        "error_id",
        "workflow_id",
        "replayable",
        "trigger",
        "reason",
        "warning",
        "method",
        "url",
        "headers",
        "body",
        "edited",
    ),
    "health": (
        "kind",
        "id",
        "name",
        "type",
        "state",
        "active",
        "errors_1h",
        "errors_24h",
        "replayed_ok_1h",
        "originals_1h",
        "last_error_at",
        "last_error",
        "last_event_at",
        "events_15m",
    ),
    "replay": (
        "kind",
        "replay_id",
        "error_id",
        "workflow_id",
        "outcome",
        "detail",
        "status_code",
        "edited",
        "url",
        "outcome_event_id",
    ),
}

# What a table shows for people when no --fields is given.
COLUMNS: dict[str, tuple[str, ...]] = {
    "source": ("id", "name", "active", "interface", "updated_at"),
    "workflow": ("id", "name", "active", "triggers", "found"),
    "webhook": ("id", "name", "url", "active"),
    "subscription": ("id", "emitter_id", "emitter_name", "event_name", "listener_id", "listener_name"),
    "account": ("id", "name", "app_name", "healthy", "external_id", "updated_at"),
    "end_user": ("external_id", "accounts", "healthy", "dead", "apps"),
    "component": ("key", "type", "name", "version", "props"),
    "app": ("id", "name_slug", "name", "auth_type", "categories"),
    "error": ("at", "id", "step", "error", "message"),
    "error_group": ("count", "first_at", "last_at", "step", "error", "message", "fingerprint", "replay"),
    "replay_plan": ("error_id", "replayable", "method", "url", "edited", "reason"),
    "replay": ("error_id", "outcome", "detail", "replay_id"),
    "health": (
        "state",
        "name",
        "type",
        "errors_1h",
        "errors_24h",
        "originals_1h",
        "replayed_ok_1h",
        "last_error_at",
        "last_error",
    ),
}


def pick_fields(kind: str, text: str | None) -> tuple[str, ...]:
    """The fields `--fields a,b` names (checked against the schema), else the whole schema."""
    schema = SCHEMAS[kind]
    if text is None:
        return schema
    wanted = tuple(f.strip() for f in text.split(",") if f.strip())
    unknown = [f for f in wanted if f not in schema]
    if unknown or not wanted:
        what = "health row" if kind == "health" else kind.replace("_", " ")
        if not wanted:
            said = "no field named"
        elif len(unknown) == 1:
            said = f"{unknown[0]} is not a field of {_a(what)}"
        else:
            said = f"{', '.join(unknown)} are not fields of {_a(what)}"
        raise ValueError(f"--fields: {said}; the fields are: {', '.join(schema)}")
    return wanted


def _a(what: str) -> str:
    """ "an error", "an end user", "a replay": the kinds here begin with a vowel sound exactly when a vowel."""
    return f"{'an' if what[0] in 'aeiou' else 'a'} {what}"


def only(record: dict[str, Any], fields: Sequence[str]) -> dict[str, Any]:
    return {field: record.get(field) for field in fields}
