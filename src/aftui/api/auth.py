"""Credentials on the wire: a user API key, or OAuth client credentials.

An OAuth token is cached and fetched again before it expires (at least two
minutes early) and once more when the service answers 401, so a token that
was revoked or expired behind our back costs one retry, not an error.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import httpx

from .errors import AuthError, NetworkError, ServerError, error_for

if TYPE_CHECKING:
    from .models import AccessToken

REFRESH_MARGIN_S = 120.0


class ApiKeyAuth:
    kind = "api_key"

    def __init__(self, api_key: str) -> None:
        self._key = api_key

    async def header(self, http: httpx.AsyncClient) -> str:
        return f"Bearer {self._key}"

    def invalidate(self) -> bool:
        """A 401 with a user key is final: nothing to refresh."""
        return False

    def __repr__(self) -> str:
        return "ApiKeyAuth(****)"


class OAuthAuth:
    kind = "oauth"

    def __init__(
        self,
        base_url: str,
        client_id: str,
        client_secret: str,
        *,
        margin_s: float = REFRESH_MARGIN_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._base_url = base_url.rstrip("/")
        self.client_id = client_id
        self._secret = client_secret
        self._margin = margin_s
        self._clock = clock
        self._token: AccessToken | None = None
        self._expires_at = 0.0
        self._lock = asyncio.Lock()
        self.fetches = 0  # how many tokens were issued to us, for tests and the status line

    @property
    def token(self) -> str | None:
        return self._token.access_token if self._token else None

    @property
    def expires_in(self) -> float | None:
        """Seconds the current token has left (None without one): what a credentials test reports."""
        return None if self._token is None else max(0.0, self._expires_at - self._clock())

    async def header(self, http: httpx.AsyncClient) -> str:
        async with self._lock:
            if self._token is None or self._clock() >= self._expires_at - self._margin:
                await self._fetch(http)
            assert self._token is not None
            return f"Bearer {self._token.access_token}"

    def invalidate(self) -> bool:
        """Forget the token after a 401; True: a fresh one may fix it."""
        self._token = None
        return True

    async def _fetch(self, http: httpx.AsyncClient) -> None:
        started = self._clock()
        body = {"grant_type": "client_credentials", "client_id": self.client_id, "client_secret": self._secret}
        response = await _post(http, f"{self._base_url}/oauth/token", body)
        from .models import AccessToken  # here: the models (pydantic) are not imported before the first screen

        try:
            token = AccessToken.model_validate(response.json())
        except ValueError:  # pydantic's ValidationError included: never a raw exception to the caller
            message = "the token endpoint sent an answer without a usable access token"
            raise ServerError(
                message, status=response.status_code, method="POST", url=f"{self._base_url}/oauth/token"
            ) from None
        self._token = token
        self._expires_at = started + token.expires_in
        self.fetches += 1

    async def revoke(self, http: httpx.AsyncClient) -> None:
        """Log out: revoke the current token at the service and forget it."""
        if self._token is None:
            return
        body = {"token": self._token.access_token, "client_id": self.client_id, "client_secret": self._secret}
        await _post(http, f"{self._base_url}/oauth/revoke", body)
        self._token = None

    def __repr__(self) -> str:
        return f"OAuthAuth(client_id={self.client_id!r}, secret=****)"


async def _post(http: httpx.AsyncClient, url: str, body: dict[str, str]) -> httpx.Response:
    try:
        response = await http.post(url, json=body)
    except httpx.TransportError as exc:
        raise NetworkError(f"cannot reach the token endpoint: {type(exc).__name__}", method="POST", url=url) from None
    if response.status_code >= 400:
        error = error_for(response)
        if isinstance(error, AuthError) or response.status_code == 400:
            raise AuthError(
                f"OAuth client credentials refused: {error.message}", status=error.status, method="POST", url=url
            )
        raise error
    try:
        response.json()
    except ValueError:
        raise ServerError(
            "the token endpoint answered with something that is not JSON",
            status=response.status_code,
            method="POST",
            url=url,
        ) from None
    return response
