"""Webhooks from the TUI: create (checked as the service checks), delete (asked first), read-only."""

from __future__ import annotations

import httpx
from textual.widgets import Button, Input
from tui_helpers import wait_for

from aftui.tui.forms.webhook import WebhookForm
from aftui.tui.modals.confirm import ConfirmScreen
from aftui.tui.screens.webhooks import WebhookScreen
from aftui.tui.widgets.paged_table import PagedTable
from aftui.urls import webhook_url_problem

SIZE = (120, 36)


def _webhooks(api: httpx.Client) -> list[dict]:
    return api.get("/users/me/webhooks", params={"limit": 100}).json()["data"]


async def _loaded(app, pilot) -> PagedTable:
    await wait_for(
        pilot, lambda: bool(app.query("#webhooks PagedTable")) and app.query_one("#webhooks PagedTable").pager.done, 15
    )
    return app.query_one("#webhooks PagedTable", PagedTable)


async def _new_form(app, pilot) -> WebhookForm:
    """n on the pane: the new-webhook form on top."""
    await pilot.press("n")
    await wait_for(pilot, lambda: isinstance(app.screen, WebhookForm) and bool(app.screen.query("#submit")))
    return app.screen


def test_url_rule_matches_the_service() -> None:
    assert webhook_url_problem("https://example.com:8443/hooks?x=1") is None
    assert webhook_url_problem("http://localhost") is None
    assert "http" in (webhook_url_problem("ftp://example.com") or "")
    assert "hostname" in (webhook_url_problem("https://") or "")
    assert webhook_url_problem("") == "A URL is required."
    assert "spaces" in (webhook_url_problem("https://exa mple.com") or "")


async def test_create_a_webhook_then_it_is_listed(make_app, api: httpx.Client) -> None:
    app = make_app(start_pane="webhooks")
    async with app.run_test(size=SIZE) as pilot:
        table = await _loaded(app, pilot)
        before = len(table.rows)
        form = await _new_form(app, pilot)
        form.query_one("#url", Input).value = "https://hooks.example.com/orders"
        form.query_one("#name", Input).value = "Orders sink"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, WebhookForm), 15)
        await wait_for(pilot, lambda: table.pager.done and len(table.rows) == before + 1, 15)
        await wait_for(
            pilot, lambda: table.current is not None and table.current.name == "Orders sink"
        )  # `d` acts on it
    made = [w for w in _webhooks(api) if w["url"] == "https://hooks.example.com/orders"]
    assert [w["name"] for w in made] == ["Orders sink"]


async def test_a_bad_url_is_refused_beside_the_field_and_kept(make_app, api: httpx.Client) -> None:
    app = make_app(start_pane="webhooks")
    async with app.run_test(size=SIZE) as pilot:
        await _loaded(app, pilot)
        form = await _new_form(app, pilot)
        form.query_one("#url", Input).value = "ftp://files.example.com"
        await pilot.press("ctrl+s")
        row = form.rows()["url"]
        await wait_for(pilot, lambda: row.has_class("-invalid"))
        assert "http" in str(row.query_one(".field-error").render())
        assert isinstance(app.screen, WebhookForm)
        assert form.query_one("#url", Input).value == "ftp://files.example.com"
        # Mended, the field no longer says it is wrong: it had until the next submit.
        form.query_one("#url", Input).value = "https://files.example.com/hook"
        await wait_for(pilot, lambda: not row.has_class("-invalid"))
        assert str(row.query_one(".field-error").render()) == ""
    assert all(w["url"] != "ftp://files.example.com" for w in _webhooks(api))


