"""Event summaries in a table, and one event in full (fetched with expand=event when cut)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.widget import Widget

from ...api.models import EventSummary
from ...masking import masked
from ..safe import long_text, plain
from ..widgets.fields import Fields
from ..widgets.json_view import dumps
from ..widgets.paged_table import Column
from .detail import DetailScreen
from .value import ValueScreen

ORIGINAL_SHOWN = 600  # characters of a failed run's input on its Overview; `v` on the JSON tab shows it all


def event_time(event: EventSummary) -> Text:
    if not event.indexed_at_ms:
        return Text("—", style="dim")
    return Text(datetime.fromtimestamp(event.indexed_at_ms / 1000, tz=UTC).strftime("%m-%d %H:%M:%S"))


def event_summary(event: EventSummary) -> Text:
    error = event.error()
    if error is not None:
        return Text.assemble(("✖ ", "red"), plain(f"{error.error.code or 'Error'}: {error.error.msg or ''}", 120))
    payload = event.event
    text = payload if isinstance(payload, str) else dumps(payload, indent=None)
    size = event.metadata.event_size
    prefix = Text(
        f"[cut, {size:,} B] " if event.truncated and size else "[cut] " if event.truncated else "", style="yellow"
    )
    return Text.assemble(prefix, plain(text, 160))


def event_columns() -> list[Column[EventSummary]]:
    return [
        Column("time", "Time UTC", event_time, sort=lambda e: e.key, width=14),
        Column("channel", "Channel", lambda e: plain(e.channel, 20), width=10),
        Column("summary", "Event", event_summary, width=40, min_width=24),  # the rest of the row, up to its length
        Column("id", "ID", lambda e: plain(e.id, 24, "dim"), sort=lambda e: e.key, width=18, hide_rank=1),
    ]


class EventScreen(DetailScreen):
    """One event: its metadata and the whole payload, fetched again in full if it was cut. `v` shows an error's
    stack (else the payload) in the value viewer; in the JSON tab, the value under the cursor."""

    BINDINGS = [Binding("v", "view_value", "View stack/value")]

    def __init__(
        self,
        ident: str,
        crumbs: tuple[str, ...],
        *,
        record: EventSummary,
        source_id: str | None = None,
        workflow_id: str | None = None,
        errors: bool = False,
    ) -> None:
        super().__init__(ident, crumbs, record=record)
        self.source_id = source_id
        self.workflow_id = workflow_id
        self.errors = errors

    async def load(self) -> EventSummary:
        event: EventSummary = self.record
        if not event.truncated:
            return event
        client = self.session.client
        if self.source_id:
            page = await client.list_source_events(self.source_id, expand=True, limit=100)
        elif self.workflow_id and self.errors:
            page = await client.list_workflow_errors(self.workflow_id, expand=True, limit=100)
        elif self.workflow_id:
            page = await client.list_workflow_events(self.workflow_id, expand=True, limit=100)
        else:
            return event
        self.session.journal_events(page.items, self.source_id or self.workflow_id or "")
        full = next((e for e in page.items if e.id == event.id), None)
        if full is None:
            self.notify(
                "The event is no longer among the last 100 kept by the service; showing the summary.",
                severity="warning",
                markup=False,
            )
            return event
        return full

    def tabs(self) -> list[tuple[str, Widget]]:
        return [("Overview", Fields(self.overview_rows(), id="overview"))]

    def overview_rows(self) -> list[tuple[str, Any]]:
        event: EventSummary = self.record
        rows: list[tuple[str, Any]] = [
            ("ID", event.id),
            ("Time", Text.assemble(event_time(event), (" UTC", "dim")) if event.indexed_at_ms else event_time(event)),
            ("Emitter", event.metadata.emitter_id),
            ("Channel", event.channel),
            ("Emit id", event.metadata.emit_id),
            (
                "Size",
                f"{len(json.dumps(event.event, default=str)):,} bytes"
                if not event.truncated
                else f"{event.metadata.event_size or 0:,} bytes (cut)",
            ),
        ]
        error = event.error()
        if error is not None:
            ctx = error.original_context
            # A part the service left out is left out (the replay screen's "Started by —"), never "None".
            rows += [
                ("Error", f"{error.error.code or 'Error'}: {error.error.msg or ''}"),
                ("Workflow", _joined(ctx.workflow_name, f"({ctx.workflow_id})" if ctx.workflow_id else None)),
                ("Trigger", _joined(ctx.source_type, ctx.emitter_id)),
                ("Step", error.error.cellId),
            ]
            rows.append(_payload_row(error.original_event))
            if error.error.stack:
                rows.append(("Stack", long_text(error.error.stack)))
        else:
            rows.append(_payload_row(event.event, "Payload"))  # what it emitted, at a glance, as an error's input
        return rows

    def json_data(self) -> Any:
        event: EventSummary = self.record
        return event.event

    def action_view_value(self) -> None:
        event: EventSummary = self.record
        error = event.error()
        if error is not None and error.error.stack:
            title = f"{self.crumbs[-1]} › stack" if self.crumbs else "stack"
            self.app.push_screen(ValueScreen(title, error.error.stack))
            return
        self.app.push_screen(ValueScreen(self.crumbs[-1] if self.crumbs else "event", event.event))


def _payload_row(event: Any, label: str = "Input") -> tuple[str, Any]:
    """What the failed run was given (or an event emitted: `label`), on the Overview: why it failed is mostly
    in there (a field sent empty reads "Missing required field" too), and it had been only in the JSON tab,
    folded. Of an HTTP event its body, the rest being the request's method, path and headers (the JSON tab
    has them, credentials masked)."""
    if event is None:
        return label, None
    http_body = isinstance(event, dict) and "body" in event and "method" in event
    value = event["body"] if http_body else masked(event)
    text = value if isinstance(value, str) else dumps(value, indent=None)
    return ("Body" if http_body else label), long_text(text, ORIGINAL_SHOWN)


def _joined(*parts: str | None) -> str | None:
    """The parts the service sent, spaced; None (shown "—") when it sent none."""
    return " ".join(part for part in parts if part) or None
