"""Helpers the route modules share: finding visible records and paging them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from starlette.responses import Response

from ..errors import not_found
from ..events import StoredEvent
from ..http import Ctx, json_response
from ..ids import format_event_id, parse_event_id, parse_uint
from ..paging import encode_cursor, paginate, shape

R = TypeVar("R")


def find(ctx: Ctx, table: dict[str, R], ident: str, kind: str) -> R:
    """A record the caller may see; anything else is a 404, never a 403 that leaks existence."""
    record = table.get(ident)
    if record is None or not ctx.principal.can_see(getattr(record, "org_id", None)):
        raise not_found(kind, ident)
    return record


def _seq_key(cursor: str) -> int:
    seq = parse_uint(cursor)
    if seq is None:
        raise ValueError(cursor)
    return seq


def page_of_records(ctx: Ctx, records: Iterable[Any], render: Callable[[Any], dict[str, Any]]) -> Response:
    """A paginated answer over records that carry `seq`, newest first."""
    data, info = records_page(ctx, records, render)
    return json_response({"page_info": info, "data": data})


def records_page(
    ctx: Ctx, records: Iterable[Any], render: Callable[[Any], dict[str, Any]]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    ordered = sorted(records, key=lambda r: r.seq, reverse=True)
    page, info = paginate(
        ordered,
        [r.seq for r in ordered],
        params=ctx.params,
        cursor_of=lambda r: encode_cursor(str(r.seq)),
        parse_key=_seq_key,
    )
    return [shape(render(r), ctx.params) for r in page], info


def _event_key(cursor: str) -> tuple[int, int]:
    key = parse_event_id(cursor)
    if key is None:
        raise ValueError(cursor)
    return key


def page_of_events(ctx: Ctx, events: list[StoredEvent]) -> Response:
    """Event summaries newest first, out of the retained window of 100."""
    expand = ctx.params.get("expand") == "event"
    page, info = paginate(
        events,
        [e.key for e in events],
        params=ctx.params,
        cursor_of=lambda e: encode_cursor(format_event_id(e.key)),
        parse_key=_event_key,
    )
    return json_response({"page_info": info, "data": [shape(e.summary(expand=expand), ctx.params) for e in page]})


def ok_data(ctx: Ctx, record: dict[str, Any], status: int = 200) -> Response:
    return json_response({"data": shape(record, ctx.params)}, status)
