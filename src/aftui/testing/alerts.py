"""Alerts for pictures of the alerts list: the demo's emulator runs with its activity off, so none fires."""

from __future__ import annotations

from ..fingerprint import error_key
from ..health import Alert
from ..health.board import HOUR_MS
from ..tui.app import AftuiApp
from ..tui.screens.health import HealthPane


async def sample_alerts(app: AftuiApp) -> None:
    """Two alerts of the workflow on top of Health's board, half an hour before its last error: a spike of its
    known failure (errors since), and a new kind of error none has followed."""
    session = app.session
    assert session is not None
    row = app.query_one(HealthPane).rows[0]
    wf, name = row.subject.id, row.subject.label
    page = await session.client.list_workflow_errors(wf, expand=True, limit=1)
    key = error_key(page.items[0], workflow_id=wf)
    assert key is not None
    at = (row.last_error_ms or 0) - HOUR_MS // 2
    spike = Alert("spike", wf, name, key.fingerprint, row.last_error, 6, at)
    new = Alert("new", wf, name, "fp-new", "TypeError: Cannot read properties of undefined (reading 'email')", 1, at)
    app.fired.add(session.client.org_id or "", [spike, new])
