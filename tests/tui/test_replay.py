"""Replay in the TUI, driven against the demo emulator: the replay screen, its editor, bulk replay, the Errors tab."""

from __future__ import annotations

import io
import json
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.console import Console
from textual.widgets import DataTable, Input, ProgressBar, Static, Tabs
from tui_helpers import wait_for

from aftui.api.models import EventSummary
from aftui.emulator.server import ServerHandle
from aftui.journal.replays import ReplayLog
from aftui.journal.store import Journal
from aftui.replay import REPLAY_HEADER
from aftui.replay.who import name_of
from aftui.tui.modals.confirm import ConfirmScreen
from aftui.tui.screens.replay import (
    ReplayEditorScreen,
    ReplayJournal,
    ReplayScreen,
    export_dir,
    open_bulk_replay,
    open_replay,
)
from aftui.tui.screens.replay_bulk import BulkReplayScreen
from aftui.tui.screens.replay_errors import ErrorEventScreen, ErrorsTable
from aftui.tui.widgets.json_editor import JsonEditor


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Whatever is not in the session's own folder (journal, replays, exports) goes to the test's directory too."""
    directory = tmp_path / "aftui-data"
    monkeypatch.setenv("AFTUI_DATA_DIR", str(directory))
    return directory


def text_of(widget: Static) -> str:
    console = Console(width=200, file=io.StringIO(), record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


def api(emulator: ServerHandle) -> httpx.Client:
    return httpx.Client(
        base_url=emulator.base_url, headers={"Authorization": f"Bearer {emulator.emulator.demo.api_key}"}, timeout=10
    )


def post_orders(emulator: ServerHandle, *names: str) -> list[EventSummary]:
    """Orders without a customer e-mail, sent to the demo's order endpoint; their `$errors`, oldest first."""
    demo = emulator.emulator.demo
    for name in names:
        httpx.post(
            f"{emulator.root_url}/e/{demo.order_endpoint_key}/",
            json={"order_id": name, "sku": "SKU-1001", "country": "de"},
            timeout=10,
        )
    with api(emulator) as client:
        items = client.get(
            f"/workflows/{demo.order_workflow_id}/$errors/event_summaries", params={"expand": "event"}
        ).json()["data"]
    by_order = {e["event"]["original_event"]["body"].get("order_id"): EventSummary.model_validate(e) for e in items}
    return [by_order[name] for name in names]


def post_order_with(emulator: ServerHandle, body: dict[str, Any], headers: dict[str, str]) -> EventSummary:
    """An order (failing: no customer e-mail) sent with these headers; its `$errors` event, found by its order_id."""
    demo = emulator.emulator.demo
    httpx.post(f"{emulator.root_url}/e/{demo.order_endpoint_key}/", json=body, headers=headers, timeout=10)
    with api(emulator) as client:
        items = client.get(
            f"/workflows/{demo.order_workflow_id}/$errors/event_summaries", params={"expand": "event"}
        ).json()["data"]
    found = next(e for e in items if e["event"]["original_event"]["body"].get("order_id") == body["order_id"])
    return EventSummary.model_validate(found)


def timer_errors(emulator: ServerHandle) -> list[dict[str, Any]]:
    """Runs of the flaky timer workflow until one fails (one in five does; the seed fixes which)."""
    flaky = next(w for w in emulator.emulator.store.workflows.values() if w.name == "Flaky partner sync")
    with api(emulator) as client:
        for _ in range(40):
            httpx.post(f"{emulator.root_url}/_emulator/timers/{flaky.id}/run", timeout=10)
            errors = client.get(f"/workflows/{flaky.id}/$errors/event_summaries", params={"expand": "event"}).json()[
                "data"
            ]
            if errors:
                return errors
    raise AssertionError("the flaky workflow never failed")


def workflow_output(emulator: ServerHandle, kind: str = "event_summaries") -> list[dict[str, Any]]:
    demo = emulator.emulator.demo
    with api(emulator) as client:
        return client.get(f"/workflows/{demo.order_workflow_id}/{kind}", params={"expand": "event"}).json()["data"]


def outcome(app) -> str:
    return text_of(app.screen.query_one("#outcome", Static))


def offered(screen) -> dict[str, str]:
    """The actions the screen's keys offer now (enabled), each with its footer words."""
    return {a.binding.action: a.binding.description for a in screen.active_bindings.values() if a.enabled}


async def replay_screen(app, pilot, event: EventSummary, *, edit: bool = False) -> ReplayScreen:
    open_replay(app, event, event.metadata.emitter_id or "", edit=edit)
    if edit:  # the editor, once its text area is in
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ReplayEditorScreen) and bool(app.screen.query("JsonEditor TextArea")),
            timeout=10,
        )
    else:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), timeout=10)
    screen = app.screen if not edit else app.screen_stack[-2]
    await wait_for(pilot, lambda: screen.plan is not None, timeout=10)
    return screen


async def test_the_failing_order_fixed_in_the_editor_succeeds(make_app, emulator) -> None:
    (error,) = post_orders(emulator, "ord_tui1")
    demo_workflow = emulator.emulator.demo.order_workflow_id
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await replay_screen(app, pilot, error, edit=True)
        editor = app.screen.query_one(JsonEditor)
        assert json.loads(editor.text) == {"order_id": "ord_tui1", "sku": "SKU-1001", "country": "de"}
        head = text_of(app.screen.query_one(".head", Static))  # what to mend, in sight while mending it
        assert (
            f"(error {error.id}) with ValidationError: Missing required field: customer_email (step validate)" in head
        )
        assert "It failed at " in head  # which of a few alike was opened
        editor.text = json.dumps(
            {"order_id": "ord_tui1", "sku": "SKU-1001", "country": "de", "customer_email": "fixed@shop.example"}
        )
        sent = json.loads(editor.text)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen and screen.result is not None, timeout=15)
        shown = outcome(app)
        assert "✔ succeeded" in shown and "sent with the edited payload" in shown
        plan = text_of(screen.query_one("#plan", Static))  # the plan says what went, not the original's size
        edited_size = len(json.dumps(sent, separators=(",", ":")).encode())
        assert f"body {edited_size} bytes, as you edited it, compacted" in plan, plan
        assert plan.startswith("Sent POST")  # it said "Will send" of what had gone
        assert "the original as it was" not in plan
        assert "ValidationError: Missing required field: customer_email" in text_of(
            screen.query_one("#error", Static)
        )  # the original beside it
        journal = ReplayJournal(app.session).path()

    emitted = [e["event"] for e in workflow_output(emulator) if e["event"].get("order_id") == "ord_tui1"]
    assert emitted == [
        {
            "order_id": "ord_tui1",
            "sku": "SKU-1001",
            "country": "DE",
            "customer_email": "fixed@shop.example",
            "source": "webshop",
            "pipeline": "orders-v2",
        }
    ]
    with ReplayLog(journal) as log:
        rows = log.of_event(error.metadata.emitter_id or "", error.id or "")
    assert [(r.outcome, r.edited, r.status_code) for r in rows] == [("succeeded", True, 200)]
    # What the replay led to reached the journal as it was seen: the emitted event, linked from the replay's row.
    with Journal(journal) as events:
        kept = {e.id: e.event for e in events.recent(demo_workflow, limit=1000)}
    assert kept[rows[0].outcome_event_id]["customer_email"] == "fixed@shop.example"


