"""The Errors tab on call: grouped by failure, live, replay states and links, bulk replay with one fix.

Driven against the demo emulator over HTTP: errors are made by posting
orders without an e-mail to the order workflow's endpoint, or by faults on
the endpoints the demo's timer workflows call.
"""

from __future__ import annotations

import io
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.console import Console
from textual.widgets import Static
from tui_helpers import control, inject, wait_for

from aftui.emulator.server import ServerHandle
from aftui.fingerprint import fingerprint
from aftui.journal.replays import ReplayLog
from aftui.journal.store import Journal
from aftui.replay.states import GroupState, ReplayState
from aftui.tui.screens.error_groups import ErrorGroupsView, ErrorsTab, state_cell
from aftui.tui.screens.live_events import LIVE_S
from aftui.tui.screens.replay import ReplayJournal, ReplayScreen
from aftui.tui.screens.replay_bulk import BulkReplayScreen
from aftui.tui.screens.replay_errors import ErrorEventScreen, ErrorsTable, no_link_words
from aftui.tui.widgets.phrases import Phrases


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "aftui-data"
    monkeypatch.setenv("AFTUI_DATA_DIR", str(directory))
    return directory


def text_of(widget: Any) -> str:
    console = Console(width=300, file=io.StringIO(), record=True, color_system=None)
    console.print(widget.content if hasattr(widget, "content") else widget)
    return console.export_text()


def api(emulator: ServerHandle) -> httpx.Client:
    return httpx.Client(
        base_url=emulator.base_url, headers={"Authorization": f"Bearer {emulator.emulator.demo.api_key}"}, timeout=10
    )


def post_orders(emulator: ServerHandle, *names: str) -> None:
    """Orders without a customer e-mail: the order workflow fails on each."""
    demo = emulator.emulator.demo
    for name in names:
        httpx.post(
            f"{emulator.root_url}/e/{demo.order_endpoint_key}/",
            json={"order_id": name, "sku": "SKU-1001", "quantity": 1},
            timeout=10,
        ).raise_for_status()


def listed(emulator: ServerHandle, workflow_id: str, kind: str = "$errors/event_summaries") -> list[dict[str, Any]]:
    with api(emulator) as client:
        return client.get(f"/workflows/{workflow_id}/{kind}", params={"expand": "event", "limit": 100}).json()["data"]


def workflow_named(emulator: ServerHandle, name: str) -> str:
    return next(w.id for w in emulator.emulator.store.workflows.values() if w.name == name)


def inbox_key(emulator: ServerHandle) -> str:
    inbox = next(s for s in emulator.emulator.store.sources.values() if s.name == "Webhook inbox")
    assert inbox.endpoint_key
    return inbox.endpoint_key


async def errors_tab(app, pilot, workflow_id: str, rows: int = 1) -> ErrorsTable:
    """The workflow's detail on its Errors tab, the list focused, at least `rows` errors in."""
    app.open_id(workflow_id)
    await wait_for(pilot, lambda: bool(app.screen.query(ErrorsTable)), timeout=10)
    table = app.screen.query_one(ErrorsTable)
    await wait_for(pilot, lambda: len(table.rows) >= rows, timeout=10)
    await pilot.press(*"]]]]", "down")
    await wait_for(pilot, lambda: app.focused is table.table)
    return table


async def back_to(pilot, table: ErrorsTable) -> None:
    """esc from an error's detail, back to the list."""
    await pilot.press("escape")
    await wait_for(pilot, lambda: table.screen is pilot.app.screen)
    table.table.focus()
    await pilot.pause()


def replay_cell(table: ErrorsTable, ident: str) -> str:
    return table.cell(ident, "replay").plain


# --- grouping ------------------------------------------------------------------------------------------


async def test_errors_group_by_failure_whatever_the_numbers_and_apart_by_name(make_app, emulator) -> None:
    """Nightly report's step calls an endpoint: 500 then 503 is one failure, a dropped connection another."""
    nightly = workflow_named(emulator, "Nightly report")
    path = f"/e/{inbox_key(emulator)}/metrics"
    for fault in ({"status": 500}, {"status": 503}, {"drop": True}):
        inject(emulator, {"path": path, **fault})
        httpx.post(f"{emulator.root_url}/_emulator/timers/{nightly}/run", timeout=10).raise_for_status()
        control(emulator, "clock", {"advance": 90})  # a minute and a half apart: times differ too
    assert len(listed(emulator, nightly)) == 3
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, nightly, rows=3)
        await pilot.press("g")
        view = app.screen.query_one(ErrorGroupsView)
        await wait_for(pilot, lambda: view.display and len(view.groups) == 2 and app.focused is view.table)
        http, request = view.groups
        assert (http.count, http.key.step, http.key.name) == (2, "fetch_metrics", "HTTPError")
        assert http.key.message == "Request failed with status code <n>"
        # Of the step's id, shown by its name: the same fingerprint whether or not the workflow could be read.
        assert http.key.fingerprint == fingerprint(nightly, http.key.cell, "HTTPError", http.key.message)
        assert http.key.cell is not None and http.key.cell.startswith("c_")
        assert http.first_ms is not None and http.last_ms is not None and http.last_ms - http.first_ms == 90_000
        assert (request.count, request.key.step, request.key.name) == (1, "fetch_metrics", "RequestError")
        # A timer started these runs: "never replayed" read as overlooked, where no replay can start one.
        assert text_of(view.table.get_cell(http.key.fingerprint, "state")).strip() == "can't replay"
        detail = view.query_one(".detail", Phrases).text.plain
        assert "fingerprint " + http.key.fingerprint in detail and "2 never replayed" in detail
        assert "a timer started these runs: no replay can start one again" in detail
        assert "sample Request failed with status code 50" in detail
        await pilot.press("enter")  # the group's errors
        await wait_for(pilot, lambda: table.display and len(table.rows) == 2 and app.focused is table.table)
        hint = app.screen.query_one(ErrorsTab).query_one(".hint", Phrases)
        assert "Group HTTPError: Request failed with status code" in hint.text.plain
        await pilot.press("escape")  # all errors again; the detail stays
        await wait_for(pilot, lambda: len(table.rows) == 3)
        await wait_for(pilot, lambda: all(replay_cell(table, e.id or "") == "can't replay" for e in table.rows))
        assert table.group is None and app.screen.query(ErrorsTable)


