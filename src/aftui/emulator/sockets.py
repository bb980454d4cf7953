"""The emulator's listening socket, bound before anything is built (a light module: the demo binds in the TUI's
process and hands the socket to the emulator's own process, without importing the server)."""

from __future__ import annotations

import socket


def bind(host: str, port: int) -> tuple[socket.socket, str]:
    """Bind first, so the URLs the emulator hands out (HTTP endpoints) carry the real port."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit this: without it a response written in
    # two segments waits on the client's delayed ACK (about 40 ms a request).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    sock.listen(2048)  # connections made before uvicorn is up wait in the backlog
    return sock, root_url_of(sock)


def root_url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def base_url_of(root_url: str) -> str:
    """The versioned API's base URL under the emulator's root."""
    return f"{root_url}/v1"
