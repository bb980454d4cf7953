"""Answer variants: the same records in the other shapes the real service is known to send.

The emulator answers as the spec documents (docs/emulator.md); the service's newer clients read
answers of other shapes, so the client must too. With a variant on (`POST /_emulator/variants`),
every JSON answer (2xx) under the variant's path is rewritten on its way out:

| Shape | Does |
|---|---|
| `bare` | a single record comes without its `{data: ...}` wrapper (a Connect account as the newer clients read it) |
| `nested` | a list comes as `data: {<name>: [...]}`, the name the path's last word (`accounts`, `sources`, `event_summaries`) |
| `nulls` | every field of every record but its `id` is null |
| `null_leaves` | every value (strings, numbers, booleans, list items) at any depth of a record but an `id` is null |
| `extra` | every object of a record gains fields no spec names (`x_added`, an object) |
| `enums` | values of the fields that name a kind (`auth_type`, `type`, `source_type`, `environment`, `token_type`, `lang`) are ones no spec lists |

Controls and the SSE stream are never rewritten; error answers neither (their variants are faults).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import bad_request

SHAPES = ("bare", "nested", "nulls", "null_leaves", "extra", "enums")
ENUM_FIELDS = frozenset({"auth_type", "type", "source_type", "environment", "token_type", "lang"})
EXTRA = {"x_added": {"by": "a newer service", "n": 1}}


@dataclass
class Variant:
    shapes: tuple[str, ...]
    path: str = "/v1"

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> Variant:
        shapes = params.get("shapes")
        if isinstance(shapes, str):
            shapes = [shapes]
        if not isinstance(shapes, list) or not shapes or not all(s in SHAPES for s in shapes):
            raise bad_request(f"shapes must be a list of {', '.join(SHAPES)}", param="shapes")
        path = params.get("path", "/v1")
        if not isinstance(path, str) or not path.startswith("/"):
            raise bad_request("path must start with /", param="path")
        return cls(tuple(shapes), path.rstrip("/") or "/")

    def matches(self, path: str) -> bool:
        return path == self.path or path.startswith(self.path + "/") or self.path == "/"

    def describe(self) -> dict[str, Any]:
        return {"shapes": list(self.shapes), "path": self.path}


@dataclass
class Variants:
    active: list[Variant] = field(default_factory=list)

    def set(self, variant: Variant) -> None:
        self.active = [v for v in self.active if v.path != variant.path] + [variant]

    def clear(self) -> None:
        self.active.clear()

    def shapes_for(self, path: str) -> tuple[str, ...]:
        for variant in reversed(self.active):
            if variant.matches(path):
                return variant.shapes
        return ()


class VariantMiddleware:
    """Rewrites JSON answers in the active variant's shapes (buffered: these answers are small)."""

    def __init__(self, app: ASGIApp, variants: Variants) -> None:
        self.app = app
        self.variants = variants

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.variants.active or scope["path"].startswith("/_emulator"):
            await self.app(scope, receive, send)
            return
        shapes = self.variants.shapes_for(scope["path"])
        if not shapes:
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []

        async def buffered(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = dict(message.get("headers", []))
                if message["status"] >= 300 or not headers.get(b"content-type", b"").startswith(b"application/json"):
                    start = None
                    await send(message)
                    return
                start = message
                return
            if start is None:
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            body = rewrite(b"".join(chunks), shapes, scope["path"])
            kept = [(k, v) for k, v in start.get("headers", []) if k != b"content-length"]
            kept.append((b"content-length", str(len(body)).encode()))
            await send({**start, "headers": kept})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, buffered)


def rewrite(body: bytes, shapes: tuple[str, ...], path: str) -> bytes:
    try:
        document = json.loads(body)
    except ValueError:
        return body  # raw bytes of the hostile data set: served as they are
    if not isinstance(document, dict):
        return body
    records, relist = _records(document)
    for shape in shapes:
        if shape == "nulls":
            records = [
                {k: (v if k == "id" else None) for k, v in r.items()} if isinstance(r, dict) else r for r in records
            ]
        elif shape == "null_leaves":
            records = [_null_leaves(r, None) for r in records]
        elif shape == "extra":
            records = [_extra(r) for r in records]
        elif shape == "enums":
            records = [_enums(r) for r in records]
    document = relist(records)
    if "bare" in shapes and set(document) == {"data"} and isinstance(document["data"], dict):
        document = document["data"]
    if "nested" in shapes and isinstance(document.get("data"), list):
        document = {**document, "data": {_list_name(path): document["data"]}}
    return json.dumps(document).encode()


def _records(document: dict[str, Any]) -> tuple[list[Any], Any]:
    """The records of an answer, and how to put changed ones back."""
    data = document.get("data")
    if isinstance(data, list):
        return data, lambda records: {**document, "data": records}
    if isinstance(data, dict) and isinstance(data.get("accounts"), list):
        return data["accounts"], lambda records: {**document, "data": {**data, "accounts": records}}
    if isinstance(data, dict):
        return [data], lambda records: {**document, "data": records[0]}
    return [document], lambda records: records[0]  # a record at the top (a workflow, a token, search results)


def _null_leaves(value: Any, key: str | None) -> Any:
    if isinstance(value, dict):
        return {k: _null_leaves(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_null_leaves(v, None) for v in value]
    return value if key == "id" else None


def _extra(value: Any) -> Any:
    if isinstance(value, dict):
        return {**{k: _extra(v) for k, v in value.items()}, **EXTRA}
    if isinstance(value, list):
        return [_extra(v) for v in value]
    return value


def _enums(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: (f"{v}_from_the_future" if k in ENUM_FIELDS and isinstance(v, str) else _enums(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_enums(v) for v in value]
    return value


def _list_name(path: str) -> str:
    words = [w for w in path.rstrip("/").split("/") if w and not w.startswith(("v1",)) and "_" not in w[:4]]
    return words[-1] if words else "items"