def test_a_groups_state_says_the_replays_that_went_through_beside_the_one_that_failed_again() -> None:
    """ "✖ 1 failed again" alone, beside 5 replayed ok after it, read as the fix not working (an on-call walk)."""
    mixed = GroupState({"failed": 1, "never": 53, "succeeded": 5})
    assert state_cell(mixed).plain == "5 ok · 1 failed again"
    assert state_cell(GroupState({"failed": 2, "never": 3})).plain == "✖ 2 failed again"
    assert state_cell(GroupState({"succeeded": 2, "never": 3})).plain == "2/5 replayed ok"
    assert state_cell(GroupState({"succeeded": 4})).plain == "✔ fixed"


async def test_a_groups_failure_takes_the_width_left_and_the_table_does_not_scroll_sideways(make_app, emulator) -> None:
    """At 80 columns the failure was as wide as its text, and the table scrolled: now it is cut to the room
    the other columns leave, with an ellipsis, and widened it takes more."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await errors_tab(app, pilot, emulator.emulator.demo.order_workflow_id)
        await pilot.press("g")
        view = app.screen.query_one(ErrorsTab).query_one(ErrorGroupsView)
        await wait_for(pilot, lambda: view.display and bool(view.groups))
        table = view.table
        await wait_for(pilot, lambda: table.virtual_size.width <= table.size.width)
        failure = table.columns[next(k for k in table.columns if k.value == "failure")]
        assert not failure.auto_width and failure.width >= 16
        narrow = failure.width
        await pilot.resize_terminal(140, 30)
        await wait_for(pilot, lambda: table.columns[failure.key].width > narrow)


# --- live, states and links ------------------------------------------------------------------------------


async def test_at_80_columns_the_error_is_read_and_the_id_and_who_replayed_give_way(make_app, emulator) -> None:
    """The error says why: at 80 columns it keeps at least its minimum and nothing is scrolled off to its right.
    Before, it was sized to its text and the table scrolled sideways: "Val" at the edge, the rest out of sight."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await errors_tab(app, pilot, emulator.emulator.demo.order_workflow_id)
        board = table.table
        await wait_for(pilot, lambda: board.widths["id"] == 0)
        assert board.line_width <= board.scrollable_content_region.width
        assert board.widths["by"] == 0 and board.widths["error"] >= 28
        assert board.widths["replay"] == 14 and board.widths["step"] == 10


