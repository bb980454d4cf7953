"""Sources from the TUI: on/off, delete (the name typed back), and delete events (previewed, asked, the
202 watched). Every change is checked through the API afterwards."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from textual.widgets import Button, Input, Select, Static, TabbedContent
from tui_helpers import control, inject, wait_for

from aftui import event_deletion
from aftui.emulator.server import ServerHandle
from aftui.journal.location import DEFAULT_NAME as JOURNAL_NAME
from aftui.journal.store import Journal
from aftui.tui.forms.source_events import DeleteEventsForm
from aftui.tui.modals.confirm import ConfirmScreen
from aftui.tui.screens.sources import SourceScreen
from aftui.tui.widgets.paged_table import ListTable, PagedTable

SIZE = (120, 36)


def source_id(emulator: ServerHandle, name: str) -> str:
    return next(s.id for s in emulator.emulator.store.sources.values() if s.name == name)


def active(api: httpx.Client, ident: str) -> bool:
    return api.get(f"/sources/{ident}").json()["data"]["active"]


def event_ids(api: httpx.Client, ident: str) -> list[str]:
    """Oldest first."""
    data = api.get(f"/sources/{ident}/event_summaries", params={"limit": 100}).json()["data"]
    return sorted((e["id"] for e in data), key=lambda i: tuple(int(p) for p in i.split("-")))


def key(ident: str) -> tuple[int, int]:
    ms, seq = ident.split("-")
    return int(ms), int(seq)


async def sources_table(app, pilot) -> PagedTable:
    await wait_for(
        pilot, lambda: bool(app.query("#sources PagedTable")) and app.query_one("#sources PagedTable").pager.done, 15
    )
    return app.query_one("#sources PagedTable", PagedTable)


async def select_source(pilot, table: PagedTable, ident: str) -> None:
    await wait_for(pilot, lambda: any(s.id == ident for s in table.rows), 10)
    table.table.focus()
    table.table.move_cursor(row=next(i for i, s in enumerate(table.rows) if s.id == ident))
    await pilot.pause()


async def open_source(app, pilot, ident: str) -> SourceScreen:
    app.open_id(ident)
    await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen) and bool(app.screen.query("#json")), 15)
    return app.screen


async def confirm(app, pilot) -> ConfirmScreen:
    await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 15)
    return app.screen


async def events_form(app, pilot) -> DeleteEventsForm:
    await wait_for(pilot, lambda: isinstance(app.screen, DeleteEventsForm) and app.screen.events is not None, 15)
    await pilot.pause()
    return app.screen


async def delete_events_of(app, pilot, ident: str) -> DeleteEventsForm:
    """The source's detail, then D: its delete-events form with the events read."""
    await open_source(app, pilot, ident)
    await pilot.press("D")
    return await events_form(app, pilot)


def fill(form: DeleteEventsForm, **values: str) -> None:
    """Set the form's fields (mode, start, end) by id, in the order given."""
    for ident, value in values.items():
        form.query_one(f"#{ident}").value = value  # type: ignore[attr-defined]


def preview(form: DeleteEventsForm) -> str:
    return str(form.query_one("#preview").render())


def error_of(form, row: str) -> str | None:
    found = form.rows()[row]
    return str(found.query_one(".field-error").render()) if found.has_class("-invalid") else None


# --- on and off ---------------------------------------------------------------------------------------------


async def test_activate_at_once_and_deactivate_after_asking(make_app, emulator, api: httpx.Client) -> None:
    ident = source_id(emulator, "Cache warmer")
    assert active(api, ident) is False
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        table = await sources_table(app, pilot)
        await select_source(pilot, table, ident)
        await pilot.press("t")  # activating asks nothing
        await wait_for(pilot, lambda: any(s.id == ident and s.active for s in table.rows), 15)
        assert active(api, ident) is True
        await pilot.press("t")
        question = await confirm(app, pilot)
        assert "nothing is deleted" in str(question.query_one(".what").render())
        question.query_one("#yes", Button).press()
        await wait_for(
            pilot, lambda: any("Deactivated source Cache warmer" in n.message for n in app._notifications), 15
        )
        await wait_for(pilot, lambda: any(s.id == ident and s.active is False for s in table.rows), 15)
    assert active(api, ident) is False


async def test_toggle_from_the_detail_shows_the_new_state(make_app, emulator, api: httpx.Client) -> None:
    ident = source_id(emulator, "Month-end close")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_source(app, pilot, ident)
        await pilot.press("t")
        await wait_for(
            pilot,
            lambda: detail.record is not None and detail.record.active is True and bool(detail.query("#json")),
            15,
        )
    assert active(api, ident) is True


