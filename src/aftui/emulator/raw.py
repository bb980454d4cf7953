"""Documents the emulator serves byte for byte: what a hostile or broken service could send.

Python's `json.dumps` cannot write JSON nested 10,000 deep (RecursionError)
and never writes invalid UTF-8, yet a real service's payloads may hold
either. A `RawJson` stands in a response body as a unique placeholder
string; `encode` writes the body and swaps each placeholder for the raw
bytes. Only the hostile data set (`hostile.py`) makes them.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

_PREFIX = "\x00aftui-raw-json-"
_PLACEHOLDER = re.compile(rb'"\\u0000aftui-raw-json-(\d+)"')
_raw: dict[int, bytes] = {}
_ids = itertools.count(1)


class RawJson(str):
    """A placeholder (a str, so every JSON writer takes it) for a raw JSON document."""

    raw: bytes

    def __new__(cls, raw: bytes) -> RawJson:
        ident = next(_ids)
        _raw[ident] = raw
        made = super().__new__(cls, f"{_PREFIX}{ident}")
        made.raw = raw
        return made

    def preview(self) -> str:
        """The document as text, for places that cut it to a prefix (truncated summaries)."""
        return self.raw.decode("utf-8", "replace")


def encode(text: str) -> bytes:
    """`text` (JSON written by `json.dumps`) as bytes, each placeholder replaced by its raw document."""
    data = text.encode("utf-8", "surrogatepass")
    if not _raw or b"aftui-raw-json-" not in data:
        return data
    return _PLACEHOLDER.sub(lambda m: _raw.get(int(m.group(1)), b"null"), data)


def is_raw(value: Any) -> bool:
    return isinstance(value, RawJson)