async def test_s_sorts_by_the_columns_that_have_a_name_not_the_marks(make_app, emulator) -> None:
    """The marks' column has no label: `s` sorted by it first, said "sorted by  ↓" and moved no row."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, emulator.emulator.demo.order_workflow_id)
        await pilot.press("s")
        assert table.columns[table.sort_index or 0].key == "replay"
        assert table.table.render_line(0).text.startswith("    Replay ↑")
        assert await pilot.click(table.table, offset=(1, 0))  # the marks' label: nothing to sort by
        assert table.columns[table.sort_index or 0].key == "replay"


async def test_esc_clears_the_marks_before_it_goes_back(make_app, emulator) -> None:
    """0 refused to leave over the marks ("leave this one with esc first"), then esc dropped them unasked."""
    app = make_app()
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        table = await errors_tab(app, pilot, emulator.emulator.demo.order_workflow_id, rows=2)
        detail = app.screen
        await pilot.press("space", "space")
        assert len(table.marked) == 2
        await pilot.press("escape")
        await wait_for(pilot, lambda: not table.marked)
        assert app.screen is detail
        assert any("2 marks cleared · esc again goes back" in n.message for n in app._notifications)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is not detail)


async def test_the_errors_tab_updates_by_itself_while_shown(make_app, emulator) -> None:
    demo = emulator.emulator.demo
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, demo.order_workflow_id)
        before = len(table.rows)
        cursor = table.current
        post_orders(emulator, "ord_live1")
        await wait_for(pilot, lambda: len(table.rows) == before + 1, timeout=10)
        newest = table.rows[0]
        assert newest.error().original_event["body"]["order_id"] == "ord_live1"  # type: ignore[union-attr]
        assert table.current is cursor  # the highlighted error stays highlighted
        await pilot.press("[")  # another tab: no more looks
        await pilot.pause(0.1)
        post_orders(emulator, "ord_live2")
        await pilot.pause(4)
        assert len(table.rows) == before + 1
        await pilot.press("]")
        await wait_for(pilot, lambda: len(table.rows) == before + 2, timeout=10)


async def test_the_errors_list_is_focused_again_when_its_tab_comes_back(make_app, emulator) -> None:
    """`[` then `]` from the Errors list had hidden the list and left nothing focused: down, enter and the
    list's keys did nothing until Tab. Each tab's content is focused as it is shown, the keys after it go there."""
    demo = emulator.emulator.demo
    post_orders(emulator, "ord_tab1", "ord_tab2")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, demo.order_workflow_id, rows=2)
        first = table.current
        await pilot.press("[", "]", "down")
        await wait_for(pilot, lambda: app.focused is table.table and table.current is not first)
        await pilot.press("]")  # the JSON tab: its tree, on its first line
        await wait_for(pilot, lambda: app.focused is app.screen.query_one("#json"))
        assert app.focused.cursor_line == 0  # type: ignore[union-attr]


async def test_replay_states_and_links_both_ways(make_app, emulator) -> None:
    demo = emulator.emulator.demo
    post_orders(emulator, "ord_state1", "ord_state2", "ord_state3")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, demo.order_workflow_id)
        pending, again, ok = table.rows[0], table.rows[1], table.rows[2]  # newest first: ord_state3, 2, 1
        await wait_for(pilot, lambda: replay_cell(table, again.id or "") == "never")
        # A replay sent elsewhere (another aftui, `aftui replay`) and still waiting for its outcome.
        with ReplayLog(ReplayJournal(app.session).path(), by="alice") as log:
            log.started(
                "rp_elsewhere",
                emitter_id=demo.order_workflow_id,
                event_id=pending.id or "",
                workflow_id=demo.order_workflow_id,
                method="POST",
                target_url="http://x",
                edited=False,
            )
        await wait_for(pilot, lambda: replay_cell(table, pending.id or "") == "… pending", timeout=10)
        who = table.cell(pending.id, "by").plain
        assert re.fullmatch(r"alice (just now|\d+ s ago)", who), who  # who sent it, seen before a second replay

        await pilot.press("down", "y")  # ord_state2, as it was: it fails again
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.plan is not None, timeout=10)
        replay = app.screen
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: replay.result is not None, timeout=20)
        new_id = replay.result.outcome.event.id  # type: ignore[union-attr]
        await pilot.press("escape")
        await wait_for(pilot, lambda: any(e.id == new_id for e in table.rows), timeout=10)
        await wait_for(pilot, lambda: replay_cell(table, again.id or "") == "✖ failed again", timeout=10)
        original_time = table.cell(again.id or "", "time").plain[-8:]
        assert replay_cell(table, new_id) == f"↻ of {original_time}"
        # Its original not among the rows kept (the journal's, in an outage): the time is read from its id, where
        # the cell said "↻ a replay" beside the others' "↻ of 15:04:29".
        table.item = lambda ident: None  # type: ignore[method-assign]
        assert replay_cell(table, new_id) == f"↻ of {original_time}"
        del table.item

        table.table.move_cursor(row=[e.id for e in table.rows].index(again.id))
        await pilot.press("l")  # to what its replay became
        await wait_for(pilot, lambda: table.current is not None and table.current.id == new_id)
        await pilot.press("l")  # and back
        await wait_for(pilot, lambda: table.current is not None and table.current.id == again.id)
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ErrorEventScreen) and bool(app.screen.query(".-active")), timeout=10
        )
        overview = text_of(app.screen.query_one("Fields"))
        assert "✖ failed again" in overview and f"became {new_id}" in overview
        assert re.search(r"✖ failed again  by \S+ (just now|\d+ s ago)", overview), overview  # who sent it, when
        assert re.search(r"Step +validate \(c_\w+\)", overview), overview  # by name, as the list says it
        first = app.screen
        await pilot.press("l")  # from the original's detail to the error its replay became
        await wait_for(pilot, lambda: app.screen is not first and bool(app.screen.query("Fields")), timeout=10)
        assert app.screen.record.id == new_id  # type: ignore[attr-defined]
        overview = text_of(app.screen.query_one("Fields"))
        assert f"Replay of  {again.id}" in overview and "Replays    never replayed" in overview
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is first)
        await back_to(pilot, table)
        table.table.move_cursor(row=[e.id for e in table.rows].index(new_id))
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ErrorEventScreen) and bool(app.screen.query("Fields")), timeout=10
        )
        second = app.screen
        await pilot.press("l")  # and from the replay's detail back to the original
        await wait_for(pilot, lambda: app.screen is not second and bool(app.screen.query("Fields")), timeout=10)
        assert app.screen.record.id == again.id  # type: ignore[attr-defined]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is second)
        await back_to(pilot, table)

        # ord_state1, with the e-mail added in the editor: replayed ok.
        table.table.move_cursor(row=[e.id for e in table.rows].index(ok.id))
        await pilot.press("e")
        await wait_for(pilot, lambda: bool(app.screen.query("JsonEditor TextArea")), timeout=10)
        editor = app.screen.query_one("JsonEditor")
        body = json.loads(editor.text)
        editor.text = json.dumps({**body, "customer_email": "ops@example.com"})
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.result is not None, timeout=20
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: replay_cell(table, ok.id or "") == "✔ replayed ok", timeout=10)


# --- bulk replay with one fix ---------------------------------------------------------------------------


async def test_an_errors_detail_says_what_its_replay_did_once_back_from_it(make_app, emulator) -> None:
    """Replayed from its own detail, the error said "never replayed" there, with `r` too, while the list behind
    said "failed again": the detail reads its replays again while it is shown, and at once when it is back."""
    post_orders(emulator, "ord_detail1")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, emulator.emulator.demo.order_workflow_id)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ErrorEventScreen) and bool(app.screen.query("#overview")))
        detail = app.screen
        assert "never replayed" in text_of(detail.query_one("#overview", Static))
        await pilot.press("y")  # as it was: it fails again
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.plan is not None, timeout=10)
        replay = app.screen
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: replay.result is not None, timeout=20)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is detail)
        await wait_for(pilot, lambda: "✖ failed again" in text_of(detail.query_one("#overview", Static)), timeout=10)
        assert table.states[detail.ident].replays


async def test_an_errors_overview_shows_what_the_run_was_given_and_slash_there_says_where_to_filter(
    make_app, emulator
) -> None:
    """The failed request's body had been only in the JSON tab, folded; `/` on the Overview did nothing, and a
    filter typed fast after it went on to the App's keys."""
    post_orders(emulator, "ord_body1")
    app = make_app()
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await errors_tab(app, pilot, emulator.emulator.demo.order_workflow_id)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ErrorEventScreen) and bool(app.screen.query("#overview")))
        overview = text_of(app.screen.query_one("#overview", Static))
        assert re.search(r'Body +\{"order_id": "ord_body1", "sku": "SKU-1001", "quantity": 1\}', overview)
        await pilot.press("/")
        await wait_for(pilot, lambda: bool(app._notifications))
        said = [n.message for n in app._notifications]
        assert "Nothing to filter on this tab" in said[-1] and isinstance(app.screen, ErrorEventScreen)


