"""Fixtures of the replay tests: a client of the fresh demo emulator and helpers that make errors happen."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from aftui.api import Client
from aftui.emulator.server import ServerHandle


@pytest.fixture
async def client(emulator: ServerHandle, info: dict) -> AsyncIterator[Client]:
    async with Client(emulator.base_url, api_key=info["api_key"], org_id=info["org_id"]) as c:
        yield c


@pytest.fixture
def demo(emulator: ServerHandle) -> Any:
    """The DemoInfo: ids of the order workflow and its endpoint."""
    return emulator.emulator.demo
