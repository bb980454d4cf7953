"""Editing a payload before it is replayed: a JSON merge patch (RFC 7386) and `path = value` assignments.

A merge patch says what to change by example: `{"customer_email": "ops@x.io",
"debug": null}` sets one field and removes another, nested objects merge,
anything else (arrays included) replaces. An assignment changes one place:
`customer.email = "ops@x.io"`, `items[0].quantity = 2`, `["odd.key"] = true`.
The value is JSON when it reads as JSON (`2`, `true`, `null`, `"2"`,
`{...}`), else the text itself as a string (`= ops@x.io`).

No Textual here: `aftui replay --patch/--set` and the TUI's editor share it.
Every problem is a `PatchError` naming what is wrong, raised before
anything is sent.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Change",
    "Edit",
    "PatchError",
    "apply_edits",
    "changes",
    "merge_patch",
    "parse_assignment",
    "parse_edit",
    "parse_patch",
    "set_path",
]

Path = list[str | int]


class PatchError(ValueError):
    """A patch or an assignment that cannot be read or applied."""


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: `patch` applied to `target` (neither is changed; the result shares nothing with them)."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result: dict[str, Any] = copy.deepcopy(target) if isinstance(target, dict) else {}
    for name, value in patch.items():
        if value is None:
            result.pop(name, None)
        else:
            result[name] = merge_patch(result.get(name), value)
    return result


def parse_patch(text: str) -> Any:
    """The JSON text of a merge patch (an object, as a patch that is not one replaces the whole payload)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise PatchError(
            f"the patch is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    except RecursionError:
        raise PatchError("the patch is nested too deep") from None
    return value


_STEP = re.compile(r"""\s*(?:\.?\s*([A-Za-z_$][\w$-]*)|\[\s*(-?\d+)\s*\]|\[\s*("(?:[^"\\]|\\.)*")\s*\])""")


def parse_path(text: str) -> Path:
    """`a.b[0]["c.d"]` -> ["a", "b", 0, "c.d"]; a leading `$` or `.` is allowed."""
    source = text.strip()
    if source.startswith("$"):
        source = source[1:]
    path: Path = []
    at = 0
    while at < len(source):
        match = _STEP.match(source, at)
        if match is None or match.end() == at:
            raise PatchError(f'cannot read the path {text!r} at {source[at:]!r} (write a.b[0] or ["odd.key"])')
        name, index, quoted = match.groups()
        if name is not None:
            path.append(name)
        elif index is not None:
            path.append(int(index))
        else:
            path.append(json.loads(quoted))
        at = match.end()
    if not path:
        raise PatchError(f"the path of {text!r} is empty: name a field (customer.email, items[0].sku)")
    return path


def parse_assignment(text: str) -> tuple[Path, Any]:
    """`path = value` -> (the path, the value: JSON when it reads as JSON, else the text)."""
    where, sep, raw = text.partition("=")
    if not sep:
        raise PatchError(f"{text!r} is not an assignment: write path = value (customer.email = ops@example.com)")
    if not where.strip():  # "the path of '' is empty" quoted nothing of what was typed
        raise PatchError(f"{text!r} names no field before =: write path = value (customer.email = ops@example.com)")
    path = parse_path(where)
    value_text = raw.strip()
    if not value_text:
        # A slip more often than a wish: `customer_email =` set "" on every payload, and they failed again.
        raise PatchError(f'nothing after = for {where.strip()}: write a value, or "" for an empty string')
    try:
        value: Any = json.loads(value_text)
    except json.JSONDecodeError:
        if value_text[:1] in ("{", "[", '"'):
            raise PatchError(
                f"the value of {where.strip()} looks like JSON but is not valid: {value_text[:60]!r}"
            ) from None
        value = value_text
    return path, value


def set_path(document: Any, path: Sequence[str | int], value: Any) -> Any:
    """A copy of `document` with `value` at `path`; missing object fields are created along the way.

    A list index must exist (`-1` is the last item; the length itself appends).
    """
    if not path:
        return copy.deepcopy(value)
    head, rest = path[0], path[1:]
    if isinstance(head, int):
        if not isinstance(document, list):
            raise PatchError(f"[{head}] indexes a list, but the value there is {_kind(document)}")
        items = copy.deepcopy(document)
        position = head if head >= 0 else len(items) + head
        if position == len(items) and head >= 0:
            items.append(set_path(None, rest, value))
            return items
        if not 0 <= position < len(items):
            raise PatchError(f"[{head}] is past the end of a list of {len(items)}")
        items[position] = set_path(items[position], rest, value)
        return items
    if document is None:
        document = {}
    if not isinstance(document, dict):
        raise PatchError(f"{head!r} names a field, but the value there is {_kind(document)}")
    result = copy.deepcopy(document)
    result[head] = set_path(result.get(head), rest, value)
    return result


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return "null" if value is None else "an object"


def apply_edits(payload: Any, patch: Any = None, assignments: Sequence[str] = ()) -> Any:
    """The payload with the merge patch applied, then each assignment in turn (nothing given: unchanged)."""
    result = copy.deepcopy(payload)
    if patch is not None:
        result = merge_patch(result, patch)
    for text in assignments:
        path, value = parse_assignment(text)
        try:
            result = set_path(result, path, value)
        except PatchError as error:
            raise PatchError(f"{text.strip()!r}: {error}") from None
    return result


# --- one line of edit, as the TUI's bulk replay takes it ------------------------------------------------


@dataclass(frozen=True)
class Edit:
    """A merge patch, assignments, or both: what one line typed in the TUI says to do to every payload."""

    patch: Any = None
    assignments: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return self.patch is None and not self.assignments

    def apply(self, payload: Any) -> Any:
        return apply_edits(payload, self.patch, self.assignments)


def parse_edit(text: str) -> Edit:
    """`{"a": 1}` is a merge patch; anything else is `path = value` assignments separated by `;`
    (a `;` inside quotes, brackets or braces belongs to the value). Every assignment is read here,
    so a bad one is said before any payload is looked at."""
    source = text.strip()
    if not source:
        return Edit()
    if source.startswith("{"):
        return Edit(patch=parse_patch(source))
    parts = [part.strip() for part in _split(source) if part.strip()]
    for part in parts:
        parse_assignment(part)
    return Edit(assignments=tuple(parts))


def _split(text: str) -> list[str]:
    parts, depth, quote, start, escaped = [], 0, "", 0, False
    for at, char in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth = max(0, depth - 1)
        elif char == ";" and depth == 0:
            parts.append(text[start:at])
            start = at + 1
    parts.append(text[start:])
    return parts


@dataclass(frozen=True)
class Change:
    """One place an edit changed: `path`, and the value before and after (`MISSING` where there was none)."""

    path: str
    before: Any
    after: Any

    @property
    def kind(self) -> str:
        if self.before is MISSING:
            return "added"
        if self.after is MISSING:
            return "removed"
        return "changed"


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
MAX_CHANGES = 200  # places listed per payload: a patch that replaces everything is not listed leaf by leaf


def changes(before: Any, after: Any, path: str = "") -> list[Change]:
    """Where `after` differs from `before`: objects are compared field by field, anything else as a whole."""
    out: list[Change] = []
    _diff(before, after, path, out)
    return out


def _diff(before: Any, after: Any, path: str, out: list[Change]) -> None:
    if len(out) >= MAX_CHANGES:
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for name in list(dict.fromkeys([*before, *after])):
            where = (
                f"{path}.{name}" if path and _plain(name) else (name if _plain(name) else f"{path}[{json.dumps(name)}]")
            )
            _diff(before.get(name, MISSING), after.get(name, MISSING), where, out)
        return
    if before is MISSING and after is MISSING:
        return
    if before is MISSING or after is MISSING or type(before) is not type(after) or before != after:
        out.append(Change(path or "$", before, after))


def _plain(name: str) -> bool:
    return re.fullmatch(r"[A-Za-z_$][\w$-]*", name) is not None