async def test_a_fix_typed_with_the_e_that_opens_the_editor_goes_into_it_in_order(make_app, emulator) -> None:
    """A newcomer's walk: `e`, down, end and a fix typed at once, and the editor opened on the payload as it
    was. The keys met the replay screen while its plan was made (an `m` of the fix opened the monitor), and in
    the editor a letter read with an arrow was typed before the arrow moved the cursor."""
    from test_keys import terminal_types

    from aftui.tui.screens.replay import ReplayEditorScreen
    from aftui.tui.widgets.json_editor import JsonEditor

    post_orders(emulator, "ord_typed1")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, emulator.emulator.demo.order_workflow_id)
        assert table.current is not None and table.current.error().original_event["body"]["order_id"] == "ord_typed1"
        terminal_types(app, 'e\x1b[B\x1b[F "customer_email": "a@b.c",')  # e, down, end, the field
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayEditorScreen), timeout=10)
        editor = app.screen.query_one(JsonEditor)
        await wait_for(pilot, lambda: '"ord_typed1", "customer_email": "a@b.c",' in editor.text, timeout=10)
        assert json.loads(editor.text)["customer_email"] == "a@b.c"
        assert isinstance(app.screen, ReplayEditorScreen)  # no monitor opened by the fix's `m`


async def marked_bulk(app, pilot, table: ErrorsTable, n: int) -> BulkReplayScreen:
    for _ in range(n):
        await pilot.press("space")
    assert len(table.marked) == n
    await pilot.press("R")
    await wait_for(pilot, lambda: isinstance(app.screen, BulkReplayScreen) and app.screen.planned, timeout=10)
    return app.screen  # type: ignore[return-value]


async def type_fix(pilot, screen: BulkReplayScreen, text: str) -> None:
    await pilot.press("f")
    box = screen.query_one("#fix")
    await wait_for(pilot, lambda: screen.focused is box)
    before = screen.edit
    box.value = text
    # Checked against every payload: the new fix, not the one before it, which was checked already when the
    # value was set (the change is handled a message later).
    await wait_for(pilot, lambda: screen.edit is not before and screen.checked is screen.edit)
    await pilot.press("enter")  # back to the list
    await wait_for(pilot, lambda: screen.focused is screen.query_one("DataTable"))


def fix_check(screen: BulkReplayScreen) -> str:
    return text_of(screen.query_one("#fix-check", Static))


def summary(screen: BulkReplayScreen) -> str:
    return text_of(screen.query_one("#summary", Static))


async def test_a_bad_fix_is_said_beside_it_and_nothing_is_sent(make_app, emulator) -> None:
    demo = emulator.emulator.demo
    post_orders(emulator, "ord_bad1", "ord_bad2")
    errors_before = len(listed(emulator, demo.order_workflow_id))
    events_before = len(listed(emulator, demo.order_workflow_id, "event_summaries"))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await errors_tab(app, pilot, demo.order_workflow_id)
        screen = await marked_bulk(app, pilot, table, 2)
        await type_fix(pilot, screen, '{"customer_email": ')
        assert fix_check(screen).startswith("✖ the patch is not valid JSON (line 1, column 19: Expecting value)")
        assert "nothing will be sent" in fix_check(screen)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.focused is screen.query_one("#fix"))  # back to the fix
        assert not screen.running and screen.summary is None
        await type_fix(pilot, screen, "items[0].sku = X")  # the payloads have no items
        assert fix_check(screen).startswith("✖ the fix cannot be made on 2 payloads: 'items[0].sku = X'")
        assert [table_cell(screen, n, "change") for n in (0, 1)] == ["✖ cannot", "✖ cannot"]
        await pilot.press("d")
        await pilot.press("ctrl+s")
        await pilot.pause(0.5)
        assert not screen.running and screen.summary is None and not screen.dry_run_done
        await type_fix(pilot, screen, "customer_email")
        assert "is not an assignment: write path = value" in fix_check(screen)
        await pilot.press("escape")
    assert len(listed(emulator, demo.order_workflow_id)) == errors_before
    assert len(listed(emulator, demo.order_workflow_id, "event_summaries")) == events_before
    with ReplayLog(ReplayJournal(app.session).path()) as log:
        assert log.recent() == []


def table_cell(screen: BulkReplayScreen, index: int, column: str) -> str:
    table = screen.query_one("DataTable")
    return table.get_cell(screen._key(screen.events[index], index + 1), column).plain


