"""Request plumbing shared by every route: parameters, auth, JSON answers."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from . import raw
from .auth import Principal, authenticate
from .core import Core
from .errors import ApiProblem, bad_request, missing, needs_user_key
from .events import dumps
from .store import Store


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(raw.encode(dumps(body)), status_code=status, media_type="application/json", headers=headers)


def problem_response(problem: ApiProblem) -> Response:
    return json_response(problem.body(), problem.status, problem.headers)


def core_of(request: Request) -> Core:
    """The emulator core the server put on the app (`server.build_app`)."""
    core = request.app.state.emulator
    assert isinstance(core, Core)
    return core


@dataclass
class Ctx:
    """One authenticated API request: the caller, its parameters and the emulator it reaches."""

    request: Request
    core: Core
    principal: Principal
    params: dict[str, Any]

    @property
    def store(self) -> Store:
        return self.core.store

    def path(self, name: str) -> str:
        return str(self.request.path_params[name])

    def str_param(self, name: str, *, required: bool = False, max_len: int | None = None) -> str | None:
        value = self.params.get(name)
        if value is None or value == "":
            if required:
                raise missing(name)
            return None if value is None else ""
        if not isinstance(value, str):
            raise bad_request(f"{name} must be a string", param=name)
        if max_len is not None and len(value) > max_len:
            raise bad_request(f"{name} must be at most {max_len} characters (got {len(value)})", param=name)
        return value

    def bool_param(self, name: str, default: bool | None = None) -> bool | None:
        value = self.params.get(name)
        if value is None or value == "":
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "1", "false", "0"):
            return value.lower() in ("true", "1")
        raise bad_request(f"{name} must be a boolean (true or false)", param=name)


async def read_params(request: Request) -> dict[str, Any]:
    """Query string, overlaid by a JSON object body where one is sent."""
    params: dict[str, Any] = dict(request.query_params)
    body = await request.body()
    if body.strip():
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            raise ApiProblem(400, "request body is not valid JSON", code="invalid_json") from None
        except RecursionError:
            raise ApiProblem(400, "request body is nested too deeply", code="invalid_json") from None
        if not isinstance(data, dict):
            raise ApiProblem(400, "request body must be a JSON object", code="invalid_json")
        params.update(data)
    return params


Handler = Callable[[Ctx], Awaitable[Response]]


def api_route(path: str, methods: list[str], handler: Handler, *, user_key_only: bool = False) -> Route:
    """A versioned API route with bearer auth; `user_key_only` answers 403 to OAuth tokens."""

    async def endpoint(request: Request) -> Response:
        core = core_of(request)
        principal = authenticate(core.store, core.secret, request.headers.get("authorization"))
        if user_key_only and not principal.is_user_key:
            raise needs_user_key(f"{request.method} {path}")
        params = await read_params(request)
        return await handler(Ctx(request, core, principal, params))

    return Route(path, endpoint, methods=methods)
