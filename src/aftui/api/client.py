"""One async client of the whole service: the management API, Connect and OAuth.

Every request goes through `_send`, which adds auth, retries what may be
retried (idempotent requests on connection errors, 5xx and 429; a POST only
after a 429), bounds each attempt in time, and turns failures into the typed
errors of `errors.py`. Read-only is enforced here and nowhere else: a
mutating method of a read-only client raises before anything is sent.

Each method imports the models it builds where it builds them: pydantic and the models cost a start about
80 ms, and the first screen (Health) builds none (`list_json`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import re
import ssl
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, ParamSpec, TypeVar
from urllib.parse import quote

import httpx

from . import jsontext
from .auth import ApiKeyAuth, OAuthAuth
from .errors import (
    ApiError,
    AuthError,
    NetworkError,
    RateLimitError,
    ReadOnlyError,
    ServerError,
    error_for,
    transport_message,
)
from .paging import next_cursor
from .stream import Connection, SourceStream

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from pydantic import BaseModel

    from .models import (
        Account,
        App,
        Component,
        ComponentSearch,
        ConnectInfo,
        ConnectToken,
        EventSummary,
        Page,
        Source,
        Subscription,
        User,
        Webhook,
        Workflow,
        WorkspaceAccount,
    )

P = ParamSpec("P")
R = TypeVar("R")
M = TypeVar("M", bound="BaseModel")

IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
READS = frozenset({"GET", "HEAD", "OPTIONS"})  # what a read-only client may send
USER_AGENT = "aftui/0.1"
KEPT_EVENTS = 100  # what the service keeps of each source (its event window)


@dataclass(frozen=True)
class Timeouts:
    connect: float = 5.0
    read: float = 30.0
    total: float = 60.0  # one attempt, however slowly the bytes trickle in


class InFlight:
    """When each request still waiting for its answer was sent. Shared by a client and its twins, which send
    from other threads (the monitor's, Health's feeds): hence the lock."""

    def __init__(self) -> None:
        self._sent: dict[object, float] = {}
        self._lock = threading.Lock()
        # When the newest request that got an answer was sent: a network failure of one sent before it is old news
        # (held by a service that hung, it timed out after the service was back, and the header said
        # "unreachable" for 20 s over lists that loaded).
        self.heard_sent_at = float("-inf")
        # When the first request answered after a failure was sent: those sent before it and still waiting are not
        # waited on ("waiting 29 s for an answer" stayed half a minute after the service was back). Only after a
        # failure: one endpoint that hangs while the others answer is still told.
        self.back_sent_at = float("-inf")

    def sent(self) -> object:
        ticket = object()
        with self._lock:
            self._sent[ticket] = time.monotonic()
        return ticket

    def answered(self, ticket: object) -> None:
        with self._lock:
            self._sent.pop(ticket, None)

    def heard(self, sent_at: float, *, back: bool) -> None:
        """A request sent at `sent_at` (monotonic) was answered by the service; `back`: after a failure."""
        with self._lock:
            self.heard_sent_at = max(self.heard_sent_at, sent_at)
            if back:
                self.back_sent_at = max(self.back_sent_at, sent_at)

    def _oldest_sent(self) -> float | None:
        """When the oldest request waiting was sent, of those sent since the service was last back (lock held)."""
        return min((at for at in self._sent.values() if at > self.back_sent_at), default=None)

    def oldest(self) -> float:
        """Seconds the oldest has waited (0 when none waits), of those sent since the service was last back."""
        with self._lock:
            sent = self._oldest_sent()
            return time.monotonic() - sent if sent is not None else 0.0

    def answered_after_oldest(self) -> bool:
        """Whether a request sent after the oldest one waiting (as `oldest` counts them) got its answer: the
        service answers, only not that one (an endpoint that hangs; or, after a hang, what it still holds)."""
        with self._lock:
            sent = self._oldest_sent()
            return sent is not None and self.heard_sent_at > sent


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 4  # the first try included
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 60.0  # a longer Retry-After is the caller's to wait out

    def delay(self, attempt: int) -> float:
        """Full jitter: anywhere up to base * 2^n, so clients do not retry in step."""
        return random.uniform(0, min(self.max_delay, self.base_delay * 2 ** (attempt - 1)))


MUTATING: set[str] = set()


def mutating(action: str) -> Callable[[Callable[P, Awaitable[R]]], Callable[P, Awaitable[R]]]:
    """Mark a method that changes the service; a read-only client refuses it before sending."""

    def wrap(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
        MUTATING.add(method.__name__)

        @functools.wraps(method)
        async def checked(*args: P.args, **kwargs: P.kwargs) -> R:
            self = args[0]
            if getattr(self, "read_only", False):
                raise ReadOnlyError(action)
            return await method(*args, **kwargs)

        return checked

    return wrap


def _clean(params: dict[str, Any]) -> dict[str, Any]:
    """Drop unset parameters; booleans as the service spells them."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if value is None:
            continue
        out[key] = ("true" if value else "false") if isinstance(value, bool) else value
    return out