async def test_one_fix_for_all_previewed_dry_run_then_sent_and_marks_of_successes_cleared(make_app, emulator) -> None:
    demo = emulator.emulator.demo
    post_orders(emulator, "ord_fix1", "ord_fix2", "ord_fix3")
    errors_before = len(listed(emulator, demo.order_workflow_id))
    events_before = len(listed(emulator, demo.order_workflow_id, "event_summaries"))
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, demo.order_workflow_id)
        screen = await marked_bulk(app, pilot, table, 3)
        assert [e.error().original_event["body"]["order_id"] for e in screen.events] == [  # type: ignore[union-attr]
            "ord_fix1",
            "ord_fix2",
            "ord_fix3",
        ]
        # The error's end, where the field it missed is named, not "ValidationError: Missing…" on every row.
        error = table_cell(screen, 0, "error")  # the table would cut it at its end
        assert len(error) <= 24 and error.startswith("Missing") and error.endswith("_email")
        # A merge patch: one field added, one removed; each row says so, the highlighted one in full.
        await type_fix(pilot, screen, '{"customer_email": "ops@example.com", "sku": null}')
        assert fix_check(screen).startswith("✔ merge patch: changes 3 of 3 payloads")
        assert table_cell(screen, 0, "change") == "2 changes"
        preview = text_of(screen.query_one("#preview", Static))
        assert '+ customer_email: "ops@example.com"' in preview and '- sku (was "SKU-1001")' in preview
        # Assignments instead: what is sent.
        await type_fix(pilot, screen, "customer_email = ops@example.com; quantity = 2")
        assert fix_check(screen).startswith("✔ assignments: changes 3 of 3 payloads")
        preview = text_of(screen.query_one("#preview", Static))
        assert '+ customer_email: "ops@example.com"' in preview and "~ quantity: 1 → 2" in preview
        # The dry run sends nothing.
        await pilot.press("d")
        await wait_for(pilot, lambda: screen.dry_run_done)
        assert summary(screen).startswith("Dry run: 3 of 3 would be sent with the fix; nothing was sent.")
        assert table_cell(screen, 0, "result") == "would send edited"
        preview = text_of(screen.query_one("#preview", Static))
        assert preview.startswith(f"#1 {screen.events[0].id}: would send POST {emulator.root_url}/e/")
        assert len(listed(emulator, demo.order_workflow_id)) == errors_before
        assert len(listed(emulator, demo.order_workflow_id, "event_summaries")) == events_before
        with ReplayLog(ReplayJournal(app.session).path()) as log:
            assert log.recent() == []
        # Sent: the endpoint refuses the first (a fault), the other two run through with the fix.
        inject(emulator, {"path": f"/e/{demo.order_endpoint_key}", "method": "POST", "status": 400, "count": 1})
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.summary is not None, timeout=40)
        assert [table_cell(screen, n, "result").split(":")[0] for n in range(3)] == [
            "? refused by the endpoint",
            "✔ succeeded",
            "✔ succeeded",
        ]
        assert summary(screen).startswith("Done: 2 succeeded · 1 refused")
        await wait_for(pilot, lambda: not screen.running)
        preview = text_of(screen.query_one("#preview", Static))  # sent: the dry run's words are gone
        assert "would send" not in preview and f": sent POST {emulator.root_url}/e/" in preview, preview
        offered = {active.binding.action for active in screen.active_bindings.values()}
        assert offered.isdisjoint({"start", "stop", "dry_run", "fix"}), offered  # done: they only refused
        first = screen.events[0].id
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.query(ErrorsTable) and table.marked == {first}, timeout=10)
        await wait_for(pilot, lambda: table.cell(first, "mark").plain == "●")
        # Said in the list's line, where the user is, not in a toast that follows them back to Health.
        said = text_of(table.query_one(".status", Static))
        assert "1 marked · 2 replayed ok, unmarked · 1 did not succeed, still marked" in said, said
        assert not [n for n in app._notifications if "marked" in n.message]
        await pilot.press("space")  # the next mark's change: the line says the marks only
        await wait_for(pilot, lambda: "unmarked" not in text_of(table.query_one(".status", Static)))
    emitted = {
        e["event"]["order_id"]: e["event"]
        for e in listed(emulator, demo.order_workflow_id, "event_summaries")
        if e["event"].get("order_id", "").startswith("ord_fix")
    }
    assert sorted(emitted) == ["ord_fix2", "ord_fix3"]
    assert all(e["customer_email"] == "ops@example.com" and e["quantity"] == 2 for e in emitted.values())


async def test_a_group_is_replayed_without_its_fixed_errors_nor_the_replays(make_app, emulator) -> None:
    demo = emulator.emulator.demo
    post_orders(emulator, "ord_grp1", "ord_grp2")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, demo.order_workflow_id)
        fixed = table.rows[0]
        with ReplayLog(ReplayJournal(app.session).path()) as log:
            log.started(
                "rp_done",
                emitter_id=demo.order_workflow_id,
                event_id=fixed.id or "",
                workflow_id=demo.order_workflow_id,
                method="POST",
                target_url="http://x",
                edited=True,
            )
            log.finished("rp_done", outcome="succeeded", status_code=200)
        await wait_for(pilot, lambda: replay_cell(table, fixed.id or "") == "✔ replayed ok", timeout=10)
        total = len(table.rows)
        await pilot.press("g")
        view = app.screen.query_one(ErrorGroupsView)
        await wait_for(pilot, lambda: len(view.groups) == 1 and app.focused is view.table)
        assert "1 replayed ok" in view.query_one(".detail", Phrases).text.plain
        await pilot.press("R")
        await wait_for(pilot, lambda: isinstance(app.screen, BulkReplayScreen), timeout=10)
        assert len(app.screen.events) == total - 1 and fixed.id not in {e.id for e in app.screen.events}
        title = " ".join(text_of(app.screen.query_one(".title", Static)).split())
        assert f"{total - 1} errors of" in title and "(the group ValidationError" in title
        assert (
            "; 1 more left out: replayed ok already, pending, sent with the outcome unknown, or itself a replay"
            in title
        )
        # The same from the group's list of errors, with nothing marked.
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.focused is view.table, timeout=10)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.focused is table.table and table.group is not None)
        await pilot.press("R")
        await wait_for(pilot, lambda: isinstance(app.screen, BulkReplayScreen), timeout=10)
        assert len(app.screen.events) == total - 1 and fixed.id not in {e.id for e in app.screen.events}


