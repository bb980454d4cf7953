"""A client like the session's, for the monitor's own thread.

An `httpx.AsyncClient` (and an OAuth token lock) belongs to the event loop
that first uses it, so the monitor's thread cannot share the UI's client.
Its twin has the same URL, credential, workspace and read-only flag, and its
own connection pool. The credential object is copied, not rebuilt, so no
secret is read again (a `*_cmd` secret would run its command again) and no
secret passes through our hands; asyncio locks in it are made anew.
"""

from __future__ import annotations

import asyncio
import copy

from ..api import Client


def twin(client: Client) -> Client:
    """A new client with `client`'s settings; close it in the loop that uses it."""
    other = Client(
        client.base_url,
        api_key="twin",  # replaced below by a copy of the real credential
        org_id=client.org_id,
        project_id=client.project_id,
        environment=client.environment,
        read_only=client.read_only,
        timeouts=client.timeouts,
        retry=client.retry,
    )
    auth = copy.copy(client.auth)
    for name, value in list(vars(auth).items()):
        if isinstance(value, asyncio.Lock):
            setattr(auth, name, asyncio.Lock())
    other.auth = auth
    other.in_flight = client.in_flight  # its requests unanswered are the session's to tell (the header)
    return other