async def test_a_pane_key_leaves_a_replay_sent_but_not_an_edit_unsent(make_app, emulator) -> None:
    """The header said "press 0" for a new alert, and 0 on a replay just sent was refused."""
    first, second = post_orders(emulator, "ord_key1", "ord_key2")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await replay_screen(app, pilot, first, edit=True)
        app.screen.query_one(JsonEditor).text = '{"order_id": "ord_key1", "customer_email": "a@b.example"}'
        await pilot.press("escape")  # out of the editor, the draft kept and not sent
        await wait_for(pilot, lambda: app.screen is screen and screen.draft is not None)
        await pilot.press("0")
        await pilot.pause()
        assert app.screen is screen  # an edit not sent is the user's work: said, not thrown away
        assert any("edited payload not sent" in n.message for n in app._notifications)
        await pilot.press("e")  # reverted to the original: nothing is held any more (it said it still was)
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayEditorScreen))
        await pilot.press("ctrl+r", "escape")
        await wait_for(pilot, lambda: app.screen is screen and not screen.pending_edit)
        assert screen.held() is None
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ReplayScreen))

        screen = await replay_screen(app, pilot, second)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.result is not None, timeout=15)
        await pilot.press("0")
        await wait_for(pilot, lambda: app.screen is app.screen_stack[0])
        await wait_for(pilot, lambda: app.query_one("#panes").current == "health")


async def test_an_edit_left_with_esc_is_what_ctrl_s_sends_and_the_plan_says_so(make_app, emulator) -> None:
    """A newcomer fixed the payload, left the editor with esc ("Back (keeps text)"), pressed ctrl+s: the
    original went, unedited, and failed again, while the plan said "the original as it was"."""
    (error,) = post_orders(emulator, "ord_tui_esc")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await replay_screen(app, pilot, error, edit=True)
        editor = app.screen.query_one(JsonEditor)
        editor.text = json.dumps({"order_id": "ord_tui_esc", "sku": "SKU-1001", "customer_email": "a@shop.example"})
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen and screen.draft is not None)
        plan = text_of(screen.query_one("#plan", Static))
        assert "your edit, not sent yet" in plan and "the original as it was" not in plan, plan
        assert offered(screen).get("replay_edit") == "Send your edit" and "replay" not in offered(screen)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.result is not None, timeout=15)
        assert "✔ succeeded" in outcome(app) and "sent with the edited payload" in outcome(app)
        keys = offered(screen)
        assert "replay_again" in keys and "replay_edit" not in keys  # sent: the next ctrl+s asks
        journal = ReplayJournal(app.session).path()
    with ReplayLog(journal) as log:
        rows = log.of_event(error.metadata.emitter_id or "", error.id or "")
    assert [(r.outcome, r.edited) for r in rows] == [("succeeded", True)]


async def test_an_edit_left_invalid_says_so_and_ctrl_s_opens_it_where_it_breaks(make_app, emulator) -> None:
    """Left with esc while it did not parse, the plan said "your edit, not sent yet (106 bytes as typed): ctrl+s
    sends it", as of an edit ready to go."""
    (error,) = post_orders(emulator, "ord_tui_bad_draft")
    app = make_app()
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        screen = await replay_screen(app, pilot, error, edit=True)
        app.screen.query_one(JsonEditor).text = '{"order_id": "ord_tui_bad_draft",\n  "sku" "SKU-1"}'
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen and screen.draft is not None)
        plan = " ".join(text_of(screen.query_one("#plan", Static)).split())
        assert "your edit, not sent yet (50 bytes as typed), not valid JSON: line 2, column 9" in plan, plan
        assert "e (or ctrl+s) opens it there" in plan, plan
        await pilot.press("ctrl+s")  # nothing invalid is sent: the editor, at the problem
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayEditorScreen))
        assert any("Not sent: your edit is not valid JSON" in n.message for n in app._notifications)


async def test_esc_over_an_edit_not_sent_asks_before_it_is_thrown_away(make_app, emulator) -> None:
    from aftui.tui.modals.confirm import ConfirmScreen

    (error,) = post_orders(emulator, "ord_tui_keep")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await replay_screen(app, pilot, error, edit=True)
        app.screen.query_one(JsonEditor).text = json.dumps(
            {"order_id": "ord_tui_keep", "customer_email": "k@x.example"}
        )
        await pilot.press("escape")  # the editor: back to the replay, the edit kept
        await wait_for(pilot, lambda: app.screen is screen and screen.pending_edit)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "Leave this replay?" in str(app.screen.query_one(".title").render())
        await pilot.pause(0.2)
        await pilot.press("n")  # back, the edit as it was
        await wait_for(pilot, lambda: app.screen is screen)
        assert screen.pending_edit and "k@x.example" in (screen.draft or "")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.pause(0.2)
        await pilot.press("y")
        await wait_for(pilot, lambda: screen not in app.screen_stack)


async def test_a_second_ctrl_s_after_an_edited_replay_asks_before_sending_the_original(make_app, emulator) -> None:
    """A newcomer pressed ctrl+s again after the fixed payload had succeeded: the original went, unedited, and
    failed again, marking the error not fixed. Now the screen asks, says what would go, and sends on yes only."""
    from aftui.tui.modals.confirm import ConfirmScreen

    (error,) = post_orders(emulator, "ord_tui_again")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await replay_screen(app, pilot, error, edit=True)
        editor = app.screen.query_one(JsonEditor)
        editor.text = json.dumps({"order_id": "ord_tui_again", "sku": "SKU-1001", "customer_email": "a@shop.example"})
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen and screen.result is not None, timeout=15)
        keys = offered(screen)
        assert keys.get("replay_again") == "Send again…" and "replay" not in keys
        first = screen.result
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        said = " ".join(app.screen.what)
        assert (
            "succeeded, with your edited payload" in said and "the original payload, as it was, not your edit" in said
        )
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.pause(0.3)
        assert screen.result is first and not screen.running  # nothing sent
        journal = ReplayJournal(app.session).path()
        with ReplayLog(journal) as log:
            assert len(log.of_event(error.metadata.emitter_id or "", error.id or "")) == 1
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")  # asked for: sent, as it was
        await wait_for(pilot, lambda: screen.result is not first and screen.result is not None, timeout=15)
        assert "✖ failed again" in outcome(app)
    with ReplayLog(journal) as log:
        rows = log.of_event(error.metadata.emitter_id or "", error.id or "")
    assert [(r.outcome, r.edited) for r in rows] == [("failed", False), ("succeeded", True)]


