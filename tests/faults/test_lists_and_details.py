"""Each fault the emulator can inject, met by the TUI: it keeps working, says what happened, and recovers by itself."""

from __future__ import annotations

import httpx
import pytest
from textual.widgets import ContentSwitcher, Input, Static

from aftui.api import Timeouts
from aftui.tui.forms.webhook import WebhookForm
from aftui.tui.screens.detail import DetailScreen
from aftui.tui.screens.sources import SourceScreen
from aftui.tui.widgets.paged_table import PagedTable

from .conftest import SIZE, until

# (fault, what the user is told, in the server's or plain words)
LIST_FAULTS = [
    pytest.param({"status": 500}, "injected fault: the service failed", id="500"),
    pytest.param({"status": 503, "body": "html"}, "502 Bad Gateway", id="html-error-page"),
    pytest.param({"status": 429, "retry_after": 0}, "Throttled", id="429-retry-after"),
    pytest.param({"status": 200, "body": "malformed"}, "not valid JSON", id="malformed-json"),
    pytest.param({"status": 200, "body": "empty"}, "", id="empty-body"),
    pytest.param({"drop": True}, "connection was dropped", id="reset-mid-body"),
    pytest.param({"delay": 1.0}, "no complete answer within", id="slower-than-timeout"),
]


def _sources(app) -> PagedTable:
    return app.query_one("#sources PagedTable", PagedTable)


def _said(table: PagedTable) -> str:
    return str(table.query_one(".error", Static).render())


@pytest.mark.parametrize(("fault", "said"), LIST_FAULTS)
async def test_a_list_says_what_failed_then_recovers_by_itself(
    make_app, inject, info: dict, fault: dict, said: str
) -> None:
    app = make_app(start_pane="sources")
    app.session.client.timeouts = Timeouts(connect=2, read=2, total=0.5)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(app.query("#sources PagedTable")) and _sources(app).pager.done)
        table = _sources(app)
        loaded = len(table.rows)
        inject(f"/v1/orgs/{info['org_id']}/sources", count=4, **fault)  # more than the client's own 3 attempts
        table.reload()
        await until(pilot, lambda: table.has_class("failed"))
        assert said in _said(table) and "trying again" in _said(table)
        await until(pilot, lambda: not table.has_class("failed") and table.pager.done and len(table.rows) == loaded)
        assert app.is_running


async def test_a_lists_failure_says_when_its_next_try_is_under_way(make_app, inject, info: dict) -> None:
    """A slow service times out again and again: "trying again in 2 s" stayed on screen through the next try,
    which took as long to fail (a minute, out of tests), and read as a retry not yet made."""
    app = make_app(start_pane="sources")
    app.session.client.timeouts = Timeouts(connect=2, read=2, total=0.5)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(app.query("#sources PagedTable")) and _sources(app).pager.done)
        table = _sources(app)
        inject(f"/v1/orgs/{info['org_id']}/sources", count=4, delay=1.0)  # the client's 3 attempts, then 1 more
        table.reload()
        await until(pilot, lambda: "trying again now…" in _said(table))
        assert table.has_class("failed") and "no complete answer within" in _said(table)
        await until(pilot, lambda: not table.has_class("failed") and table.pager.done)


async def test_a_detail_says_what_failed_then_recovers_by_itself(
    make_app, inject, info: dict, api: httpx.Client
) -> None:
    source_id = api.get(f"/orgs/{info['org_id']}/sources").json()["data"][0]["id"]
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        inject(f"/v1/sources/{source_id}", status=502, count=4)
        app.push_screen(SourceScreen(source_id, ("Sources", source_id)))
        await until(pilot, lambda: isinstance(app.screen, SourceScreen) and bool(app.screen.query(".problem")))
        assert "injected fault" in str(app.screen.query_one(".problem", Static).render())
        await until(
            pilot,
            lambda: (
                not app.screen.query(".problem")
                and app.screen.record is not None
                and bool(app.screen.query("TabbedContent"))
            ),
        )


