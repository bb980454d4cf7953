"""Strings from the service, made safe to print.

Everything the service sends is untrusted: a name or a payload may carry
escape sequences that would move the cursor, retitle the window or write
the clipboard, bidi overrides that reorder what is shown, or zero-width
characters that hide text. `visible` turns each of those into a printable
escape, so what reaches the terminal is inert text the user can read.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rich.cells import cell_len

# C0 and C1 controls, DEL, bidi embeddings/overrides/isolates, zero-width and BOM.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\x1b": "\\e"}


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    named = _NAMED.get(char)
    if named:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: object, limit: int | None = None) -> str:
    """`text` on one line with every control or invisible character shown as an escape."""
    value = text if isinstance(text, str) else str(text)
    if limit is not None and len(value) > limit * 4:
        value = value[: limit * 4]  # bound the work on a 10 MB string before escaping
    value = _UNSAFE.sub(_escape, value)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates, as invalid UTF-8 decodes to: print their escapes
        value = value.encode("utf-8", "backslashreplace").decode("utf-8")
    return clip(value, limit) if limit is not None else value


def pad(text: str, width: int) -> str:
    """`text` padded with spaces to `width` columns (`str.ljust` counts characters: CJK names misaligned)."""
    return text + " " * max(0, width - cell_len(text))


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


# What json.dumps leaves raw with ensure_ascii=False and a terminal would act on or hide:
# C1 controls, bidi overrides, zero-width characters, lone surrogates (C0 controls json escapes itself).
_INVISIBLE = re.compile(r"[\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb\ud800-\udfff]")


def safe_json(value: Any, *, indent: int | None = 2) -> str:
    """JSON text of a payload, readable (non-ASCII kept) but with every invisible or reordering
    character written as a \\u escape: the same JSON value, safe to show and to edit."""
    text = json.dumps(value, indent=indent, ensure_ascii=False, default=str)
    return _INVISIBLE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)