async def test_replay_as_is_fails_again_and_shows_the_new_error(make_app, emulator) -> None:
    (error,) = post_orders(emulator, "ord_tui2")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await replay_screen(app, pilot, error)
        plan = text_of(screen.query_one("#plan", Static))
        assert f"Will send POST {emulator.root_url}/e/" in plan and "left out" in plan and "content-length" in plan
        # Each frame on a line of its own, its path cut to the file: whole, it broke inside the path.
        assert "at Object.run (…/component.mjs:24:15)\n" in text_of(screen.query_one("#error", Static))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.result is not None, timeout=15)
        shown = outcome(app)
        assert "✖ failed again" in shown and "ValidationError: Missing required field: customer_email" in shown
        assert "the endpoint took it (HTTP 200); the run it started failed" in shown  # not "HTTP 200" alone
        new_id = screen.result.outcome.event.id  # type: ignore[union-attr]
    errors = workflow_output(emulator, "$errors/event_summaries")
    assert [e["event"]["original_event"]["headers"][REPLAY_HEADER] for e in errors if e["id"] == new_id] == [
        screen.result.replay_id
    ]  # type: ignore[union-attr]


def journal_path(app) -> Path:
    """The journal file the app's replays are recorded in."""
    path = ReplayJournal(app.session).path()
    assert path is not None
    return path


def replayed_before(log: ReplayLog, replay_id: str, error: EventSummary, outcome: str, *, edited: bool = False) -> None:
    """A replay of `error` in the journal, as another aftui (or a teammate) recorded it."""
    workflow = error.metadata.emitter_id or ""
    log.started(
        replay_id, emitter_id=workflow, event_id=error.id or "", workflow_id=workflow,
        method="POST", target_url="https://e.test/", edited=edited,
    )  # fmt: skip
    log.finished(replay_id, outcome=outcome, status_code=200)


async def test_who_replayed_before_is_shown_and_a_replay_names_its_sender(make_app, emulator) -> None:
    (error,) = post_orders(emulator, "ord_tui_who")
    workflow = error.metadata.emitter_id or ""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        path = journal_path(app)
        with ReplayLog(path, by="alice") as log:  # a teammate replayed it three minutes ago
            replayed_before(log, "rp_alice", error, "succeeded")
        db = sqlite3.connect(path)
        db.execute("UPDATE replays SET started_at = started_at - 185")
        db.commit()
        db.close()
        screen = await replay_screen(app, pilot, error)
        assert "replayed by alice 3 min ago, succeeded" in outcome(app)  # read before ctrl+s can send
        # Replayed ok already: the first ctrl+s asks, as a second send from the screen does; it sent at once.
        assert offered(screen).get("replay_again") == "Send again…"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        said = " ".join(app.screen.what)
        assert "This error was replayed by alice 3 min ago, succeeded." in said
        assert "This sends the original payload, as it was." in said
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.pause(0.3)
        assert screen.result is None and not screen.running
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: screen.result is not None, timeout=15)
        me = name_of(await app.session.client.me())
    with ReplayLog(path) as log:
        rows = log.of_event(workflow, error.id or "")
    assert [r.replayed_by for r in rows] == [me, "alice"]  # this replay names the profile's user


async def test_an_edit_of_an_error_replayed_ok_asks_before_it_goes_and_a_no_keeps_it(make_app, emulator) -> None:
    """The editor's ctrl+s over an error the journal says was replayed ok (with an edit) asks first; no keeps
    the edit, not sent, for ctrl+s on the replay screen, which asks again."""
    (error,) = post_orders(emulator, "ord_tui_edit_ok")
    workflow = error.metadata.emitter_id or ""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        path = journal_path(app)
        with ReplayLog(path) as log:
            replayed_before(log, "rp_ok", error, "succeeded", edited=True)
            replayed_before(log, "rp_dup", error, "failed")  # a later one failed: still done once
        screen = await replay_screen(app, pilot, error, edit=True)
        editor = app.screen.query_one(JsonEditor)
        editor.text = json.dumps({"order_id": "ord_tui_edit_ok", "sku": "SKU-1001", "customer_email": "a@b.example"})
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        said = " ".join(app.screen.what)
        assert "succeeded, with an edited payload." in said and "This sends your edit." in said
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.pause(0.3)
        assert screen.result is None and screen.pending_edit
        assert offered(screen).get("replay_edit") == "Send your edit"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: screen.result is not None, timeout=15)
        assert "✔ succeeded" in outcome(app)
    with ReplayLog(path) as log:
        rows = log.of_event(workflow, error.id or "")
    assert [(r.outcome, r.edited) for r in rows] == [("succeeded", True), ("failed", False), ("succeeded", True)]


async def test_invalid_json_is_refused_with_line_and_column(make_app, emulator) -> None:
    (error,) = post_orders(emulator, "ord_tui3")
    before = len(workflow_output(emulator, "$errors/event_summaries"))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await replay_screen(app, pilot, error, edit=True)
        editor = app.screen.query_one(JsonEditor)
        await pilot.press("x")  # typed before the opening brace: checked as it is typed
        assert text_of(editor.query_one(".check", Static)).startswith("✖ line 1, column 1: Expecting value")
        await pilot.press("backspace")
        assert text_of(editor.query_one(".check", Static)).startswith("✔ valid JSON")
        editor.text = '{\n  "order_id": "ord_tui3",\n  "sku": "SKU-1001" "x"\n}'
        await pilot.pause()
        status = text_of(editor.query_one(".check", Static))
        assert "✖ line 3, column 21: Expecting ',' delimiter" in status
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ReplayEditorScreen)  # still editing: nothing was sent
        assert editor.area.cursor_location == (2, 20)
        assert len(workflow_output(emulator, "$errors/event_summaries")) == before
        await pilot.press("escape")  # back, the text kept for the next edit
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.draft is not None and '"x"' in screen.draft


async def test_an_error_that_cannot_be_replayed_says_why(make_app, emulator) -> None:
    errors = timer_errors(emulator)
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await replay_screen(app, pilot, EventSummary.model_validate(errors[0]))
        plan = text_of(screen.query_one("#plan", Static))
        assert (
            "Cannot be replayed: a timer started this run: the API has no way to run a workflow's timer on demand"
            in plan
        )
        assert "c copies the original event, x exports it as NDJSON" in plan
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert screen.result is None and not screen.running
        # Said where it is pressed: the key had done nothing, with the reason off screen on a short terminal.
        refused = [n.message for n in app._notifications if n.message.startswith("This error cannot be replayed")]
        timer = "a timer started this run: the API has no way to run a workflow's timer on demand"
        assert refused == [f"This error cannot be replayed: {timer}. c copies the original event, x exports it."]
        keys = offered(screen)
        assert "replay" not in keys and "edit" not in keys  # the footer offers only what can be done
        assert {"copy", "export"} <= keys.keys()
        assert "cannot be replayed" in outcome(app) and "Not replayed yet" not in outcome(app)


async def test_copy_and_export_of_the_error(make_app, emulator) -> None:
    (error,) = post_orders(emulator, "ord_tui4")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await replay_screen(app, pilot, error)
        await pilot.press("c")
        assert json.loads(app.clipboard) == error.error().original_event  # type: ignore[union-attr]
        await pilot.press("x")
        await pilot.pause()
    files = list(export_dir(app.session).glob("*.ndjson"))
    assert len(files) == 1
    lines = files[0].read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["id"] == error.id