async def test_a_resource_deleted_while_on_screen_is_said_not_found(make_app, info: dict, api: httpx.Client) -> None:
    source_id = api.get(f"/orgs/{info['org_id']}/sources").json()["data"][0]["id"]
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(app.query("#sources PagedTable")) and _sources(app).pager.done)
        app.push_screen(SourceScreen(source_id, ("Sources", source_id)))
        await until(pilot, lambda: isinstance(app.screen, SourceScreen) and bool(app.screen.query("TabbedContent")))
        api.delete(f"/sources/{source_id}").raise_for_status()
        await pilot.press("r")
        await until(pilot, lambda: bool(app.screen.query(".problem")))
        said = str(app.screen.query_one(".problem", Static).render())
        assert "not found" in said and "trying again" not in said  # a 404 will not pass by itself
        # Nothing to update, switch or delete: the footer offers r, not keys that do nothing.
        offered = {b.binding.action for b in app.screen.active_bindings.values() if b.enabled}
        assert "reload" in offered and not offered & {
            "update_source",
            "toggle_active",
            "delete_source",
            "send_to_webhook",
        }, offered
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, DetailScreen))
        _sources(app).reload()
        await until(pilot, lambda: _sources(app).pager.done and all(s.id != source_id for s in _sources(app).rows))


async def test_a_revoked_key_keeps_the_form_as_typed(
    make_app, root: httpx.Client, info: dict, api: httpx.Client
) -> None:
    """The key is revoked while a form is being filled: the refusal is said, the form keeps every field."""
    app = make_app(start_pane="webhooks")
    async with app.run_test(size=SIZE) as pilot:
        await until(
            pilot, lambda: bool(app.query("#webhooks PagedTable")) and app.query_one("#webhooks PagedTable").pager.done
        )
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, WebhookForm) and bool(app.screen.query("#submit")))
        form = app.screen
        form.query_one("#url", Input).value = "https://hooks.example.com/typed"
        form.query_one("#name", Input).value = "typed before the revocation"
        root.post(f"/_emulator/users/{api.get('/users/me').json()['data']['id']}/revoke_key").raise_for_status()
        await pilot.press("ctrl+s")
        box = form.query_one("#problem", Static)
        await until(pilot, lambda: box.has_class("shown"))
        assert "token" in str(box.render()).lower() or "key" in str(box.render()).lower()
        assert app.screen is form
        assert form.query_one("#url", Input).value == "https://hooks.example.com/typed"
        assert form.query_one("#name", Input).value == "typed before the revocation"
        await until(pilot, lambda: any("Authentication failed" in (n.title or "") for n in app._notifications))


async def test_the_header_says_when_requests_go_unanswered_and_when_answers_come_again(
    make_app, inject, info: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A frozen service takes requests and answers none: the header says so while they wait, not "● ok" until a
    timeout half a minute on; once the answer comes it is ok again."""
    from aftui.tui import app as app_module
    from aftui.tui.widgets.status import StatusHeader

    monkeypatch.setattr(app_module, "SLOW_ANSWER_S", 1.0)
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(app.query("#sources PagedTable")) and _sources(app).pager.done)
        header = app.screen.query_one(StatusHeader)
        assert header.connection == "ok"
        inject(f"/v1/orgs/{info['org_id']}/sources", delay=5.0)  # seconds past the header's 1 s: room on a busy machine
        _sources(app).reload()
        await until(pilot, lambda: header.connection.startswith("waiting "))
        # The list says it is loading, not "0 · loading…", which read as none.
        assert str(_sources(app).query_one(".status", Static).render()) == "loading…"
        # "waiting 2 s for an answer", or "…, newer requests answered" once another list's request is answered.
        assert header.connection.startswith("waiting ") and "waiting" in str(header.render())
        await until(pilot, lambda: header.connection == "ok" and _sources(app).pager.done)
        assert app.session.client.waiting_for() == 0.0


async def test_r_reloads_a_list_still_loading_though_nothing_of_it_has_the_focus(make_app, inject, info: dict) -> None:
    """Over a slow service the first page hangs and the list, covered by its loading indicator, has no focus:
    `r` was dead then, and gone from the footer. It asks again (here the second asking is answered at once)."""
    inject(f"/v1/orgs/{info['org_id']}/sources", delay=30.0)
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(app.query("#sources PagedTable")) and _sources(app)._loading)
        assert app.screen.active_bindings["r"].binding.description == "Refresh" and _sources(app)._loading
        # From the first moment: the pane is mounted, and its list loads, before it is the switcher's current one.
        switcher = app.query_one("#panes", ContentSwitcher)
        shown, switcher.current = switcher.current, None
        assert "r" in app.screen.active_bindings
        switcher.current = shown
        await pilot.press("r")
        await until(pilot, lambda: _sources(app).pager.done and bool(_sources(app).rows), timeout=10)
