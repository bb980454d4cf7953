"""The emulator as a running thing: the demo planted in a core, an ASGI app and a uvicorn server.

`Emulator` is a `Core` (store, runtime, settings) with the demo data set in
it; `build_app` makes the Starlette app; `serve_in_thread` runs it on
loopback for tests, benchmarks and `aftui demo`; `serve` runs it in the
foreground for `aftui emulator`. This is the top of the package: it imports
the rest, and no module of the package imports it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from . import demo
from .core import Core
from .errors import ApiProblem
from .faults import FaultMiddleware, quiet_unremarkable
from .http import json_response, problem_response
from .identity import description
from .routes import connect, control, endpoints, management, oauth, routing, sources
from .sockets import bind
from .variants import VariantMiddleware

log = logging.getLogger(__name__)


@dataclass
class Options:
    host: str = "127.0.0.1"
    port: int = 8787
    seed: int = 1
    data: str = "demo"  # "demo" or "empty"
    scale: int = 0
    activity: bool = False
    hostile: bool = False  # plant the hostile data set (emulator/hostile.py) on the demo


class Emulator(Core):
    """A core with the catalogue and the demo people in it (`data="demo"`: their whole workspace too)."""

    def __init__(self, options: Options, root_url: str | None = None) -> None:
        super().__init__(
            seed=options.seed,
            activity=options.activity,
            root_url=root_url or f"http://{options.host}:{options.port}",
        )
        self.options = options
        self.demo = demo.populate(self, data=options.data, scale=options.scale)
        self.hostile: dict[str, Any] | None = None
        if options.hostile:
            self.plant_hostile()

    def plant_hostile(self) -> dict[str, Any]:
        """Add the hostile data set once; returns the ids of what it planted."""
        if self.hostile is None:
            from . import hostile  # only for the hostile demo: building its data set costs every start 20 ms

            self.hostile = hostile.plant(self, self.demo)
        return self.hostile

    def describe(self) -> dict[str, Any]:
        """What a user needs to connect: URLs, the demo key and OAuth client."""
        return description(self.demo.identity, self.root_url, seed=self.options.seed, activity=self.options.activity)


# --- the ASGI app --------------------------------------------------------------------------


async def _problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiProblem)
    return problem_response(exc)


async def _http_exception(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        return json_response({"error": f"no such endpoint: {request.method} {request.url.path}"}, 404)
    if exc.status_code == 405:
        return json_response({"error": f"{request.method} is not allowed on {request.url.path}"}, 405)
    return json_response({"error": exc.detail}, exc.status_code)


async def _crash(request: Request, exc: Exception) -> Response:
    """A bug of ours: logged here, a plain message there, never a traceback in the body."""
    if isinstance(exc, ClientDisconnect):  # the client left before its body was read: no bug, nobody to answer
        log.info("%s %s: the client went away before its request was read", request.method, request.url.path)
        return Response(status_code=499)
    log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return json_response({"error": "internal error in the emulator"}, 500)


class StripTrailingSlash:
    """Every path works with and without a trailing `/`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and len(path) > 1 and path.endswith("/"):
            scope = dict(scope, path=path.rstrip("/") or "/")
        await self.app(scope, receive, send)


def build_app(em: Emulator) -> ASGIApp:
    versioned = [*management.routes(), *sources.routes(), *routing.routes(), *oauth.routes(), *connect.routes()]
    routes: list[Route | Mount] = [
        Mount("/v1", routes=versioned),
        *sources.root_routes(),
        *endpoints.root_routes(),
        *control.routes(describe=em.describe, plant_hostile=em.plant_hostile),
        Route("/", lambda r: json_response({"service": "aftui emulator", "base_url": em.base_url}), methods=["GET"]),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await em.runtime.start()
        try:
            yield
        finally:
            await em.runtime.stop()

    app = Starlette(
        routes=routes,
        exception_handlers={ApiProblem: _problem, HTTPException: _http_exception, Exception: _crash},
        lifespan=lifespan,
    )
    app.state.emulator = em  # what the routes reach as a Core (http.core_of)
    return StripTrailingSlash(FaultMiddleware(VariantMiddleware(app, em.variants), em.faults))


# --- serving ---------------------------------------------------------------------------------


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def server_config(em: Emulator, host: str, port: int, log_level: str, *, own_logging: bool = True) -> uvicorn.Config:
    """`own_logging`: uvicorn sets up its console logging (a server in the foreground); else the process's
    logging setup takes its records (the demo: aftui's log file, as a console line would land on the TUI)."""
    quiet_unremarkable()
    return uvicorn.Config(
        build_app(em),
        host=host,
        port=port,
        log_level=log_level,
        log_config=uvicorn.config.LOGGING_CONFIG if own_logging else None,
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=1,
    )


class ServerHandle:
    """A uvicorn server on a thread of its own, with its own event loop."""

    def __init__(self, em: Emulator, server: uvicorn.Server, thread: threading.Thread) -> None:
        self.emulator = em
        self._server = server
        self._thread = thread

    @property
    def base_url(self) -> str:
        return self.emulator.base_url

    @property
    def root_url(self) -> str:
        return self.emulator.root_url

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)


def serve_in_thread(options: Options, *, log_level: str = "warning") -> ServerHandle:
    sock, root_url = bind(options.host, options.port)
    em = Emulator(options, root_url)
    server = uvicorn.Server(server_config(em, options.host, options.port, log_level, own_logging=False))
    thread = threading.Thread(
        target=lambda: asyncio.run(server.serve(sockets=[sock])), name="aftui-emulator", daemon=True
    )
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the emulator failed to start")
        threading.Event().wait(0.01)
    return ServerHandle(em, server, thread)


def serve(options: Options, *, announce: Any = print, log_level: str = "warning") -> None:
    """Run in the foreground until Ctrl-C."""
    sock, root_url = bind(options.host, options.port)
    em = Emulator(options, root_url)
    server = uvicorn.Server(server_config(em, options.host, options.port, log_level))
    announce(em)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(server.serve(sockets=[sock]))