async def test_a_read_only_profile_shows_the_plan_and_sends_nothing(make_app, emulator) -> None:
    (error,) = post_orders(emulator, "ord_tui5")
    before = len(workflow_output(emulator, "$errors/event_summaries"))
    app = make_app()
    app.session.client.read_only = True
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await replay_screen(app, pilot, error)
        assert "Replay is off: read-only profile" in text_of(screen.query_one("#plan", Static))
        await pilot.press("ctrl+s", "e")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and screen.result is None
    assert len(workflow_output(emulator, "$errors/event_summaries")) == before


async def as_they_were(app, pilot, answer: str = "y"):
    """The question a bulk replay without a fix asks before it sends (many requests, as they failed)."""
    from aftui.tui.modals.confirm import ConfirmScreen

    await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), timeout=10)
    question = app.screen
    await pilot.press(answer)
    await wait_for(pilot, lambda: app.screen is not question)
    return question


async def test_bulk_replays_in_order_with_progress_and_a_summary(make_app, emulator) -> None:
    names = [f"ord_bulk{n}" for n in range(10)]
    errors = post_orders(emulator, *names)
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        open_bulk_replay(app, errors[::-1], errors[0].metadata.emitter_id or "")
        await wait_for(pilot, lambda: isinstance(app.screen, BulkReplayScreen) and app.screen.planned, timeout=10)
        screen = app.screen
        assert "ctrl+s replays 10 errors" in text_of(screen.query_one("#summary", Static))
        await pilot.press("ctrl+s")
        question = await as_they_were(app, pilot, answer="n")  # no: nothing is sent
        assert question.title_text == "Replay 10 errors as they were?"
        assert "a timeout" in " ".join(question.what)
        await pilot.pause(0.3)
        assert screen.summary is None and not screen.running
        await pilot.press("ctrl+s")
        await as_they_were(app, pilot)
        await wait_for(pilot, lambda: screen.summary is not None, timeout=30)
        assert screen.query_one(ProgressBar).progress == 10
        assert text_of(screen.query_one("#summary", Static)).startswith("Done: 10 failed again")
        journal = ReplayJournal(app.session).path()
    replayed = [
        e
        for e in workflow_output(emulator, "$errors/event_summaries")
        if REPLAY_HEADER in e["event"]["original_event"]["headers"]
    ]
    received = [
        e["event"]["original_event"]["body"]["order_id"]
        for e in sorted(replayed, key=lambda e: tuple(map(int, e["id"].split("-"))))
    ]
    assert received == names
    with ReplayLog(journal) as log:
        assert {r.event_id for r in log.recent()} == {e.id for e in errors}


async def test_a_pane_key_leaves_a_bulk_replay_unless_a_fix_typed_there_is_not_sent(make_app, emulator) -> None:
    """`4` on a bulk replay was refused with no reason, whatever the screen held."""
    errors = post_orders(emulator, "ord_bulk_key1", "ord_bulk_key2")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        open_bulk_replay(app, errors, errors[0].metadata.emitter_id or "")
        await wait_for(pilot, lambda: isinstance(app.screen, BulkReplayScreen) and app.screen.planned, timeout=10)
        screen = app.screen
        screen.query_one("#fix", Input).value = "customer_email = ops@example.com"
        screen.query_one(DataTable).focus()  # the rows have the keys, the fix kept
        await pilot.pause()
        await pilot.press("4")
        await pilot.pause()
        assert app.screen is screen
        assert any("a fix typed and not sent" in n.message for n in app._notifications)
        screen.query_one("#fix", Input).value = ""
        await pilot.press("4")
        await wait_for(pilot, lambda: app.screen is app.screen_stack[0])
        await wait_for(pilot, lambda: app.query_one("#panes").current == "webhooks")


async def test_a_fix_typed_on_a_bulk_replay_is_given_back_when_the_same_is_opened_again(make_app, emulator) -> None:
    """esc had thrown a fix worked out at night away. It comes back for the same errors, said as not typed just
    now (sent unseen, it would be a replay nobody meant); another group of the workflow starts without one."""
    errors = post_orders(emulator, "ord_keep1", "ord_keep2")
    workflow = errors[0].metadata.emitter_id or ""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:

        async def opened(title: str) -> BulkReplayScreen:
            open_bulk_replay(app, errors, workflow, title=title)
            await wait_for(pilot, lambda: isinstance(app.screen, BulkReplayScreen) and app.screen.planned, timeout=10)
            assert isinstance(app.screen, BulkReplayScreen)
            return app.screen

        screen = await opened("the group A")
        screen.query_one("#fix", Input).value = "customer_email = ops@example.com"
        await wait_for(pilot, lambda: "changes 2 of 2" in text_of(screen.query_one("#fix-check", Static)))
        assert "typed when you were last here" not in text_of(screen.query_one("#fix-check", Static))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is app.screen_stack[0])
        again = await opened("the group A")
        assert again.query_one("#fix", Input).value == "customer_email = ops@example.com"
        check = again.query_one("#fix-check", Static)
        await wait_for(pilot, lambda: "changes 2 of 2 payloads · typed when you were last here" in text_of(check))
        assert "with the fix" in text_of(again.query_one("#summary", Static))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is app.screen_stack[0])
        other = await opened("the group B")
        assert other.query_one("#fix", Input).value == ""


@pytest.mark.parametrize("key", ["s", "escape"])
async def test_bulk_stops_when_asked(make_app, emulator, key: str) -> None:
    """`s` or esc stops the run after the replay in flight; the footer says what esc does, Stop, then Back."""
    errors = post_orders(emulator, *[f"ord_stop{key}{n}" for n in range(10)])
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        open_bulk_replay(app, errors, errors[0].metadata.emitter_id or "")
        await wait_for(pilot, lambda: isinstance(app.screen, BulkReplayScreen) and app.screen.planned, timeout=10)
        screen = app.screen
        progress = screen._progress

        said: list[str] = []

        def press_after_the_third(index, summary, result) -> None:
            progress(index, summary, result)
            if result is not None and index == 2:
                said.append(screen.active_bindings["escape"].binding.description)
                app.simulate_key(key)  # as the user would, between two replays

        screen._progress = press_after_the_third
        await pilot.press("ctrl+s")
        await as_they_were(app, pilot)
        await wait_for(pilot, lambda: screen.summary is not None, timeout=30)
        summary = screen.summary
        assert summary.stopped and 3 <= len(summary.results) < 10
        assert text_of(screen.query_one("#summary", Static)).startswith(
            f"Stopped: {len(summary.results)} failed again · {10 - len(summary.results)} not replayed (stopped)"
        )
        await wait_for(pilot, lambda: not screen.running)
        assert said == ["Stop"] and screen.active_bindings["escape"].binding.description == "Back"
        await pilot.press("escape")
        assert not isinstance(app.screen, BulkReplayScreen)


