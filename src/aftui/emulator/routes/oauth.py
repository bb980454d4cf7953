"""Client credentials for access tokens, and their revocation (no bearer needed)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..auth import issue_token, revoke_token
from ..errors import ApiProblem, bad_request, missing
from ..http import core_of, json_response, read_params
from ..store import OAuthClient


async def _form_or_json(request: Request) -> dict[str, Any]:
    """OAuth clients send form-encoded bodies as often as JSON; take both."""
    if request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        # Parsed here rather than with request.form(), which needs python-multipart.
        body = (await request.body()).decode("utf-8", errors="replace")
        return dict(parse_qsl(body, keep_blank_values=True))
    return await read_params(request)


def _client(request: Request, params: dict[str, Any]) -> OAuthClient:
    client_id, secret = _string(params, "client_id"), _string(params, "client_secret")
    client = core_of(request).store.oauth_clients.get(client_id)
    if client is None or client.client_secret != secret:
        raise ApiProblem(401, "invalid client_id or client_secret", code="invalid_client")
    return client


def _string(params: dict[str, Any], name: str) -> str:
    value = params.get(name)
    if not value:
        raise missing(name)
    if not isinstance(value, str):
        raise bad_request(f"{name} must be a string", param=name)
    return value


async def token(request: Request) -> Response:
    params = await _form_or_json(request)
    grant = params.get("grant_type")
    if not grant:
        raise missing("grant_type")
    if grant != "client_credentials":
        raise bad_request("grant_type must be client_credentials", param="grant_type")
    client = _client(request, params)
    core = core_of(request)
    return json_response(issue_token(core.store, core.secret, client, core.settings.token_lifetime))


async def revoke(request: Request) -> Response:
    params = await _form_or_json(request)
    value = _string(params, "token")
    _client(request, params)
    core = core_of(request)
    revoke_token(core.store, core.secret, value)  # revoking an unknown token is not an error (RFC 7009)
    return json_response({})


def routes() -> list[Route]:
    return [Route("/oauth/token", token, methods=["POST"]), Route("/oauth/revoke", revoke, methods=["POST"])]