async def test_a_server_refusal_keeps_the_form_and_shows_the_message(make_app, emulator, api: httpx.Client) -> None:
    """The service refuses (an injected 400 naming no field): the message goes in the problem box, the form stays filled."""
    app = make_app(start_pane="webhooks")
    async with app.run_test(size=SIZE) as pilot:
        await _loaded(app, pilot)
        form = await _new_form(app, pilot)
        form.query_one("#url", Input).value = "https://hooks.example.com/x"
        form.query_one("#name", Input).value = "kept"
        httpx.post(
            f"{emulator.root_url}/_emulator/faults",
            json={"path": "/v1/webhooks", "method": "POST", "status": 400, "count": 1},
        ).raise_for_status()
        await pilot.press("ctrl+s")
        box = form.query_one("#problem")
        await wait_for(pilot, lambda: box.has_class("shown"), 15)
        assert "injected fault" in str(box.render())
        assert isinstance(app.screen, WebhookForm)
        assert form.query_one("#url", Input).value == "https://hooks.example.com/x"
        assert form.query_one("#name", Input).value == "kept"
        await pilot.press("ctrl+s")  # the fault has passed: the same form now succeeds
        await wait_for(pilot, lambda: not isinstance(app.screen, WebhookForm), 15)
    assert [w["name"] for w in _webhooks(api) if w["url"] == "https://hooks.example.com/x"] == ["kept"]


async def test_delete_asks_first_then_removes(make_app, api: httpx.Client) -> None:
    victim = api.post("/webhooks", params={"url": "https://gone.example.com", "name": "Doomed"}).json()["data"]
    app = make_app(start_pane="webhooks")
    async with app.run_test(size=SIZE) as pilot:
        table = await _loaded(app, pilot)
        await wait_for(pilot, lambda: any(w.id == victim["id"] for w in table.rows))
        table.table.focus()
        table.table.move_cursor(row=next(i for i, w in enumerate(table.rows) if w.id == victim["id"]))
        await pilot.pause()
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 15)
        assert "Doomed" in str(app.screen.query_one(".what").render())
        await pilot.press("escape")  # no: nothing happens
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        assert any(w["id"] == victim["id"] for w in _webhooks(api))
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 15)
        app.screen.query_one("#yes", Button).press()
        await wait_for(pilot, lambda: all(w.id != victim["id"] for w in table.rows), 15)
    assert all(w["id"] != victim["id"] for w in _webhooks(api))


async def test_delete_from_the_detail_goes_back(make_app, api: httpx.Client) -> None:
    victim = api.post("/webhooks", params={"url": "https://gone.example.com"}).json()["data"]
    app = make_app(start_pane="webhooks")
    async with app.run_test(size=SIZE) as pilot:
        await _loaded(app, pilot)
        app.push_screen(WebhookScreen(victim["id"], ("Webhooks", victim["id"])))
        await wait_for(pilot, lambda: isinstance(app.screen, WebhookScreen) and app.screen.record is not None, 15)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 15)
        app.screen.query_one("#yes", Button).press()
        await wait_for(pilot, lambda: not isinstance(app.screen, (ConfirmScreen, WebhookScreen)), 15)
    assert all(w["id"] != victim["id"] for w in _webhooks(api))


async def test_read_only_disables_the_changes_and_says_why(make_app, api: httpx.Client) -> None:
    app = make_app(start_pane="webhooks")
    app.session.client.read_only = True
    before = len(_webhooks(api))
    async with app.run_test(size=SIZE) as pilot:
        await _loaded(app, pilot)
        pane = app.query_one("#webhooks")
        assert pane.check_action("delete", ()) is None and pane.check_action("new", ()) is None
        await pilot.press("d")
        # The refusal is said by a notification a message hop later: wait for it, not for one pause.
        await wait_for(pilot, lambda: any("read-only" in n.message for n in app._notifications))
        assert not isinstance(app.screen, ConfirmScreen)
        app.push_screen(WebhookForm())
        await wait_for(pilot, lambda: isinstance(app.screen, WebhookForm) and bool(app.screen.query("#submit")))
        assert app.screen.query_one("#submit", Button).disabled
        assert "read-only" in str(app.screen.query_one("#read-only").render())
    assert len(_webhooks(api)) == before