async def test_errors_tab_replays_marks_and_bulk(make_app, emulator) -> None:
    post_orders(emulator, "ord_tab1", "ord_tab2")
    demo = emulator.emulator.demo
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        app.open_id(demo.order_workflow_id)
        await wait_for(pilot, lambda: bool(app.screen.query(ErrorsTable)), timeout=10)
        table = app.screen.query_one(ErrorsTable)
        await wait_for(pilot, lambda: bool(table.rows) and isinstance(app.focused, Tabs), timeout=10)
        await pilot.press(*"]]]]", "down")  # Overview, Triggers, Steps, Events, Errors; then into the list
        await wait_for(pilot, lambda: app.focused is table.table)
        await pilot.press("space", "space")
        assert len(table.marked) == 2 and text_of_cell(table, table.rows[0]) == "●"
        first_two = [e.id for e in table.rows[:2]]
        await pilot.press("R")
        await wait_for(pilot, lambda: isinstance(app.screen, BulkReplayScreen), timeout=10)
        assert sorted(e.id for e in app.screen.events) == sorted(first_two)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, BulkReplayScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), timeout=10)
        replay = app.screen
        assert replay.event.id == table.current.id  # type: ignore[union-attr]
        before = len(table.rows)
        await wait_for(pilot, lambda: replay.plan is not None, timeout=10)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: replay.result is not None, timeout=15)
        await pilot.press("escape")
        await wait_for(
            pilot, lambda: len(table.rows) == before + 1, timeout=10
        )  # the new error, listed on the way back
        table.table.focus()
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ErrorEventScreen), timeout=10)
        opened = app.screen
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayEditorScreen), timeout=10)
        assert app.screen_stack[-2].event.id == opened.record.id


async def test_a_bulk_replay_of_marked_errors_leaves_out_one_replayed_ok_already(make_app, emulator) -> None:
    """Marked with the rest, an error replayed ok was sent a second time, where y on it asks first."""
    first, second = post_orders(emulator, "ord_mark_ok", "ord_mark_fail")
    workflow = first.metadata.emitter_id or ""
    app = make_app()
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        path = journal_path(app)
        with ReplayLog(path, by="alice") as log:
            log.started(
                "rp_ok", emitter_id=workflow, event_id=first.id or "", workflow_id=workflow,
                method="POST", target_url="https://e.test/", edited=True,
            )  # fmt: skip
            log.finished("rp_ok", outcome="succeeded", status_code=200)
        app.open_id(workflow)
        await wait_for(pilot, lambda: bool(app.screen.query(ErrorsTable)), timeout=10)
        table = app.screen.query_one(ErrorsTable)
        await wait_for(pilot, lambda: bool(table.states.get(first.id or "")), timeout=10)
        table.marked.update({first.id or "", second.id or ""})
        table.action_bulk()
        await wait_for(
            pilot, lambda: isinstance(app.screen, BulkReplayScreen) and bool(app.screen.query(".title")), timeout=10
        )
        bulk = app.screen
        assert [e.id for e in bulk.events] == [second.id]
        assert "1 more left out: replayed ok already" in text_of(bulk.query_one(".title", Static))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, BulkReplayScreen))
        table.marked.clear()
        table.marked.add(first.id or "")  # that one alone: nothing is sent, and the toast says how to
        table.action_bulk()
        await pilot.pause()
        assert not isinstance(app.screen, BulkReplayScreen)
        assert any("y on one replays it again" in n.message for n in app._notifications)


def text_of_cell(table: ErrorsTable, event: EventSummary) -> str:
    return table.cell(event.id or "", "mark").plain


async def test_a_cut_summary_is_read_in_full(make_app, emulator) -> None:
    demo = emulator.emulator.demo
    httpx.post(
        f"{emulator.root_url}/e/{demo.order_endpoint_key}/",
        json={"order_id": "ord_big", "note": "n" * 3000},
        timeout=10,
    )
    with api(emulator) as client:
        items = client.get(f"/workflows/{demo.order_workflow_id}/$errors/event_summaries").json()["data"]
    cut = EventSummary.model_validate(next(e for e in items if e["metadata"].get("truncated")))
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await replay_screen(app, pilot, cut)
        assert screen.plan is not None and screen.plan.replayable and screen.plan.payload["order_id"] == "ord_big"
        assert not screen.event.truncated and "cut" not in text_of(screen.query_one("#original-event", Static))


async def test_hostile_strings_in_an_error_are_shown_as_text(make_app, emulator) -> None:
    body = {"order_id": "[bold red]ord_evil[/]", "note": "\x1b]52;c;ZXZpbA==\x07 \u202egnp.exe [link=http://x]y[/link]"}
    evil = post_order_with(emulator, body, {"User-Agent": "[blink]ua\x1b[2J"})
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await replay_screen(app, pilot, evil, edit=True)
        editor_text = app.screen.query_one(JsonEditor).text
        assert "\x1b" not in editor_text and "\u202e" not in editor_text and json.loads(editor_text) == body
        await pilot.press("escape")
        shown = text_of(screen.query_one("#original-event", Static))
        assert "[bold red]ord_evil[/]" in shown and "\x1b" not in shown and "\u202e" not in shown
        assert "[blink]ua" in text_of(screen.query_one("#original-event", Static))


async def test_a_payload_too_big_for_the_editor_is_refused_and_its_view_capped(make_app, emulator) -> None:
    demo = emulator.emulator.demo
    big = {"order_id": "ord_huge", "blob": "b" * (4 * 1024 * 1024 + 10)}
    httpx.post(f"{emulator.root_url}/e/{demo.order_endpoint_key}/", json=big, timeout=30)
    with api(emulator) as client:
        items = client.get(
            f"/workflows/{demo.order_workflow_id}/$errors/event_summaries", params={"expand": "event", "limit": 3}
        ).json()["data"]
    huge = EventSummary.model_validate(
        next(e for e in items if e["event"]["original_event"]["body"].get("order_id") == "ord_huge")
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await replay_screen(app, pilot, huge)
        assert "cut here" in text_of(screen.query_one("#original-event", Static))
        assert "step validate" in text_of(screen.query_one("#facts"))  # the step by its name, not its id
        await pilot.press("e")
        await pilot.pause()
        assert app.screen is screen  # no editor for 4 MB and more; r still replays it as it is


async def test_credentials_in_the_original_request_are_shown_masked_and_copied_as_they_are(make_app, emulator) -> None:
    """The replay leaves out a caller's cookie and API key; the screen that said so showed them in full."""
    body = {"order_id": "ord_secret", "sku": "SKU-1001"}
    error = post_order_with(emulator, body, {"Cookie": "session=COOKIESECRET", "X-Api-Key": "APIKEYSECRET"})
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await replay_screen(app, pilot, error)
        shown = text_of(screen.query_one("#original-event", Static))
        assert "SECRET" not in shown and '"cookie": "****"' in shown.lower()
        await pilot.press("c")
        assert "COOKIESECRET" in app.clipboard  # asked for: as it is


async def test_q_asks_before_it_quits_over_an_edit_not_sent_and_quits_at_once_otherwise(make_app, emulator) -> None:
    """q quit at once, with an edited payload not sent (or a bulk replay half sent): the work was lost."""
    from aftui.tui.modals.confirm import ConfirmScreen

    (error,) = post_orders(emulator, "ord_quit")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await replay_screen(app, pilot, error, edit=True)
        app.screen.query_one(JsonEditor).text = '{"order_id": "ord_quit", "customer_email": "a@b.example"}'
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen and screen.pending_edit)
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "an edited payload not sent" in " ".join(app.screen.what)
        await pilot.press("escape")  # stay
        await wait_for(pilot, lambda: app.screen is screen)
        assert app.is_running and screen.pending_edit
        await pilot.press("ctrl+s")  # sent: nothing is held any more
        await wait_for(pilot, lambda: screen.result is not None, timeout=15)
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running)


