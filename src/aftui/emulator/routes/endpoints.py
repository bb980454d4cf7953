"""`{root_url}/e/{key}`: HTTP sources and workflows' HTTP triggers, any method."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..errors import ApiProblem
from ..http import core_of, json_response

MAX_BODY = 5 * 1024 * 1024
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]


async def request_event(request: Request, path: str) -> dict[str, Any]:
    """The event an HTTP interface emits: method, path, query, headers, body, bodyRaw."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ApiProblem(413, f"request body is larger than {MAX_BODY // (1024 * 1024)} MB", code="too_large")
    text = raw.decode("utf-8", errors="replace")
    return {
        "method": request.method,
        "path": path,
        "query": dict(request.query_params),
        "headers": {k.lower(): v for k, v in request.headers.items() if k.lower() != "authorization"},
        "body": _parse_body(text, request.headers.get("content-type", "")),
        "bodyRaw": text,
    }


def _parse_body(text: str, content_type: str) -> Any:
    if not text:
        return None
    if "json" in content_type or text.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(text)
        except (ValueError, RecursionError):  # too deep to keep as JSON: kept as the text it came as
            return text
    if content_type.startswith("application/x-www-form-urlencoded"):
        return dict(parse_qsl(text))
    return text


async def endpoint(request: Request) -> Response:
    core = core_of(request)
    key = request.path_params["key"]
    rest = request.path_params.get("rest", "")
    event = await request_event(request, "/" + rest if rest else "/")
    status, headers, body = await core.runtime.handle_endpoint(key, event)
    if isinstance(body, (dict, list)):
        return json_response(body, status, headers)
    media = None if any(k.lower() == "content-type" for k in headers) else "text/plain"
    return Response(str(body), status_code=status, headers=headers, media_type=media)


def root_routes() -> list[Route]:
    return [
        Route("/e/{key}", endpoint, methods=METHODS),
        Route("/e/{key}/{rest:path}", endpoint, methods=METHODS),
    ]