async def test_a_refused_toggle_says_the_servers_message(make_app, emulator, api: httpx.Client) -> None:
    ident = source_id(emulator, "Cache warmer")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        table = await sources_table(app, pilot)
        await select_source(pilot, table, ident)
        inject(emulator, {"path": f"/v1/sources/{ident}", "method": "PUT", "status": 400, "count": 1})
        await pilot.press("t")
        await wait_for(pilot, lambda: any("injected fault" in n.message for n in app._notifications), 15)
    assert active(api, ident) is False


# --- delete the source ------------------------------------------------------------------------------------------


async def test_delete_needs_the_name_typed_and_says_what_goes(make_app, emulator, info, api: httpx.Client) -> None:
    ident = source_id(emulator, "Order webhooks")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        table = await sources_table(app, pilot)
        await select_source(pilot, table, ident)
        await pilot.press("d")
        question = await confirm(app, pilot)
        what = str(question.query_one(".what").render())
        assert (
            "Order webhooks" in what
            and "events" in what
            and "1 subscription (0 where it emits, 1 where it listens)" not in what
        )
        assert "subscription" in what and "cannot be undone" in what
        yes = question.query_one("#yes", Button)
        assert yes.disabled
        await pilot.press(*"Order webhook")  # one letter short
        await pilot.pause()
        assert yes.disabled
        await pilot.press("s")
        await pilot.pause()
        assert not yes.disabled
        await pilot.press("enter")
        await wait_for(pilot, lambda: all(s.id != ident for s in table.rows), 15)
    assert api.get(f"/sources/{ident}").status_code == 404
    left = api.get(f"/orgs/{info['org_id']}/subscriptions", params={"limit": 100}).json()["data"]
    assert all(ident not in (s["emitter_id"], s["listener_id"]) for s in left)


async def test_delete_says_which_known_workflow_loses_its_trigger(make_app, emulator) -> None:
    """The demo's GitHub issues to Slack starts from a source: deleting that source breaks it, and the question
    says so by name (it listed only the subscription)."""
    store = emulator.emulator.store
    workflow = next(w for w in store.workflows.values() if any(t.kind == "source" for t in w.triggers))
    trigger = next(t.source_id for t in workflow.triggers if t.kind == "source")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        app.session.known.add(app.session.client.org_id or "", workflow.id, name=workflow.name, found="test")
        table = await sources_table(app, pilot)
        await select_source(pilot, table, trigger)
        await pilot.press("d")
        question = await confirm(app, pilot)
        what = str(question.query_one(".what").render())
        assert f"it triggers the workflow {workflow.name} ({workflow.id}), which loses this trigger" in what
        await pilot.press("escape")


async def test_delete_from_the_detail_goes_back_and_escape_keeps_it(make_app, emulator, api: httpx.Client) -> None:
    ident = source_id(emulator, "Partner ping")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_source(app, pilot, ident)
        await pilot.press("d")
        await confirm(app, pilot)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is detail)
        assert api.get(f"/sources/{ident}").status_code == 200
        await pilot.press("d")
        question = await confirm(app, pilot)
        question.query_one("#typed", Input).value = "Partner ping"
        await pilot.pause()
        question.query_one("#yes", Button).press()
        await wait_for(pilot, lambda: not isinstance(app.screen, (ConfirmScreen, SourceScreen)), 15)
    assert api.get(f"/sources/{ident}").status_code == 404


async def test_the_delete_question_of_a_long_name_keeps_its_field_and_buttons_on_screen_at_80x24(
    make_app, emulator, api: httpx.Client
) -> None:
    ident = source_id(emulator, "Partner ping")
    long_name = (
        "[bold red]ALERT[/] 🚀 日本語の非常に長い名前 with a very long name that goes on and on and on forever x"
    )
    api.put(f"/sources/{ident}", json={"name": long_name}).raise_for_status()
    app = make_app(start_pane="sources")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_source(app, pilot, ident)
        await pilot.press("d")
        question = await confirm(app, pilot)
        await pilot.pause()
        box = question.query_one("ConfirmScreen > Vertical").content_region
        for part in ("#typed", "#yes", "#no"):
            region = question.query_one(part).region
            assert region.height and box.contains_region(region), (part, region, box)  # drawn, not cut off