async def test_ctrl_q_in_the_editor_asks_before_it_quits_over_the_text_typed_there(make_app, emulator) -> None:
    """ctrl+q (or the palette's quit) in the editor closed aftui at once: esc then ctrl+q asked."""
    from aftui.tui.modals.confirm import ConfirmScreen

    (error,) = post_orders(emulator, "ord_quit_editing")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await replay_screen(app, pilot, error, edit=True)
        editor = app.screen
        await pilot.press("ctrl+q")  # nothing typed yet: nothing to lose
        await wait_for(pilot, lambda: not app.is_running)

    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await replay_screen(app, pilot, error, edit=True)
        editor = app.screen
        editor.query_one(JsonEditor).text = '{"order_id": "ord_quit_editing", "customer_email": "a@b.example"}'
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "the payload being edited, not sent" in " ".join(app.screen.what)
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is editor)
        assert app.is_running and "a@b.example" in editor.query_one(JsonEditor).text


async def test_a_bulk_replay_of_runs_none_can_send_offers_no_send_and_no_green_fix(make_app, emulator) -> None:
    """A timer's group: "✔ assignments: changes 0 of 0 payloads" in green, and ^s Replay all offered."""
    errors = [EventSummary.model_validate(e) for e in timer_errors(emulator)]
    workflow = next(w for w in emulator.emulator.store.workflows.values() if w.name == "Flaky partner sync")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        open_bulk_replay(app, errors, workflow.id)
        await wait_for(pilot, lambda: isinstance(app.screen, BulkReplayScreen) and app.screen.planned, timeout=10)
        screen = app.screen
        await pilot.pause()
        assert not offered(screen).keys() & {"start", "dry_run", "fix"}
        assert "None of these can be replayed" in text_of(screen.query_one("#summary", Static))
        screen.query_one("#fix", Input).value = "customer_email = ops@example.com"
        await wait_for(pilot, lambda: "nothing to change" in text_of(screen.query_one("#fix-check", Static)))
        await pilot.press("ctrl+s")
        await pilot.pause(0.3)
        assert app.screen is screen and screen.summary is None


async def test_a_replay_the_service_could_not_plan_for_a_moment_says_r_tries_again(make_app, emulator) -> None:
    """In an outage the screen said "Cannot be replayed: the workflow could not be read", read as final."""
    (error,) = post_orders(emulator, "ord_tui_503")
    faults = f"{emulator.root_url}/_emulator/faults"
    workflow = error.metadata.emitter_id or ""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        httpx.post(faults, json={"path": f"/v1/workflows/{workflow}", "method": "GET", "count": 20, "status": 503})
        try:
            screen = await replay_screen(app, pilot, error)
        finally:
            httpx.delete(faults)
        plan = text_of(screen.query_one("#plan", Static))
        assert plan.startswith("✖ Not ready to replay: the workflow could not be read (HTTP 503: "), plan
        assert "r tries again" in plan and "Cannot be replayed" not in plan
        assert "r tries again" in outcome(app)
        assert "replay" not in offered(screen) and offered(screen).get("refresh") == "Refresh"
        for key in ("ctrl+s", "e"):  # each had done nothing, without a word
            await pilot.press(key)
            await pilot.pause()
        said = [n.message for n in app._notifications if n.message.startswith("The replay could not be worked out")]
        assert len(said) == 1 and "(HTTP 503: " in said[0] and said[0].endswith("r tries again."), said  # one toast
        assert screen.result is None and isinstance(app.screen, ReplayScreen)
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.plan is not None and screen.plan.replayable, timeout=10)
        assert text_of(screen.query_one("#plan", Static)).startswith("Will send POST")
        await pilot.pause(0.5)
        assert outcome(app).strip() == "Not replayed yet."  # "None yet: r tries again" stayed


async def bulk_in_an_outage(app, pilot, emulator: ServerHandle, errors: list[EventSummary]) -> BulkReplayScreen:
    """The bulk replay of `errors`, planned while the service answered its workflow with 503s."""
    workflow = errors[0].metadata.emitter_id or ""
    faults = f"{emulator.root_url}/_emulator/faults"
    httpx.post(faults, json={"path": f"/v1/workflows/{workflow}", "method": "GET", "count": 100, "status": 503})
    try:
        open_bulk_replay(app, errors, workflow)
        await wait_for(pilot, lambda: isinstance(app.screen, BulkReplayScreen) and app.screen.planned, timeout=20)
    finally:
        httpx.delete(faults)
    return app.screen


async def test_a_bulk_replay_the_service_could_not_plan_says_not_ready_not_cant(make_app, emulator) -> None:
    """In an outage every row said "can't: the workflow could not be read" and the summary "None of these
    can be replayed", read as final."""
    errors = post_orders(emulator, "ord_bulk_503a", "ord_bulk_503b")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await bulk_in_an_outage(app, pilot, emulator, errors)
        table = screen.query_one(DataTable)
        cells = [table.get_row_at(n) for n in range(table.row_count)]
        assert all(
            any(str(c).startswith("– not ready: the workflow could not be read (HTTP 503") for c in row)
            for row in cells
        )
        summary = text_of(screen.query_one("#summary", Static))
        assert summary.startswith(
            "2 of these 2 are not ready, the service failed: planned again once it answers (r now)."
        )
        assert "None of these can be replayed" not in summary
        # A fix typed meanwhile is not "nothing to change", which had a correct fix rewritten (an on-call walk).
        screen.query_one("#fix", Input).value = "customer_email = ops@example.com"
        check = screen.query_one("#fix-check", Static)
        await wait_for(pilot, lambda: "the fix is checked once the service answers" in text_of(check))
        # The service answers again (the fault is gone): r plans them now; the screen stayed "not ready" for good.
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.planned and screen._ready() == 2, timeout=20)
        assert "not ready" not in text_of(screen.query_one("#summary", Static))
        await wait_for(pilot, lambda: "changes 2 of 2 payloads" in text_of(check))


async def test_a_bulk_replays_long_reasons_end_in_an_ellipsis_within_the_screen(make_app, emulator) -> None:
    """At 80 columns "not ready: the wo" ran off the screen's edge, cut with nothing to say so, and the table
    scrolled sideways."""
    errors = post_orders(emulator, "ord_bulk_80a", "ord_bulk_80b")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await bulk_in_an_outage(app, pilot, emulator, errors)
        await pilot.pause(0.2)
        table = screen.query_one(DataTable)
        assert table.max_scroll_x == 0, "nothing beyond the screen's edge"
        row = table.render_line(1).text  # the first row, as drawn
        assert row.rstrip().endswith("…") and "– not ready: the" in row, row


