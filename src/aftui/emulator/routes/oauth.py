"""Client credentials for access tokens, and their revocation (no bearer needed)."""

from __future__ import annotations

from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..auth import issue_token, revoke_token
from ..errors import ApiProblem, bad_request, missing
from ..http import json_response, read_params


async def _form_or_json(request: Request) -> dict:
    """OAuth clients send form-encoded bodies as often as JSON; take both."""
    if request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        # Parsed here rather than with request.form(), which needs python-multipart.
        body = (await request.body()).decode("utf-8", errors="replace")
        return dict(parse_qsl(body, keep_blank_values=True))
    return await read_params(request)


def _client(request: Request, params: dict):
    em = request.app.state.emulator
    client_id, secret = params.get("client_id"), params.get("client_secret")
    for name, value in (("client_id", client_id), ("client_secret", secret)):
        if not value:
            raise missing(name)
        if not isinstance(value, str):
            raise bad_request(f"{name} must be a string", param=name)
    client = em.store.oauth_clients.get(client_id)
    if client is None or client.client_secret != secret:
        raise ApiProblem(401, "invalid client_id or client_secret", code="invalid_client")
    return client


async def token(request: Request) -> Response:
    params = await _form_or_json(request)
    grant = params.get("grant_type")
    if not grant:
        raise missing("grant_type")
    if grant != "client_credentials":
        raise bad_request("grant_type must be client_credentials", param="grant_type")
    client = _client(request, params)
    em = request.app.state.emulator
    return json_response(issue_token(em.store, em.secret, client, em.settings.token_lifetime))


async def revoke(request: Request) -> Response:
    params = await _form_or_json(request)
    value = params.get("token")
    if not value:
        raise missing("token")
    if not isinstance(value, str):
        raise bad_request("token must be a string", param="token")
    _client(request, params)
    em = request.app.state.emulator
    revoke_token(em.store, em.secret, value)  # revoking an unknown token is not an error (RFC 7009)
    return json_response({})


def routes() -> list[Route]:
    return [Route("/oauth/token", token, methods=["POST"]), Route("/oauth/revoke", revoke, methods=["POST"])]