async def test_the_crumb_names_a_source_as_it_now_is_after_a_rename(make_app, emulator, api: httpx.Client) -> None:
    ident = source_id(emulator, "Partner ping")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_source(app, pilot, ident)
        api.put(f"/sources/{ident}", json={"name": "Partner ping (v2)"}).raise_for_status()
        await pilot.press("r")
        crumbs = detail.query_one(".crumbs", Static)
        await wait_for(pilot, lambda: str(crumbs.render()) == "Sources › Partner ping (v2)")


# --- delete events ------------------------------------------------------------------------------------------------


async def test_the_preview_counts_each_choice(make_app, emulator, api: httpx.Client) -> None:
    ident = source_id(emulator, "Order webhooks")
    ids = event_ids(api, ident)
    assert len(ids) > 10
    a, b = ids[3], ids[8]
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await delete_events_of(app, pilot, ident)
        total = len(ids)
        assert f"{total} events of the {total}" in preview(form)  # "all" by default
        cases = {
            ("from", a, ""): sum(1 for i in ids if key(i) >= key(a)),
            ("upto", "", b): sum(1 for i in ids if key(i) <= key(b)),
            ("range", a, b): 6,
            ("one", b, ""): 1,
        }
        for (mode, start, end), expected in cases.items():
            fill(form, mode=mode, start=start, end=end)
            await pilot.pause()
            noun = "event" if expected == 1 else "events"
            assert f"{expected} {noun} of the {total}" in preview(form), (mode, preview(form))
        assert "estimate" not in preview(form)
        fill(form, mode="range", start=b, end=a)  # two good ids, the wrong way round: said at once, not "invalid"
        await pilot.pause()
        assert "The first id is after the last one: swap them." in preview(form), preview(form)