def failing_status(state: str) -> str | None:
    """The HTTP status of a `Client.status` of "failing 503" (the service answers every try with it), else None."""
    return state.removeprefix("failing ") if state.startswith("failing ") else None


def tls_for(base_url: str) -> ssl.SSLContext | bool:
    """What httpx verifies TLS with: the CA bundle for https; for plain HTTP (the emulator, a local proxy) a
    context that trusts no one. Loading the bundle costs about 30 ms a client at start, for nothing over HTTP,
    and a request that did leave for https would fail closed rather than go unverified."""
    if base_url.startswith("http://"):
        return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    return True


class Client:
    """The service's API. Use as `async with Client(...) as client:`."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        client_id: str | None = None,
        client_secret: str | None = None,
        org_id: str | None = None,
        project_id: str | None = None,
        environment: str = "production",
        read_only: bool = False,
        timeouts: Timeouts = Timeouts(),
        retry: RetryPolicy = RetryPolicy(),
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        # The version is the last path segment ("/v1"); "/v" elsewhere (a host named vault...) is not one.
        self.root_url = re.sub(r"/v\d+$", "", self.base_url)
        if api_key:
            self.auth: ApiKeyAuth | OAuthAuth = ApiKeyAuth(api_key)
        elif client_id and client_secret:
            self.auth = OAuthAuth(self.base_url, client_id, client_secret)
        else:
            raise ValueError("a client needs an api_key, or a client_id and client_secret")
        self.org_id = org_id
        self.project_id = project_id
        self.environment = environment
        self.read_only = read_only
        self.status = "connecting"
        self._status_listeners: list[Callable[[str], None]] = []
        self.in_flight = InFlight()  # a twin (the monitor's, Health's) shares it: the header hears of theirs too
        self.timeouts = timeouts
        self.retry = retry
        # Seconds a request may take with its retries and their waits (None: as long as they take); a
        # script's bound (`aftui --max-time`). Streams are not requests here: they are not cut.
        self.deadline: float | None = None
        # The service refused the key itself (401): whatever else a command read (the journal's rows, a "not
        # found" among what it could see) rests on that, and a script is told it (exit 3).
        self.key_refused: AuthError | None = None
        self._unanswered: str | None = None  # the request that ran out the deadline: the service hung
        # Once one request ran out the deadline, the command's later ones fail at once. Not for a command that
        # never gives up (tail): each of its reconnects is bounded, none refused.
        self.deadline_ends_all = True
        self._http = httpx.AsyncClient(
            timeout=httpx.Timeout(timeouts.read, connect=timeouts.connect),
            headers={"User-Agent": USER_AGENT},
            transport=transport,
            verify=tls_for(self.base_url),
        )

    @classmethod
    def from_profile(cls, profile: Any, **kwargs: Any) -> Client:
        """A client from an `aftui.config` profile, its secrets resolved now."""
        from ..config import resolve_secret

        creds = resolve_secret(profile)
        return cls(
            profile.base_url,
            api_key=creds.api_key,
            client_id=creds.client_id,
            client_secret=creds.client_secret,
            org_id=profile.org_id,
            project_id=profile.project_id,
            environment=profile.environment,
            read_only=profile.read_only,
            **kwargs,
        )

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    @property
    def uses_user_key(self) -> bool:
        return isinstance(self.auth, ApiKeyAuth)

    # --- the request pipeline -------------------------------------------------------------------

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json: Any = None,
        headers: dict[str, str] | None = None,
        root: bool = False,
    ) -> Any:
        """Send one API request and return its decoded JSON body (None when empty)."""
        if self.read_only and method.upper() not in READS:
            raise ReadOnlyError(f"{method.upper()} {path}")  # the raw door is shut too, not only the named methods
        url = (self.root_url if root else self.base_url) + path
        response = await self._send(method, url, params=_clean(params or {}), json=json, headers=headers or {})
        return _decode(response)

    async def _send(
        self, method: str, url: str, *, params: dict[str, Any], json: Any, headers: dict[str, str]
    ) -> httpx.Response:
        """`_exchange`, telling the status listeners how the connection is doing."""
        sent_at = time.monotonic()
        ticket = self.in_flight.sent()
        try:
            exchange = self._exchange(method, url, params=params, json=json, headers=headers, sent_at=sent_at)
            response = await self._bounded(exchange, method, url)
        except NetworkError:
            self._report("offline", sent_at)
            raise
        except AuthError as error:
            self._report("auth")
            if error.status == 401:
                self.key_refused = error
            raise
        except ServerError as error:
            # The service answered with a failure of its own (after the retries): every request failing with
            # a 503 read "● ok". A 200 whose body was not what was promised has no 5xx: the request failed.
            self._report(f"failing {error.status}" if error.status >= 500 else "ok", sent_at)
            raise
        except ApiError:
            self._report("ok", sent_at)  # the service answered; the request was what failed
            raise
        finally:
            self.in_flight.answered(ticket)
        self._report("ok", sent_at)
        return response

    def waiting_for(self) -> float:
        """Seconds the oldest request still in flight has waited for its answer (0 when none is).

        A service that stops answering without closing the connection is only told by a timeout, half a
        minute on: this says sooner that nothing comes back (a stream, which waits by design, is not counted)."""
        return self.in_flight.oldest()

    def answered_since_oldest_wait(self) -> bool:
        """Whether the service answered a request sent after the oldest one still waiting (`waiting_for`)."""
        return self.in_flight.answered_after_oldest()

    def add_status_listener(self, listener: Callable[[str], None]) -> None:
        """`listener(state)` on each change: "ok", "retrying", "offline", "auth", or "failing 503" (the service
        answered every attempt of a request with that 5xx)."""
        self._status_listeners.append(listener)

    def _report(self, state: str, sent_at: float | None = None) -> None:
        """The connection's state, as the request sent at `sent_at` found it. No answer ("offline", "retrying" after a
        network failure: `sent_at` given) from a request sent before one that was answered is old news
        (`InFlight.heard_sent_at`); a failure the service answered with (a 503) is news whenever it was sent."""
        if state == "ok" and sent_at is not None:
            self.in_flight.heard(sent_at, back=self.status not in ("ok", "connecting"))
        elif state in ("offline", "retrying") and sent_at is not None and sent_at < self.in_flight.heard_sent_at:
            return
        if state != self.status:
            self.status = state
            for listener in self._status_listeners:
                listener(state)

    async def _bounded(self, exchange: Awaitable[httpx.Response], method: str, url: str) -> httpx.Response:
        """`exchange` within the deadline, if one is set."""
        if self.deadline is None:
            return await exchange
        if self._unanswered is not None and self.deadline_ends_all:
            # Not asked: each request of `health` waited out the bound in turn against a service that hung,
            # and `--max-time 3` took 9 s. Once one has, the command's later requests fail at once.
            if isinstance(exchange, Coroutine):
                exchange.close()
            raise NetworkError(
                # The request that ran out named first read as this one's: it is said as the reason.
                f"not sent: --max-time had run out on an earlier request ({self._unanswered}, unanswered for "
                f"{self.deadline:g} s)",
                method=method,
                url=url,
            )
        try:
            async with asyncio.timeout(self.deadline):
                return await exchange
        except TimeoutError:
            self._unanswered = f"{method} {url}"
            raise NetworkError(
                f"no answer within {self.deadline:g} s, retries included", method=method, url=url
            ) from None

    async def _exchange(
        self, method: str, url: str, *, params: dict[str, Any], json: Any, headers: dict[str, str], sent_at: float
    ) -> httpx.Response:
        attempt, refreshed = 1, False
        while True:
            try:
                response = await self._attempt(method, url, params=params, json=json, headers=headers)
            except NetworkError as failure:
                if method not in IDEMPOTENT or attempt >= self.retry.attempts:
                    log.debug("%s %s: %s (attempt %d, final)", method, url, failure.message, attempt)
                    raise
                delay = self.retry.delay(attempt)
                log.debug("%s %s: %s (attempt %d); again in %.1f s", method, url, failure.message, attempt, delay)
                self._report("retrying", sent_at)
                await self._pause(delay)
                attempt += 1
                continue
            status = response.status_code
            # The path and status only (`--debug`): the key is in a header, and the path holds ids, not secrets.
            log.debug("%s %s: %d (attempt %d)", method, url, status, attempt)
            if status == 401 and not refreshed and self.auth.invalidate():
                refreshed = True  # once: a revoked or expired OAuth token gets one fresh token
                continue
            if status < 400:
                return response
            error = error_for(response)
            wait = self._retry_wait(method, error, attempt)
            if wait is None:
                raise error
            log.debug("%s %s: %d again in %.1f s", method, url, status, wait)
            # The service answered, with a failure: news, said as what it is. "retrying" (the header's
            # "reconnecting") for a 503 was the wrong word, and in a steady outage each request's first 503
            # turned "failing: HTTP 503" to "reconnecting" and back. A 429 while failing does not say more.
            if status >= 500:
                self._report(f"failing {status}")
            elif failing_status(self.status) is None:
                self._report("retrying")
            await self._pause(wait)
            attempt += 1

    async def _pause(self, seconds: float) -> None:
        """Wait between attempts (tests replace this to see the waits without sleeping)."""
        await asyncio.sleep(seconds)

    def _retry_wait(self, method: str, error: ApiError, attempt: int) -> float | None:
        """Seconds to wait before trying again, or None when this error is final."""
        if attempt >= self.retry.attempts:
            return None
        if isinstance(error, RateLimitError):
            if error.retry_after is None:
                return self.retry.delay(attempt)
            return error.retry_after if error.retry_after <= self.retry.max_retry_after else None
        if isinstance(error, ServerError) and error.status >= 500 and method in IDEMPOTENT:
            return self.retry.delay(attempt)
        return None

    async def _attempt(
        self, method: str, url: str, *, params: dict[str, Any], json: Any, headers: dict[str, str]
    ) -> httpx.Response:
        try:
            async with asyncio.timeout(self.timeouts.total):  # a token fetch, if one is due, is part of the attempt
                auth = await self.auth.header(self._http)
                return await self._http.request(
                    method, url, params=params, json=json, headers={**headers, "Authorization": auth}
                )
        except TimeoutError:
            raise NetworkError(f"no complete answer within {self.timeouts.total:g} s", method=method, url=url) from None
        except httpx.TimeoutException as exc:
            raise NetworkError(f"timed out ({type(exc).__name__})", method=method, url=url) from None
        except httpx.TransportError as exc:
            raise NetworkError(transport_message(exc), method=method, url=url) from None

    # --- shapes of answers -------------------------------------------------------------------------

    async def _one(self, model: type[M], method: str, path: str, **kwargs: Any) -> M:
        """A single record: `{data: {...}}` as the spec documents it, or the record bare, as newer services send it."""
        body = await self.request(method, path, **kwargs)
        return _validate(model, _record_of(body), method, path)

    async def _page(
        self, model: type[M], path: str, params: dict[str, Any], *, nested: str | None = None, **kwargs: Any
    ) -> Page[M]:
        """A page: `{page_info, data: [...]}`, or `data: {<name>: [...]}` (Connect's `accounts`, and any list so
        wrapped); `page_info` beside `data` or inside it. Null items are passed over."""
        from .models import Page, PageInfo, share_alike

        data, info_raw = await self._page_parts(path, params, nested, **kwargs)
        items = [_validate(model, item, "GET", path) for item in data]
        share_alike(items)
        info = _validate(PageInfo, info_raw, "GET", path)
        return Page[model](items=items, page_info=info)  # type: ignore[valid-type]

    async def _page_parts(
        self, path: str, params: dict[str, Any], nested: str | None = None, **kwargs: Any
    ) -> tuple[list[Any], dict[str, Any]]:
        """A page's items (null ones passed over) and its `page_info`, as the JSON they came in."""
        body = await self.request("GET", path, params=params, **kwargs)
        if not isinstance(body, dict):
            raise ServerError("the service sent a list answer without data", method="GET", url=path)
        data = body.get("data", [])
        info_raw = body.get("page_info")
        if isinstance(data, dict):
            info_raw = info_raw or data.get("page_info")
            data = _list_in(data, nested)
        if data is None:
            data = []
        if not isinstance(data, list):
            raise ServerError("the service sent a list answer whose data is not a list", method="GET", url=path)
        return [item for item in data if item is not None], info_raw if isinstance(info_raw, dict) else {}

    async def list_json(self, what: Literal["sources", "subscriptions"], *, most: int = 10_000) -> list[dict[str, Any]]:
        """Every source or subscription of the workspace (the user's, with none chosen), at most `most`, as the
        JSON objects they came in: no model is built, nor pydantic imported, for the first screen's lists
        (Health's), which read an id and a name, or a subscription's two ends. Items that are not objects are
        passed over; their fields are the service's, untrusted, and read as such by the caller."""
        path = f"/orgs/{_seg(self.org_id)}/{what}" if self.org_id else f"/users/me/{what}"
        found: list[dict[str, Any]] = []
        cursor: str | None = None
        seen: set[str] = set()
        while len(found) < most:
            params = {"limit": min(100, most - len(found)), "after": cursor}
            items, info = await self._page_parts(path, params)
            found += [item for item in items if isinstance(item, dict)][: most - len(found)]
            cursor = next_cursor(info.get("end_cursor"), bool(items), seen)
            if cursor is None:
                break
        return found

    def _org_params(self, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """`org_id` where the spec needs it with user keys; OAuth tokens carry their workspace."""
        out = dict(params or {})
        if self.uses_user_key and self.org_id and "org_id" not in out:
            out["org_id"] = self.org_id
        return out

    # --- users ---------------------------------------------------------------------------------------

    async def me(self) -> User:
        from .models import User

        return await self._one(User, "GET", "/users/me")

    # --- accounts and apps --------------------------------------------------------------------------------

    async def list_accounts(
        self,
        *,
        app: str | None = None,
        oauth_app_id: str | None = None,
        external_user_id: str | None = None,
        include_credentials: bool = False,
        limit: int | None = None,
        after: str | None = None,
        before: str | None = None,
    ) -> Page[Account]:
        from .models import Account

        params = _account_filters(app, oauth_app_id, external_user_id, include_credentials, limit, after, before)
        return await self._page(Account, "/accounts", params)

    async def get_account(self, account_id: str, *, include_credentials: bool = False) -> Account:
        from .models import Account

        return await self._one(
            Account, "GET", f"/accounts/{_seg(account_id)}", params={"include_credentials": include_credentials or None}
        )

    async def list_workspace_accounts(
        self,
        workspace_id: str,
        *,
        query: str | None = None,
        limit: int | None = None,
        after: str | None = None,
        before: str | None = None,
    ) -> Page[WorkspaceAccount]:
        from .models import WorkspaceAccount

        params = {"query": query, "limit": limit, "after": after, "before": before}
        return await self._page(WorkspaceAccount, f"/workspaces/{_seg(workspace_id)}/accounts", params)

    async def list_apps(
        self, *, q: str | None = None, limit: int | None = None, after: str | None = None, before: str | None = None
    ) -> Page[App]:
        from .models import App

        return await self._page(App, "/apps", {"q": q, "limit": limit, "after": after, "before": before})

    async def get_app(self, app_id_or_slug: str) -> App:
        from .models import App

        return await self._one(App, "GET", f"/apps/{_seg(app_id_or_slug)}")

    # --- components -------------------------------------------------------------------------------------

    @mutating("saving a component")
    async def create_component(self, *, code: str | None = None, url: str | None = None) -> Component:
        from .models import Component

        if not code and not url:
            raise ValueError("create_component needs code or url")
        body = self._org_params({"component_code": code, "component_url": url})
        return await self._one(Component, "POST", "/components", json=_clean(body))

    async def get_component(self, key_or_id: str) -> Component:
        from .models import Component

        return await self._one(Component, "GET", f"/components/{_seg(key_or_id)}")

    async def get_registry_component(self, key: str) -> Component:
        from .models import Component

        return await self._one(Component, "GET", f"/components/registry/{_seg(key)}")

    async def search_components(
        self,
        query: str,
        *,
        app: str | None = None,
        similarity_threshold: float | None = None,
        debug: bool = False,
        limit: int | None = None,
    ) -> ComponentSearch:
        from .models import ComponentSearch

        params = {
            "query": query,
            "app": app,
            "similarity_threshold": similarity_threshold,
            "debug": debug or None,
            "limit": limit,
        }
        return await self._one(ComponentSearch, "GET", "/components/search", params=params)

    # --- sources ------------------------------------------------------------------------------------------

    @mutating("deploying a source")
    async def deploy_source(
        self,
        *,
        component_id: str | None = None,
        component_code: str | None = None,
        component_url: str | None = None,
        key: str | None = None,
        name: str | None = None,
        configured_props: dict[str, Any] | None = None,
    ) -> Source:
        from .models import Source

        body = {
            "component_id": component_id,
            "component_code": component_code,
            "component_url": component_url,
            "key": key,
            "name": name,
            "configured_props": configured_props,
        }
        return await self._one(Source, "POST", "/sources", json=_clean(self._org_params(body)))

    @mutating("updating a source")
    async def update_source(
        self,
        source_id: str,
        *,
        component_id: str | None = None,
        component_code: str | None = None,
        component_url: str | None = None,
        name: str | None = None,
        configured_props: dict[str, Any] | None = None,
        active: bool | None = None,
    ) -> Source | None:
        """PUT /sources/{id}; the spec does not show the answer, so it may be None."""
        from .models import Source

        body = {
            "component_id": component_id,
            "component_code": component_code,
            "component_url": component_url,
            "name": name,
            "configured_props": configured_props,
            "active": active,
        }
        answer = await self.request(
            "PUT", f"/sources/{_seg(source_id)}", json={k: v for k, v in body.items() if v is not None}
        )
        data = _record_of(answer)
        return (
            _validate(Source, data, "PUT", f"/sources/{_seg(source_id)}")
            if isinstance(data, dict) and "id" in data
            else None
        )

    @mutating("activating or deactivating a source")
    async def set_source_active(self, source_id: str, active: bool) -> Source | None:
        return await self.update_source(source_id, active=active)

    @mutating("deleting a source")
    async def delete_source(self, source_id: str) -> None:
        await self.request("DELETE", f"/sources/{_seg(source_id)}")

    async def get_source(self, source_id: str) -> Source:
        """GET /sources/{id}: not in the spec's table, served by the real service and the emulator."""
        from .models import Source

        return await self._one(Source, "GET", f"/sources/{_seg(source_id)}")

    async def list_sources(
        self, *, limit: int | None = None, after: str | None = None, before: str | None = None
    ) -> Page[Source]:
        """The caller's sources (`/users/me/sources`; user API keys only)."""
        from .models import Source

        return await self._page(Source, "/users/me/sources", {"limit": limit, "after": after, "before": before})

    async def list_workspace_sources(
        self,
        org_id: str | None = None,
        *,
        limit: int | None = None,
        after: str | None = None,
        before: str | None = None,
    ) -> Page[Source]:
        from .models import Source

        org = org_id or self._need_org()
        return await self._page(
            Source, f"/orgs/{_seg(org)}/sources", {"limit": limit, "after": after, "before": before}
        )

    # --- events ---------------------------------------------------------------------------------------------

    async def list_source_events(
        self,
        source_id: str,
        *,
        limit: int | None = None,
        expand: bool = False,
        channel: str | None = None,
        after: str | None = None,
        before: str | None = None,
    ) -> Page[EventSummary]:
        from .models import EventSummary

        params = {
            "limit": limit,
            "expand": "event" if expand else None,
            "channel": channel,
            "after": after,
            "before": before,
        }
        return await self._page(EventSummary, f"/sources/{_seg(source_id)}/event_summaries", params)

    @mutating("deleting events")
    async def delete_source_events(
        self, source_id: str, *, start_id: str | None = None, end_id: str | None = None
    ) -> None:
        """Accepted (202); the service removes the events shortly after."""
        await self.request(
            "DELETE", f"/sources/{_seg(source_id)}/events", params={"start_id": start_id, "end_id": end_id}
        )

    async def list_workflow_events(
        self,
        workflow_id: str,
        *,
        limit: int | None = None,
        expand: bool = False,
        after: str | None = None,
        before: str | None = None,
    ) -> Page[EventSummary]:
        from .models import EventSummary

        params = {"limit": limit, "expand": "event" if expand else None, "after": after, "before": before}
        return await self._page(EventSummary, f"/workflows/{_seg(workflow_id)}/event_summaries", params)

    async def list_workflow_errors(
        self,
        workflow_id: str,
        *,
        limit: int | None = None,
        expand: bool = False,
        after: str | None = None,
        before: str | None = None,
    ) -> Page[EventSummary]:
        from .models import EventSummary

        params = {"limit": limit, "expand": "event" if expand else None, "after": after, "before": before}
        return await self._page(EventSummary, f"/workflows/{_seg(workflow_id)}/$errors/event_summaries", params)

    # --- subscriptions and webhooks ----------------------------------------------------------------------------

    @mutating("creating a subscription")
    async def subscribe(self, emitter_id: str, listener_id: str, event_name: str | None = None) -> Subscription:
        from .models import Subscription

        params = self._org_params({"emitter_id": emitter_id, "listener_id": listener_id, "event_name": event_name})
        body = await self.request("POST", "/subscriptions", params=params)
        data = _record_of(body)
        # The spec does not show the answer's fields; what was asked for is what exists, where the answer is silent.
        asked = {"emitter_id": emitter_id, "listener_id": listener_id, "event_name": event_name or ""}
        if isinstance(data, dict):
            return _validate(
                Subscription, {**asked, **{k: v for k, v in data.items() if v is not None}}, "POST", "/subscriptions"
            )
        return Subscription(**asked)

    @mutating("deleting a subscription")
    async def unsubscribe(self, emitter_id: str, listener_id: str, event_name: str | None = None) -> None:
        # event_name= (empty) names a subscription without an event name; it must be sent.
        params = {"emitter_id": emitter_id, "listener_id": listener_id, "event_name": event_name or ""}
        await self.request("DELETE", "/subscriptions", params=params)

    @mutating("creating an auto-subscription")
    async def auto_subscribe(self, event_name: str, listener_id: str) -> dict[str, Any]:
        """Only sources and workflows created after this call are subscribed.

        The answer's fields, with what was asked for where it is silent (a field missing or null): a
        caller reads `event_name` and `listener_id` either way.
        """
        params = self._org_params({"event_name": event_name, "listener_id": listener_id})
        body = await self.request("POST", "/auto_subscriptions", params=params)
        data = _record_of(body)
        asked: dict[str, Any] = {"event_name": event_name, "listener_id": listener_id}
        if isinstance(data, dict):
            return {**asked, **{k: v for k, v in data.items() if v is not None}}
        return asked

    async def list_subscriptions(
        self, *, limit: int | None = None, after: str | None = None, before: str | None = None
    ) -> Page[Subscription]:
        from .models import Subscription

        return await self._page(
            Subscription, "/users/me/subscriptions", {"limit": limit, "after": after, "before": before}
        )

    async def list_workspace_subscriptions(
        self,
        org_id: str | None = None,
        *,
        limit: int | None = None,
        after: str | None = None,
        before: str | None = None,
    ) -> Page[Subscription]:
        from .models import Subscription

        org = org_id or self._need_org()
        return await self._page(
            Subscription, f"/orgs/{_seg(org)}/subscriptions", {"limit": limit, "after": after, "before": before}
        )

    @mutating("creating a webhook")
    async def create_webhook(self, url: str, *, name: str | None = None, description: str | None = None) -> Webhook:
        from .models import Webhook

        params = self._org_params({"url": url, "name": name, "description": description})
        return await self._one(Webhook, "POST", "/webhooks", params=params)

    async def list_webhooks(
        self, *, limit: int | None = None, after: str | None = None, before: str | None = None
    ) -> Page[Webhook]:
        from .models import Webhook

        return await self._page(Webhook, "/users/me/webhooks", {"limit": limit, "after": after, "before": before})

    @mutating("deleting a webhook")
    async def delete_webhook(self, webhook_id: str) -> None:
        await self.request("DELETE", f"/webhooks/{_seg(webhook_id)}")

    # --- workflows ----------------------------------------------------------------------------------------------

    @mutating("creating a workflow")
    async def create_workflow(
        self,
        template_id: str,
        *,
        project_id: str | None = None,
        steps: list[dict[str, Any]] | None = None,
        triggers: list[dict[str, Any]] | None = None,
        name: str | None = None,
        auto_deploy: bool | None = None,
    ) -> Workflow:
        """Steps are addressed by namespace (`{namespace, props}`), triggers by index (`{props}`)."""
        from .models import Workflow

        settings = {k: v for k, v in {"name": name, "auto_deploy": auto_deploy}.items() if v is not None}
        body = self._org_params(
            {
                "template_id": template_id,
                "project_id": project_id,
                "steps": steps,
                "triggers": triggers,
                "settings": settings or None,
            }
        )
        return await self._one(Workflow, "POST", "/workflows", json={k: v for k, v in body.items() if v is not None})

    async def get_workflow(self, workflow_id: str) -> Workflow:
        from .models import Workflow

        workflow = await self._one(Workflow, "GET", f"/workflows/{_seg(workflow_id)}", params=self._org_params())
        return workflow if workflow.id else workflow.model_copy(update={"id": workflow_id})

    @mutating("activating or deactivating a workflow")
    async def set_workflow_active(self, workflow_id: str, active: bool) -> None:
        await self.request("PUT", f"/workflows/{_seg(workflow_id)}", json=self._org_params({"active": active}))

    # --- OAuth ----------------------------------------------------------------------------------------------------

    async def revoke(self) -> None:
        """Log out: revoke the current OAuth token. Allowed in read-only profiles; a no-op with a user key."""
        if isinstance(self.auth, OAuthAuth):
            await self.auth.revoke(self._http)

    # --- Connect ------------------------------------------------------------------------------------------------------

    def _connect(self, path: str) -> str:
        if not self.project_id:
            raise ValueError("this profile has no project_id: set one to use Connect")
        return f"/connect/{_seg(self.project_id)}{path}"

    @property
    def _env_header(self) -> dict[str, str]:
        return {"X-PD-Environment": self.environment}

    @mutating("creating a connect token")
    async def create_connect_token(
        self,
        external_user_id: str,
        *,
        success_redirect_uri: str | None = None,
        error_redirect_uri: str | None = None,
        webhook_uri: str | None = None,
    ) -> ConnectToken:
        from .models import ConnectToken

        body = _clean(
            {
                "external_user_id": external_user_id,
                "success_redirect_uri": success_redirect_uri,
                "error_redirect_uri": error_redirect_uri,
                "webhook_uri": webhook_uri,
            }
        )
        path = self._connect("/tokens")
        token = await self._one(ConnectToken, "POST", path, json=body, headers=self._env_header)
        if not token.token:
            raise ServerError("the service sent a connect token without its token", method="POST", url=path)
        return token

    async def list_connect_accounts(
        self,
        *,
        app: str | None = None,
        oauth_app_id: str | None = None,
        external_user_id: str | None = None,
        include_credentials: bool = False,
        limit: int | None = None,
        after: str | None = None,
        before: str | None = None,
    ) -> Page[Account]:
        from .models import Account

        params = _account_filters(app, oauth_app_id, external_user_id, include_credentials, limit, after, before)
        return await self._page(
            Account, self._connect("/accounts"), params, nested="accounts", headers=self._env_header
        )

    async def get_connect_account(self, account_id: str, *, include_credentials: bool = False) -> Account:
        from .models import Account

        params = {"include_credentials": include_credentials or None}
        return await self._one(
            Account, "GET", self._connect(f"/accounts/{_seg(account_id)}"), params=params, headers=self._env_header
        )

    @mutating("deleting a connected account")
    async def delete_connect_account(self, account_id: str) -> None:
        await self.request("DELETE", self._connect(f"/accounts/{_seg(account_id)}"), headers=self._env_header)

    @mutating("deleting every account of an app")
    async def delete_connect_app_accounts(self, app_id: str) -> None:
        """`app_id`: an oauth_app_id for OAuth apps, the name slug for key-based apps."""
        await self.request("DELETE", self._connect(f"/apps/{_seg(app_id)}/accounts"), headers=self._env_header)

    @mutating("deleting an end user")
    async def delete_connect_user(self, external_user_id: str) -> None:
        """Deletes the end user and all their accounts."""
        # The id is the caller's own string: "/", "?", "#" or "%" in it must not change the path.
        path = self._connect(f"/users/{_seg(external_user_id)}")
        await self.request("DELETE", path, headers=self._env_header)

    async def connect_info(self) -> ConnectInfo:
        from .models import ConnectInfo

        return await self._one(ConnectInfo, "GET", self._connect("/info"), headers=self._env_header)

    # --- the live stream -----------------------------------------------------------------------------------------------

    def stream_source(self, source_id: str, **kwargs: Any) -> SourceStream:
        """Events of a source as they arrive; see `aftui.api.stream.SourceStream`.

        It catches up from the events the service keeps unless told otherwise (`catch_up=None`).
        """
        connection = Connection(self._http, self.root_url, self.auth, self.timeouts.connect)
        kwargs.setdefault("catch_up", functools.partial(self.kept_source_events, source_id))
        return SourceStream(connection, source_id, **kwargs)

    async def kept_source_events(self, source_id: str) -> list[EventSummary]:
        """All the events the service keeps of a source (its last KEPT_EVENTS), whole."""
        return (await self.list_source_events(source_id, limit=KEPT_EVENTS, expand=True)).items

    def _need_org(self) -> str:
        if not self.org_id:
            raise ValueError("no workspace chosen: set org_id")
        return self.org_id


# --- helpers ---------------------------------------------------------------------------------------------------------


def _account_filters(
    app: str | None,
    oauth_app_id: str | None,
    external_user_id: str | None,
    include_credentials: bool,
    limit: int | None,
    after: str | None,
    before: str | None,
) -> dict[str, Any]:
    """The query of both account lists (management and Connect): same filters, same paging."""
    return {
        "app": app,
        "oauth_app_id": oauth_app_id,
        "external_user_id": external_user_id,
        "include_credentials": include_credentials or None,  # sent only when asked for
        "limit": limit,
        "after": after,
        "before": before,
    }


def _seg(value: str) -> str:
    """One path segment: an id or slug with `/`, `?` or `#` in it must not change the path."""
    return quote(str(value), safe="")


def _decode(response: httpx.Response) -> Any:
    if not response.content or response.status_code == 204:
        return None
    try:
        # Invalid UTF-8 in one string must not cost the whole page: it shows as U+FFFD.
        return jsontext.loads(response.content.decode("utf-8", "replace"))
    except ValueError:
        request = response.request
        raise ServerError(
            "the service sent an answer that is not valid JSON",
            status=response.status_code,
            method=request.method,
            url=str(request.url.copy_with(query=None)),
            body=response.text[:500],
        ) from None


def _record_of(body: Any) -> Any:
    """The record of a single-record answer: what `data` wraps, or the body itself when it comes bare."""
    wrapped = isinstance(body, dict) and "data" in body and "id" not in body  # a bare record has its id at the top
    if wrapped and (isinstance(body["data"], dict) or len(body) == 1):
        return body["data"]
    return body


def _list_in(data: dict[str, Any], nested: str | None) -> Any:
    """The list a `data` object wraps: under `nested` when named, else its one list (`accounts`, `sources`...)."""
    if nested and nested in data:
        return data[nested]
    lists = [value for key, value in data.items() if isinstance(value, list) and key != "page_info"]
    if len(lists) == 1:
        return lists[0]
    if not lists and not data:
        return []
    return data  # not a list: said as such by the caller


def _validate(model: type[M], data: Any, method: str, path: str) -> M:
    import pydantic

    from .models import without_nulls

    try:
        try:
            return model.model_validate(data)
        except pydantic.ValidationError:
            cleaned = without_nulls(model, data)  # for the models that do not look at nulls themselves
            if cleaned is data:
                raise
            return model.model_validate(cleaned)
    except ValueError as exc:
        first = exc.errors()[0] if isinstance(exc, pydantic.ValidationError) else None
        where = ".".join(str(p) for p in first["loc"]) if first else ""
        why = first["msg"] if first else exc
        raise ServerError(
            f"the service sent a {model.__name__} we cannot read ({where or 'the body'}: {why})",
            method=method,
            url=path,
        ) from None