async def test_a_journal_that_cannot_be_read_is_said_and_the_list_still_works(
    make_app, emulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreadable(self: Journal) -> None:  # the replay log's table cannot be opened (a damaged or locked file)
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(Journal, "replays", unreadable)
    demo = emulator.emulator.demo
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, demo.order_workflow_id)
        hint = app.screen.query_one(ErrorsTab).query_one(".hint", Phrases)
        await wait_for(pilot, lambda: "✖ replay states unknown: " in hint.text.plain, timeout=10)
        assert table.states == {} and replay_cell(table, table.rows[0].id or "") == ""
        await pilot.press("g")
        view = app.screen.query_one(ErrorGroupsView)
        await wait_for(pilot, lambda: len(view.groups) == 1)
        assert text_of(view.table.get_cell(view.groups[0].key.fingerprint, "state")).strip() == "? no journal"


async def test_errors_scrolled_out_of_sight_at_the_top_are_said_to_be_there(make_app, emulator) -> None:
    """Newest first, the view keeps its place as errors arrive: a newcomer saw the count grow and none of the new
    ones. The list's line says how many newer ones are above, until home shows them."""
    post_orders(emulator, *(f"ord_above{n}" for n in range(10)))  # more than the 15 rows of the list at 80x24
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await errors_tab(app, pilot, emulator.emulator.demo.order_workflow_id, rows=20)
        status = lambda: text_of(table.query_one(".status", Static))  # noqa: E731
        assert "newer above" not in status()
        await pilot.press("end")
        await wait_for(pilot, lambda: table.table.scroll_y > 0)
        above = int(table.table.scroll_y)
        await wait_for(pilot, lambda: f"↑ {above} newer above · home" in status())
        await pilot.press("s")  # sorted, the rows above are not the newer ones: not said
        await wait_for(pilot, lambda: "newer above" not in status())
        await pilot.press("s", "s")  # unsorted again
        await pilot.press("home")
        await wait_for(pilot, lambda: table.table.scroll_y == 0 and "newer above" not in status())


def test_an_errors_detail_leaves_out_what_the_service_did_not_send_rather_than_saying_none() -> None:
    from types import SimpleNamespace

    from aftui.api.models import EventSummary
    from aftui.tui.screens.events import EventScreen

    error = EventSummary.model_validate(
        {
            "id": "1-0",
            "event": {
                "error": {"msg": "boom"},
                "original_context": {"workflow_id": "p_x"},
                "original_event": {},
            },
        }
    )
    rows = dict(EventScreen.overview_rows(SimpleNamespace(record=error)))  # type: ignore[arg-type]
    assert rows["Trigger"] is None and rows["Workflow"] == "(p_x)" and rows["Error"] == "Error: boom"


async def test_the_errors_the_service_no_longer_keeps_are_listed_from_the_journal_and_grouped(
    make_app, emulator
) -> None:
    """In a flood, the service keeps a workflow's last 100 errors; Health counts the hour's from the journal,
    and those past the hundred could be neither seen nor replayed here: the workflow stayed failing."""
    workflow = emulator.emulator.demo.order_workflow_id
    post_orders(emulator, *(f"ord_early{n}" for n in range(3)))
    early = {
        e["id"]
        for e in listed(emulator, workflow)
        if e["event"]["original_event"]["body"]["order_id"].startswith("ord_early")
    }
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, workflow)  # listed: journaled
        await wait_for(pilot, lambda: app.session.journal is not None and app.session.journal.journal is not None)
        await wait_for(pilot, lambda: early <= {e.id for e in app.session.journal.journal.recent(workflow, 500)})
        post_orders(emulator, *(f"ord_flood{n}" for n in range(100)))
        assert not early & {e["id"] for e in listed(emulator, workflow)}
        await pilot.press("r")  # while the live look finds the hundred new ones: they were listed twice
        await wait_for(pilot, lambda: early <= {e.id for e in table.rows}, timeout=15)
        await pilot.pause(2 * LIVE_S)
        ids = [e.id for e in table.rows]
        assert len(ids) == len(set(ids))
        keys = [e.key for e in table.rows]
        assert len(keys) > 100 and keys == sorted(keys, reverse=True)  # the journal's after the service's, newest first
        await pilot.press("g")
        view = app.screen.query_one(ErrorGroupsView)
        await wait_for(pilot, lambda: bool(view.groups), timeout=10)
        assert sum(g.count for g in view.groups) == len(table.rows)  # the group replay takes them too


async def test_the_filter_finds_an_error_by_what_its_payload_holds(make_app, emulator) -> None:
    """An order id is in the run's payload, not in the line: `/` found nothing, where the monitor's filter does."""
    workflow = emulator.emulator.demo.order_workflow_id
    post_orders(emulator, "ord_needle7", "ord_other8")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, workflow, rows=2)
        await pilot.press("slash", *"ord_needle7", "enter")
        await wait_for(pilot, lambda: len(table.rows) == 1, timeout=10)
        [shown] = table.rows
        error = shown.error()
        assert error is not None and error.original_event["body"]["order_id"] == "ord_needle7"