async def test_a_bulk_replays_unknown_outcome_is_found_once_the_service_answers(
    make_app, emulator, monkeypatch
) -> None:
    """Sent in an outage, a bulk replay's row said "? outcome unknown" and its summary "Done: 1 unknown" after
    the service was back and the run could be seen; and "sending…" through the watch, after its endpoint took it."""
    from functools import partial

    from aftui.tui.screens import replay_bulk

    monkeypatch.setattr(replay_bulk, "LOOK_AGAIN_S", 0.5)
    monkeypatch.setattr(replay_bulk, "replay_bulk", partial(replay_bulk.replay_bulk, watch_timeout=3.0))
    errors = post_orders(emulator, "ord_bulk_unknown")
    workflow = errors[0].metadata.emitter_id or ""
    faults = f"{emulator.root_url}/_emulator/faults"
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        open_bulk_replay(app, errors, workflow)
        await wait_for(pilot, lambda: isinstance(app.screen, BulkReplayScreen) and app.screen.planned, timeout=10)
        screen = app.screen
        httpx.post(faults, json={"path": f"/v1/workflows/{workflow}/", "method": "GET", "count": 10_000, "status": 503})
        try:
            await pilot.press("ctrl+s")
            await as_they_were(app, pilot)
            # Its endpoint took it: the row said "sending…" through the watch.
            cell = lambda: str(screen.query_one(DataTable).get_row_at(0)[-1])  # noqa: E731
            await wait_for(pilot, lambda: cell() == "sent · watching…", timeout=10, says=cell)
            await wait_for(pilot, lambda: screen.summary is not None, timeout=30)
            assert text_of(screen.query_one("#summary", Static)).startswith("Done: 1 unknown")
        finally:
            httpx.delete(faults)
        summary = lambda: text_of(screen.query_one("#summary", Static))  # noqa: E731
        await wait_for(pilot, lambda: summary().startswith("Done: 1 failed again"), timeout=10, says=summary)
        row = str(screen.query_one(DataTable).get_row_at(0)[-1])
        assert row.startswith("✖ failed again"), row


async def test_an_error_replayed_with_an_outcome_unknown_asks_before_it_is_sent_again(make_app, emulator) -> None:
    """A replay sent in an outage was "outcome unknown" though it had run; y and ctrl+s sent it again at once."""
    (error,) = post_orders(emulator, "ord_tui_unknown")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        path = journal_path(app)
        with ReplayLog(path) as log:
            replayed_before(log, "rp_blind", error, "unknown")
        screen = await replay_screen(app, pilot, error)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        said = " ".join(app.screen.what)
        assert "outcome unknown. It may have run: nothing was seen of it either way." in said, said
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.pause(0.3)
        assert screen.result is None and not screen.running


async def test_an_outcome_unknown_that_failed_again_is_found_and_sent_without_the_question(make_app, emulator) -> None:
    """The replay went out in an outage and failed again; its outcome was unknown, and the next send asked "it may
    have run" of an order that had not gone through. Looked for again, it is "failed again": sent without asking."""
    (error,) = post_orders(emulator, "ord_tui_unknown_failed")
    workflow = error.metadata.emitter_id or ""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        path = journal_path(app)
        with ReplayLog(path) as log:
            replayed_before(log, "rp_0000000000fail01", error, "unknown")
        original = (error.error().original_event or {}) if error.error() else {}
        demo = emulator.emulator.demo
        httpx.post(  # the replay as it reached the endpoint: the order as it was, so the workflow fails again
            f"{emulator.root_url}/e/{demo.order_endpoint_key}/",
            json=original["body"],
            headers={REPLAY_HEADER: "rp_0000000000fail01"},
            timeout=10,
        ).raise_for_status()
        screen = await replay_screen(app, pilot, error)
        assert screen.earlier[0].outcome == "failed", screen.earlier
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.result is not None, timeout=15)
        assert screen.result.outcome.kind == "failed"
    with ReplayLog(path) as log:
        rows = log.of_event(workflow, error.id or "")
    assert [r.outcome for r in rows] == ["failed", "failed"]
    carried = [e for e in workflow_output(emulator, "$errors/event_summaries") if e["id"] == rows[1].outcome_event_id]
    assert carried[0]["event"]["original_event"]["headers"][REPLAY_HEADER] == "rp_0000000000fail01"


async def test_a_replay_sent_blind_shows_its_outcome_once_the_service_answers(make_app, emulator, monkeypatch) -> None:
    """Sent while the service's reads answered 503, the replay's box said "? outcome unknown" for good, after the
    service was back and the run it started could be seen."""
    from functools import partial

    from aftui.tui.screens import replay as replay_screen_module

    monkeypatch.setattr(replay_screen_module, "EARLIER_S", 0.5)
    monkeypatch.setattr(replay_screen_module, "replay_one", partial(replay_screen_module.replay_one, watch_timeout=1.5))
    (error,) = post_orders(emulator, "ord_tui_blind")
    workflow = error.metadata.emitter_id or ""
    faults = f"{emulator.root_url}/_emulator/faults"
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await replay_screen(app, pilot, error)
        httpx.post(faults, json={"path": f"/v1/workflows/{workflow}/", "method": "GET", "count": 1000, "status": 503})
        try:
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: screen.result is not None, timeout=15)
            assert screen.result.outcome.kind == "unknown" and screen.result.outcome.blind
            assert outcome(app).startswith("? outcome unknown")
        finally:
            httpx.delete(faults)
        await wait_for(pilot, lambda: outcome(app).startswith("✖ failed again"), timeout=10)
        assert "found later" in outcome(app)


async def test_a_replay_the_endpoint_took_says_sent_and_counts_its_watch_through_an_api_outage(
    make_app, emulator, monkeypatch
) -> None:
    """Sent while the API's reads answered 503, the screen said "Sending POST …" for the whole 20 s watch after
    the endpoint had taken it, then "the service did not answer a look (no answer)" where it had answered, with
    503s, and nothing said what to do next."""
    from functools import partial

    from aftui.tui.screens import replay as replay_screen_module

    monkeypatch.setattr(replay_screen_module, "replay_one", partial(replay_screen_module.replay_one, watch_timeout=4))
    (error,) = post_orders(emulator, "ord_tui_watched")
    workflow = error.metadata.emitter_id or ""
    faults = f"{emulator.root_url}/_emulator/faults"
    app = make_app()
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        screen = await replay_screen(app, pilot, error)
        httpx.post(faults, json={"path": f"/v1/workflows/{workflow}/", "method": "GET", "count": 1000, "status": 503})
        try:
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: "Watching the workflow's errors and events" in outcome(app), timeout=10)
            assert outcome(app).startswith("Sent: the endpoint took it (HTTP 200)"), outcome(app)
            assert text_of(screen.query_one("#plan", Static)).startswith("Sent POST")
            await wait_for(pilot, lambda: "⚠ The service answers HTTP 503 to these looks" in outcome(app), timeout=5)
            await pilot.press("ctrl+s")
            await wait_for(
                pilot, lambda: any("what came of it is watched for" in n.message for n in app._notifications)
            )
            await wait_for(pilot, lambda: screen.result is not None, timeout=15)
        finally:
            httpx.delete(faults)
        said = outcome(app)
        assert said.startswith("? outcome unknown"), said
        assert "could not be read for 4 s (the service answered HTTP 503" in " ".join(said.split()), said
        assert "It may have run. It is looked for again every 10 s" in " ".join(said.split()), said


