"""Connect without a screen: reads under its rate limit, and end users as the accounts tell them.

Connect allows 100 account reads a minute across all its account
endpoints; a 429 is given back with how long to wait in its message, to be
shown where the list or the account would be. The Connect API has no list
of end users: they are the accounts of one listing pass, grouped by
`external_id`, so there is never a request per user.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from pydantic import BaseModel

from .api import Client, RateLimitError, iterate
from .api.models import Account, Page
from .urls import webhook_url_problem

R = TypeVar("R")


def throttled(error: RateLimitError) -> RateLimitError:
    """The server's message with how long to wait, for showing in place of what could not load."""
    wait = f"; try again in {error.retry_after:g} s" if error.retry_after is not None else "; try again in a minute"
    message = f"{error.message} — Connect allows 100 account reads a minute{wait}"
    return RateLimitError(
        message,
        retry_after=error.retry_after,
        status=error.status,
        method=error.method,
        url=error.url,
        request_id=error.request_id,
    )


async def connect_read(call: Awaitable[R]) -> R:
    """Await a Connect account read; a 429 comes back with the retry-after in its message."""
    try:
        return await call
    except RateLimitError as error:
        raise throttled(error) from None


async def connect_read_all(client: Client, **filters: Any) -> AsyncIterator[Account]:
    """Every Connect account matching `filters`, page by page (a 429 says how long to wait)."""

    async def page(**params: Any) -> Page[Account]:
        return await connect_read(client.list_connect_accounts(**filters, **params))

    async for account in iterate(page):
        yield account


class EndUser(BaseModel):
    """One end user of the project, as its accounts tell it."""

    external_id: str
    accounts: list[Account]

    @property
    def count(self) -> int:
        return len(self.accounts)

    @property
    def healthy(self) -> int:
        return sum(1 for a in self.accounts if a.healthy)

    @property
    def dead(self) -> int:
        return sum(1 for a in self.accounts if a.dead)

    @property
    def failing(self) -> int:
        """Neither healthy nor dead: its test request fails, and the account is still there to be fixed."""
        return sum(1 for a in self.accounts if not a.healthy and not a.dead)

    @property
    def apps(self) -> list[str]:
        return sorted(
            {(a.app.name or a.app.name_slug or a.app.id) for a in self.accounts if a.app is not None}, key=str.lower
        )


def group_end_users(accounts: list[Account]) -> list[EndUser]:
    groups: dict[str, list[Account]] = {}
    for account in accounts:
        groups.setdefault(account.external_id or "", []).append(account)
    return sorted((EndUser(external_id=k, accounts=v) for k, v in groups.items()), key=lambda u: u.external_id.lower())


# --- what a connect token is asked for with: the TUI's form and `aftui create token` check alike -------------

MAX_EXTERNAL_ID = 250  # the service's limit (characters)


def external_id_problem(value: str) -> str | None:
    if not value:
        return "An external user id is required: your own id for the end user."
    if len(value) > MAX_EXTERNAL_ID:
        return f"At most {MAX_EXTERNAL_ID} characters (this one has {len(value)})."
    return None


# Schemes that run or carry content where the hosted page sends the end user, not a place to go back to.
UNSAFE_SCHEMES = frozenset({"javascript", "data", "vbscript", "file", "blob"})
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


def redirect_problem(uri: str) -> str | None:
    """A redirect may go to an app's own scheme (myapp://done), so an absolute URI of any other scheme is
    accepted; http only to this machine (a developer's), where it carries no end user's session in clear."""
    if not uri:
        return None
    if any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in uri):
        return "The URI must not contain spaces or control characters."
    try:
        parts = urlsplit(uri)
    except ValueError:
        return "This is not a valid URI."
    if not parts.scheme or not (parts.netloc or parts.path):
        return "Give an absolute URI, such as https://app.example.com/connected."
    scheme = parts.scheme.lower()
    if scheme in UNSAFE_SCHEMES:
        return f"A {scheme}: URI is no place to send the end user: give https://… or your app's own scheme."
    if scheme == "http" and (parts.hostname or "") not in LOOPBACK_HOSTS:
        return "Use https:// (http:// only to localhost, while developing)."
    return None


def webhook_uri_problem(uri: str) -> str | None:
    """The service POSTs the outcome of the flow to it: an http(s) URL, checked as webhook URLs are."""
    return webhook_url_problem(uri) if uri else None
