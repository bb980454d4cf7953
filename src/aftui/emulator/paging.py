"""Cursor pages, `limit` checking and `include`/`exclude` shaping.

Lists are served newest first. A cursor is an opaque, URL-safe encoding of a
record's position key, so a cursor stays valid when the record it names is
deleted: the page simply starts at the next key.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from .errors import bad_request
from .ids import parse_uint

T = TypeVar("T")

DEFAULT_LIMIT = 10
MAX_LIMIT = 100


def parse_limit(raw: object, *, default: int = DEFAULT_LIMIT) -> int:
    if raw is None or raw == "":
        return default
    value: int | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = raw
    elif isinstance(raw, str):
        value = parse_uint(raw.strip())
    if value is None or not 1 <= value <= MAX_LIMIT:
        shown = repr(raw) if len(repr(raw)) <= 40 else repr(raw)[:37] + "..."
        raise bad_request(f"limit must be an integer from 1 to {MAX_LIMIT}, got {shown}", param="limit")
    return value


def encode_cursor(key: str) -> str:
    return base64.urlsafe_b64encode(key.encode()).rstrip(b"=").decode("ascii")


def decode_cursor(cursor: str, param: str) -> str:
    try:
        return base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        raise bad_request(f"{param} is not a valid cursor", param=param) from None


def paginate(
    items: Sequence[T],
    keys: Sequence[Any],
    *,
    params: Mapping[str, Any],
    cursor_of: Callable[[T], str],
    parse_key: Callable[[str], Any],
    default_limit: int = DEFAULT_LIMIT,
) -> tuple[list[T], dict[str, Any]]:
    """One page of `items`, which are sorted newest first with descending `keys`.

    `after` returns older items than the cursor, `before` newer ones (the
    `limit` closest to the cursor). `end_cursor` is empty on the last page.
    """
    limit = parse_limit(params.get("limit"), default=default_limit)
    after, before = params.get("after"), params.get("before")
    n = len(items)
    lo, hi = 0, n
    if after:
        cut = _cursor_key(after, "after", parse_key)
        lo = _first_index(keys, lambda k: k < cut)
    if before:
        cut = _cursor_key(before, "before", parse_key)
        hi = _first_index(keys, lambda k: k <= cut)
    if before and not after:
        lo = max(lo, hi - limit)
    page = list(items[lo : min(hi, lo + limit)])
    more = lo + len(page) < n
    page_info = {
        "total_count": n,
        "count": len(page),
        "start_cursor": cursor_of(page[0]) if page else "",
        "end_cursor": cursor_of(page[-1]) if page and more else "",
    }
    return page, page_info


def _cursor_key(cursor: object, param: str, parse_key: Callable[[str], Any]) -> Any:
    """The position key a cursor names; `parse_key` raises ValueError for one this list never gave out."""
    try:
        return parse_key(decode_cursor(str(cursor), param))
    except ValueError:
        raise bad_request(f"{param} is not a cursor this list gave out", param=param) from None


def _first_index(keys: Sequence[Any], below: Callable[[Any], bool]) -> int:
    """First index whose key satisfies `below`; keys descend, so it holds for a suffix."""
    lo, hi = 0, len(keys)
    while lo < hi:
        mid = (lo + hi) // 2
        if below(keys[mid]):
            hi = mid
        else:
            lo = mid + 1
    return lo


def shape(record: dict[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    """Apply the common `include` / `exclude` parameters to one record."""
    include, exclude = params.get("include"), params.get("exclude")
    if include:
        wanted = _field_list(include, "include")
        record = {k: v for k, v in record.items() if k in wanted}
    if exclude:
        unwanted = _field_list(exclude, "exclude")
        record = {k: v for k, v in record.items() if k not in unwanted}
    return record


def _field_list(raw: object, param: str) -> set[str]:
    if not isinstance(raw, str):
        raise bad_request(f"{param} must be a comma-separated string of field names", param=param)
    return {f.strip() for f in raw.split(",") if f.strip()}