def test_a_bulk_row_that_failed_again_with_its_own_error_does_not_spell_it_again() -> None:
    """The Error cell is cut to its column; the outcome's detail is the error whole. Compared cut, every row that
    failed again with the same error spelled it out a second time in the Replay column."""
    from types import SimpleNamespace

    from aftui.api.models import EventSummary
    from aftui.replay.watch import Outcome
    from aftui.tui.screens.replay_bulk import _result_cell

    error = EventSummary.model_validate(
        {
            "id": "1-0",
            "event": {
                "error": {"code": "ValidationError", "msg": "Missing required field: customer_email"},
                "original_context": {"workflow_id": "p_x"},
                "original_event": {},
            },
        }
    )
    same = Outcome("failed", "ValidationError: Missing required field: customer_email")
    other = Outcome("failed", "TypeError: x is undefined")
    row = SimpleNamespace(plan=SimpleNamespace(event=error))
    assert _result_cell(SimpleNamespace(**vars(row), outcome=same)).plain == "✖ failed again"  # type: ignore[arg-type]
    assert _result_cell(SimpleNamespace(**vars(row), outcome=other)).plain == (  # type: ignore[arg-type]
        "✖ failed again: TypeError: x is undefined"
    )


async def journaled_and_left(app, pilot, workflow: str, shown: set[str]) -> None:
    """The workflow's Errors listed (so journaled, `shown` among them), then left for the main screen."""
    await errors_tab(app, pilot, workflow)
    await wait_for(pilot, lambda: app.session.journal is not None and app.session.journal.journal is not None)
    await wait_for(pilot, lambda: shown <= {e.id for e in app.session.journal.journal.recent(workflow, 500)})
    await pilot.press("escape")


async def test_in_an_outage_a_workflow_opens_on_the_errors_the_journal_kept(make_app, emulator) -> None:
    """Health counted a workflow's errors from the journal, and with the service answering 503 the workflow
    opened on "Could not load" alone. Its errors of the day are shown from the journal, with why; r (or the
    service answering again) brings the whole detail back."""
    from aftui.tui.screens.workflows import WorkflowScreen

    workflow = emulator.emulator.demo.order_workflow_id
    post_orders(emulator, "ord_outage1", "ord_outage2")
    shown = {e["id"] for e in listed(emulator, workflow)}
    faults = f"{emulator.root_url}/_emulator/faults"
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await journaled_and_left(app, pilot, workflow, shown)
        httpx.post(faults, json={"path": "/v1", "count": 10_000, "status": 503})
        try:
            app.open_id(workflow)
            await wait_for(pilot, lambda: isinstance(app.screen, WorkflowScreen) and app.screen.built >= 1, timeout=20)
            screen = app.screen
            assert screen.down is not None and screen.down.status == 503
            table = screen.query_one(ErrorsTable)
            await wait_for(pilot, lambda: {e.id for e in table.rows} == shown, timeout=10)
            hint = screen.query_one(ErrorsTab).query_one(".hint", Phrases).text.plain
            assert hint.startswith(
                "⚠ The service answered HTTP 503: its errors as the journal kept them, of the last day"
            )
            assert "the service's last 100" not in hint
            assert not screen.check_action("toggle_active", ())  # nothing to change while it does not answer
        finally:
            httpx.delete(faults)
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.down is None and bool(screen.query("#events")), timeout=20)


async def test_in_an_outage_a_source_opens_on_the_events_the_journal_kept(make_app, emulator) -> None:
    """Health showed when a source last emitted, from the journal, and with the service answering 503 the source
    opened on "Could not load" alone. Its events of the day are shown from the journal, with why; the whole
    detail comes back once the service answers."""
    from aftui.tui.screens.live_events import LiveEvents
    from aftui.tui.screens.sources import SourceScreen

    source = next(s for s in emulator.emulator.store.sources.values() if s.name == "Webhook inbox")
    httpx.post(f"{emulator.root_url}/e/{inbox_key(emulator)}/", json={"note": "kept"}, timeout=10).raise_for_status()
    faults = f"{emulator.root_url}/_emulator/faults"
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        app.push_screen(SourceScreen(source.id, ("Health", "Webhook inbox"), tab="Events"))
        await wait_for(
            pilot, lambda: bool(app.screen.query(LiveEvents)) and bool(app.screen.query_one(LiveEvents).rows)
        )
        shown = {e.id for e in app.screen.query_one(LiveEvents).rows}
        await wait_for(pilot, lambda: app.session.journal is not None and app.session.journal.journal is not None)
        await wait_for(pilot, lambda: shown <= {e.id for e in app.session.journal.journal.recent(source.id, 500)})
        await pilot.press("escape")
        httpx.post(faults, json={"path": "/v1", "count": 10_000, "status": 503})
        try:
            app.push_screen(SourceScreen(source.id, ("Health", "Webhook inbox"), tab="Events"))
            await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen) and app.screen.built >= 1, timeout=20)
            screen = app.screen
            assert screen.down is not None and screen.down.status == 503
            table = screen.query_one(LiveEvents)
            await wait_for(pilot, lambda: {e.id for e in table.rows} == shown, timeout=10)
            said = screen.query_one(".hint", Phrases).text.plain
            assert said.startswith(
                "⚠ The service answered HTTP 503: its events as the journal kept them, of the last day"
            )
            assert not screen.check_action("delete_source", ())  # nothing to change while it does not answer
            assert screen.json_data() == {"id": source.id, "note": "not read: the service did not answer"}
        finally:
            httpx.delete(faults)
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.down is None and bool(screen.query("#events")), timeout=20)
        assert screen.record.name == "Webhook inbox" and screen.check_action("delete_source", ()) is not False