async def test_the_preview_says_estimate_when_the_list_is_not_read_to_its_end(
    make_app, emulator, api: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(event_deletion, "MAX_READ", 5)
    ident = source_id(emulator, "Order webhooks")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(DeleteEventsForm(await app.session.client.get_source(ident)))
        form = await events_form(app, pilot)
        assert "an estimate" in preview(form)


async def test_delete_up_to_the_selected_event_then_watch_it_go(
    make_app, emulator, api: httpx.Client, tmp_path: Path
) -> None:
    ident = source_id(emulator, "Order webhooks")
    ids = event_ids(api, ident)
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_source(app, pilot, ident)
        detail.query_one(TabbedContent).active = detail.query_one(TabbedContent).query("TabPane")[3].id
        table = detail.query_one("#events", PagedTable)
        await wait_for(pilot, lambda: table.pager.done and len(table.rows) == len(ids), 15)
        table.table.focus()
        pick = next(i for i, e in enumerate(table.rows) if e.id == ids[5])
        table.table.move_cursor(row=pick)
        await pilot.pause()
        await pilot.press("D")
        form = await events_form(app, pilot)
        assert form.query_one("#start", Input).value == ids[5] and form.query_one("#mode", Select).value == "one"
        form.query_one("#mode", Select).value = "upto"  # "up to here"
        await pilot.pause()
        assert "6 events of the" in preview(form)
        await pilot.press("ctrl+s")
        question = await confirm(app, pilot)
        assert "6 events" in str(question.query_one(".what").render()) and ids[5] in str(
            question.query_one(".what").render()
        )
        question.query_one("#yes", Button).press()
        await wait_for(pilot, lambda: any(n.message.startswith("Deleted 6 events") for n in app._notifications), 20)
        await wait_for(pilot, lambda: table.pager.done and len(table.rows) == len(ids) - 6, 15)
    assert event_ids(api, ident) == ids[6:]
    with Journal(tmp_path / "data" / JOURNAL_NAME) as journal:  # the deleted ones were copied first
        kept = {e.id for e in journal.recent(ident, limit=1000)}
    assert set(ids[:6]) <= kept


async def test_a_202_not_yet_done_is_said_as_such(
    make_app, emulator, api: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service accepts but takes longer than aftui watches: the user is told it is still pending."""
    monkeypatch.setattr(event_deletion, "WAIT_S", 0.5)
    control(emulator, "settings", {"events_delete_delay_s": 60})
    ident = source_id(emulator, "Order webhooks")
    ids = event_ids(api, ident)
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await delete_events_of(app, pilot, ident)
        fill(form, mode="one", start=ids[0])
        await pilot.press("ctrl+s")
        (await confirm(app, pilot)).query_one("#yes", Button).press()
        await wait_for(
            pilot,
            lambda: any("still listed" in n.message and "asynchronous" in n.message for n in app._notifications),
            20,
        )
    assert event_ids(api, ident) == ids


async def test_event_ids_are_checked_before_sending(make_app, emulator, api: httpx.Client) -> None:
    ident = source_id(emulator, "Order webhooks")
    ids = event_ids(api, ident)
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await delete_events_of(app, pilot, ident)
        fill(form, mode="range", start="yesterday")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(error_of(form, "start")))
        assert "not an event id" in (error_of(form, "start") or "")
        assert "Give the last id" in (error_of(form, "end") or "")
        fill(form, start=ids[8], end=ids[2])
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "after the last" in (error_of(form, "start") or ""))
        fill(form, mode="from", start="9999999999999-0")  # after every event kept
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "nothing to delete" in (error_of(form, "preview") or ""))
        assert not isinstance(app.screen, ConfirmScreen)
    assert event_ids(api, ident) == ids


async def test_a_server_refusal_keeps_the_events_form(make_app, emulator, api: httpx.Client) -> None:
    ident = source_id(emulator, "Order webhooks")
    ids = event_ids(api, ident)
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await delete_events_of(app, pilot, ident)
        fill(form, mode="one", start=ids[1])
        inject(emulator, {"path": f"/v1/sources/{ident}/events", "method": "DELETE", "status": 400, "count": 1})
        await pilot.press("ctrl+s")
        (await confirm(app, pilot)).query_one("#yes", Button).press()
        box = form.query_one("#problem")
        await wait_for(pilot, lambda: box.has_class("shown"), 15)
        assert "injected fault" in str(box.render())
        assert app.screen is form and form.query_one("#start", Input).value == ids[1]
    assert event_ids(api, ident) == ids


# --- read-only ----------------------------------------------------------------------------------------------------


async def test_read_only_disables_every_source_change(make_app, emulator, api: httpx.Client) -> None:
    ident = source_id(emulator, "Cache warmer")
    ids = event_ids(api, source_id(emulator, "Order webhooks"))
    app = make_app(start_pane="sources")
    app.session.client.read_only = True
    async with app.run_test(size=SIZE) as pilot:
        table = await sources_table(app, pilot)
        pane = app.query_one("#sources")
        assert pane.check_action("toggle_active", ()) is None and pane.check_action("delete_source", ()) is None
        await select_source(pilot, table, ident)
        await pilot.press("t")
        await pilot.press("d")
        await wait_for(pilot, lambda: sum("read-only" in n.message for n in app._notifications) == 2)
        assert not isinstance(app.screen, ConfirmScreen)
        detail = await open_source(app, pilot, source_id(emulator, "Order webhooks"))
        assert all(detail.check_action(a, ()) is None for a in ("toggle_active", "delete_source", "delete_events"))
        await pilot.press("D")
        await pilot.pause()
        assert app.screen is detail
    assert active(api, ident) is False
    assert event_ids(api, source_id(emulator, "Order webhooks")) == ids


async def test_a_refused_delete_keeps_the_source_and_says_why(make_app, emulator, api: httpx.Client) -> None:
    ident = source_id(emulator, "Partner ping")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_source(app, pilot, ident)
        await pilot.press("d")
        question = await confirm(app, pilot)
        question.query_one("#typed", Input).value = "Partner ping"
        await pilot.pause()
        inject(emulator, {"path": f"/v1/sources/{ident}", "method": "DELETE", "status": 400, "count": 1})
        question.query_one("#yes", Button).press()
        await wait_for(pilot, lambda: any("injected fault" in n.message for n in app._notifications), 20)
        assert app.screen is detail
    assert api.get(f"/sources/{ident}").status_code == 200


async def test_down_from_the_tab_bar_reaches_a_long_event_list_and_enter_opens_one(
    make_app, emulator: ServerHandle, api: httpx.Client, info: dict
) -> None:
    """A list taller than the screen is not wrapped in a second scroller that would take the focus."""

    from aftui.tui.screens.events import EventScreen

    made = api.post(
        "/sources", json={"component_id": "http-new-requests", "name": "Tall inbox", "org_id": info["org_id"]}
    )
    ident = made.json()["data"]["id"]
    httpx.post(
        f"{emulator.root_url}/_emulator/sources/{ident}/inject", json={"count": 60, "wait": True}, timeout=30
    ).raise_for_status()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_source(app, pilot, ident)
        await pilot.press("right_square_bracket", "right_square_bracket", "right_square_bracket")
        await wait_for(
            pilot, lambda: bool(screen.query("#events")) and screen.query_one("#events", PagedTable).pager.done
        )
        events = screen.query_one("#events", PagedTable)
        assert len(events.rows) == 60
        await pilot.press("down")
        await wait_for(pilot, lambda: isinstance(app.focused, ListTable))
        assert app.focused is events.table
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EventScreen))
