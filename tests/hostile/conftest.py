"""The hostile data set planted on a fresh demo emulator."""

from __future__ import annotations

import httpx
import pytest

from aftui.emulator.server import ServerHandle


@pytest.fixture
def hostile(emulator: ServerHandle, root: httpx.Client) -> dict:
    """Ids of the hostile records (source, webhook, workflow, app, Connect account)."""
    response = root.post("/_emulator/hostile")
    response.raise_for_status()
    return response.json()