async def test_back_from_a_replay_in_an_outage_the_error_says_its_replay_at_once(
    make_app, emulator, monkeypatch
) -> None:
    """The list could not be loaded again in an outage, and the error just replayed said "never" for as long as it
    lasted: an engineer could send it again."""
    from functools import partial

    from aftui.tui.screens import replay as replay_module

    monkeypatch.setattr(replay_module, "replay_one", partial(replay_module.replay_one, watch_timeout=1.0))
    workflow = emulator.emulator.demo.order_workflow_id
    post_orders(emulator, "ord_back_outage")
    faults = f"{emulator.root_url}/_emulator/faults"
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, workflow)
        ident = table.current.id if table.current else ""
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.plan is not None, timeout=10)
        screen = app.screen
        httpx.post(faults, json={"path": "/v1/", "method": "GET", "count": 10_000, "status": 503})
        try:
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: screen.result is not None, timeout=15)
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is table.screen)
            await wait_for(pilot, lambda: replay_cell(table, ident) == "? unknown", timeout=5)
        finally:
            httpx.delete(faults)


async def test_a_service_that_hangs_shows_the_journals_errors_after_a_few_seconds(
    make_app, emulator, monkeypatch
) -> None:
    """Against a service that hung, the workflow showed its loading dots for 95 s (the client's tries) before
    the journal's errors. Past HANG_S it shows them, and the whole detail once the service answers."""
    from aftui.tui.screens import stand_in
    from aftui.tui.screens.workflows import WorkflowScreen

    monkeypatch.setattr(stand_in, "HANG_S", 0.5)
    workflow = emulator.emulator.demo.order_workflow_id
    post_orders(emulator, "ord_hang1")
    shown = {e["id"] for e in listed(emulator, workflow)}
    faults = f"{emulator.root_url}/_emulator/faults"
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await journaled_and_left(app, pilot, workflow, shown)
        httpx.post(faults, json={"path": f"/v1/workflows/{workflow}", "method": "GET", "count": 1, "delay": 20})
        try:
            app.open_id(workflow)
            await wait_for(pilot, lambda: isinstance(app.screen, WorkflowScreen) and app.screen.built >= 1, timeout=5)
            screen = app.screen
            assert screen.down is not None and screen.down.message == "no answer in 0.5 s"
            table = screen.query_one(ErrorsTable)
            await wait_for(pilot, lambda: {e.id for e in table.rows} == shown, timeout=10)
        finally:
            httpx.delete(faults)
        # The probe's next try is answered (the fault held one request): the whole detail, by itself.
        await wait_for(pilot, lambda: screen.down is None and bool(screen.query("#events")), timeout=20)


# --- replays sent with the outcome unknown ------------------------------------------------------------


def sent_unknown(emulator: ServerHandle, path: Path, error: dict[str, Any], replay_id: str, body: dict) -> None:
    """What an outage leaves: the replay reached the endpoint, and the journal says its outcome is unknown."""
    demo = emulator.emulator.demo
    with ReplayLog(path) as log:
        log.started(
            replay_id, emitter_id=demo.order_workflow_id, event_id=error["id"], workflow_id=demo.order_workflow_id,
            method="POST", target_url="https://e.test/", edited=True,
        )  # fmt: skip
        httpx.post(
            f"{emulator.root_url}/e/{demo.order_endpoint_key}/", json=body, headers={"x-aftui-replay": replay_id}
        ).raise_for_status()
        log.finished(replay_id, outcome="unknown", status_code=200, detail="the looks failed")
    with sqlite3.connect(path) as db:  # sent at the emulator's time: its clock stands at the demo's date
        db.execute(
            "UPDATE replays SET started_at = ? WHERE replay_id = ?", (emulator.emulator.store.clock.now(), replay_id)
        )


async def test_a_replay_of_an_outcome_unknown_is_found_replayed_ok_once_the_service_answers(make_app, emulator) -> None:
    """An outage's replay stayed "? unknown", out of every bulk replay, though it had run."""
    workflow = emulator.emulator.demo.order_workflow_id
    post_orders(emulator, "ord_unknown_ran")
    error = next(
        e for e in listed(emulator, workflow) if e["event"]["original_event"]["body"]["order_id"] == "ord_unknown_ran"
    )
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        path = ReplayJournal(app.session).path()
        assert path is not None
        fixed = {**error["event"]["original_event"]["body"], "customer_email": "ops@example.com"}
        sent_unknown(emulator, path, error, "rp_0000000000000ok1", fixed)
        table = await errors_tab(app, pilot, workflow)
        await wait_for(pilot, lambda: replay_cell(table, error["id"]) == "✔ replayed ok", timeout=10)
        await wait_for(pilot, lambda: any(n.title == "Replay outcome found" for n in app._notifications))
        said = next(n.message for n in app._notifications if n.title == "Replay outcome found")
        assert said.startswith("1 replayed ok: a replay sent with the outcome unknown, now seen"), said
    with ReplayLog(path) as log:
        [row] = log.of_event(workflow, error["id"])
    assert row.outcome == "succeeded" and row.outcome_event_id in {
        e["id"] for e in listed(emulator, workflow, "event_summaries")
    }


def test_l_on_an_error_replayed_ok_says_there_is_no_error_to_go_to_not_that_it_was_never_replayed() -> None:
    """An on-call walk: `l` on a row reading "✔ replayed ok" said "This error was not replayed and is not a replay"."""
    replayed = ReplayState("succeeded", replays=(object(),))  # type: ignore[arg-type]
    assert no_link_words(replayed) == (
        "No error to go to: its replay did not fail again (replayed ok); l links an error to the error its replay "
        "became."
    )
    assert no_link_words(ReplayState()) == "This error was not replayed and is not a replay."
    assert no_link_words(None) == "This error was not replayed and is not a replay."