async def test_a_replay_watched_through_a_hang_says_the_service_has_not_answered(
    make_app, emulator, monkeypatch
) -> None:
    """A hang answers nothing, and the client's state stays "ok": the box counted its watch with no word of it,
    while the header said "waiting 13 s for an answer"."""
    from functools import partial

    from aftui.tui.screens import replay as replay_screen_module

    monkeypatch.setattr(replay_screen_module, "WAIT_SAID_S", 1.0)
    monkeypatch.setattr(replay_screen_module, "replay_one", partial(replay_screen_module.replay_one, watch_timeout=4))
    (error,) = post_orders(emulator, "ord_tui_hung")
    workflow = error.metadata.emitter_id or ""
    faults = f"{emulator.root_url}/_emulator/faults"
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await replay_screen(app, pilot, error)
        httpx.post(faults, json={"path": f"/v1/workflows/{workflow}/", "method": "GET", "count": 1000, "delay": 30})
        try:
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: "Watching the workflow's errors and events" in outcome(app), timeout=10)
            await wait_for(
                pilot,
                lambda: "⚠ The service has not answered for" in outcome(app),
                timeout=5,
                says=lambda: outcome(app),
            )
            await wait_for(pilot, lambda: screen.result is not None, timeout=15)
        finally:
            httpx.delete(faults)
        assert "could not be read for 4 s (the service did not answer)" in " ".join(outcome(app).split())


async def test_a_replay_left_while_its_outcome_is_watched_is_unknown_not_pending(make_app, emulator) -> None:
    """esc while the outcome was watched for left the row "pending" for good: its error out of every selection,
    "… pending" in the list."""
    (error,) = post_orders(emulator, "ord_tui_left")
    workflow = error.metadata.emitter_id or ""
    faults = f"{emulator.root_url}/_emulator/faults"
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        path = journal_path(app)
        screen = await replay_screen(app, pilot, error)
        httpx.post(faults, json={"path": f"/v1/workflows/{workflow}/", "method": "GET", "count": 1000, "status": 503})
        try:
            await pilot.press("ctrl+s")

            def outcomes() -> list[str]:
                with ReplayLog(path) as log:
                    return [r.outcome for r in log.of_event(workflow, error.id or "")]

            await wait_for(pilot, lambda: outcomes() == ["pending"], timeout=15)
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is not screen)
            await wait_for(pilot, lambda: outcomes() == ["unknown"], timeout=5, says=outcomes)
        finally:
            httpx.delete(faults)


async def test_a_plan_the_service_leaves_unanswered_says_how_long_it_waits(make_app, emulator, monkeypatch) -> None:
    """Against a service that hung, the screen said "Working out how this run started…" for a minute under keys
    that did nothing."""
    from aftui.tui.screens import replay as replay_screen_module

    monkeypatch.setattr(replay_screen_module, "WAIT_SAID_S", 0.5)
    (error,) = post_orders(emulator, "ord_tui_wait")
    workflow = error.metadata.emitter_id or ""
    faults = f"{emulator.root_url}/_emulator/faults"
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        httpx.post(faults, json={"path": f"/v1/workflows/{workflow}", "method": "GET", "count": 1, "delay": 4})
        try:
            open_replay(app, error, workflow)
            await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
            screen = app.screen
            said = lambda: text_of(screen.query_one("#plan", Static)) if screen.query("#plan") else ""  # noqa: E731
            await wait_for(pilot, lambda: "the service has not answered for" in said(), timeout=5)
            assert "ctrl+s and e wait for it; esc goes back" in said()
        finally:
            httpx.delete(faults)
        await wait_for(pilot, lambda: screen.plan is not None, timeout=15)
        assert said().startswith("Will send POST")


async def test_a_replay_sent_while_the_service_fails_its_user_still_names_its_sender(make_app, emulator) -> None:
    """A replay sent while /users/me answered 503 named nobody: the user read at the start names it."""
    (error,) = post_orders(emulator, "ord_tui_signed")
    workflow = error.metadata.emitter_id or ""
    faults = f"{emulator.root_url}/_emulator/faults"
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.session.me is not None, timeout=10)
        me = app.session.me
        httpx.post(faults, json={"path": "/v1/users/me", "count": 100, "status": 503})
        try:
            screen = await replay_screen(app, pilot, error)
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: screen.result is not None, timeout=15)
        finally:
            httpx.delete(faults)
        path = journal_path(app)
    with ReplayLog(path) as log:
        assert [r.replayed_by for r in log.of_event(workflow, error.id or "")] == [me]


async def test_who_replayed_before_is_said_again_as_time_goes_by(make_app, emulator, monkeypatch) -> None:
    """ "replayed by you 24 s ago" stayed 24 s while the question over it said 34."""
    from aftui.tui.screens import replay as replay_screen_module

    monkeypatch.setattr(replay_screen_module, "EARLIER_S", 0.2)
    (error,) = post_orders(emulator, "ord_tui_ago")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        path = journal_path(app)
        with ReplayLog(path, by="alice") as log:
            replayed_before(log, "rp_ago", error, "failed")
        screen = await replay_screen(app, pilot, error)
        await wait_for(pilot, lambda: "replayed by alice just now, failed again" in outcome(app), timeout=5)
        screen.earlier = [replace(row, started_at=row.started_at - 185) for row in screen.earlier]  # time goes by
        await wait_for(pilot, lambda: "replayed by alice 3 min ago, failed again" in outcome(app), timeout=5)


def test_the_as_they_were_question_of_one_error_says_it_of_one() -> None:
    """ "Replay 1 error as they were?" and "each of the 1 error" (an on-call walk)."""
    from aftui.tui.screens.replay_bulk import as_they_were_question

    one = as_they_were_question(1)
    assert one.title_text == "Replay 1 error as it was?"
    assert as_they_were_question(3).title_text == "Replay 3 errors as they were?"


async def test_a_bulk_replay_not_ready_in_an_outage_is_planned_by_itself_once_the_service_answers(
    make_app, emulator, monkeypatch
) -> None:
    """It stayed "not ready … HTTP 503" after the service was back, until esc and R (an on-call walk)."""
    from aftui.tui.screens import replay_bulk

    monkeypatch.setattr(replay_bulk, "LOOK_AGAIN_S", 0.5)
    errors = post_orders(emulator, "ord_bulk_back_a", "ord_bulk_back_b")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await bulk_in_an_outage(app, pilot, emulator, errors)  # the fault is cleared once planned
        await wait_for(pilot, lambda: screen.planned and screen._ready() == 2, timeout=20)
        assert "not ready" not in text_of(screen.query_one("#summary", Static))
