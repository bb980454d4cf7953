"""The health board and its alerts, without Textual or a network: counts, windows, ordering, new groups, spikes."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aftui.api.models import EventSummary
from aftui.health import (
    Alert,
    AlertTracker,
    HealthBoard,
    Subject,
    Unseen,
    age,
    age_words,
    load_history,
    read_replays,
    sparkline,
)
from aftui.health.board import DAY_MS, EVENT_IDS, HOUR_ERRORS_KEPT, HOUR_MS, MINUTE_MS, REPLAY, SPARK_MINUTES
from aftui.journal.store import Journal

NOW = 1_800_000_000_000  # ms; a whole minute


def error(
    ms: int,
    seq: int = 0,
    *,
    msg: str = "Missing required field: customer_email",
    code: str = "ValidationError",
    workflow: str = "p_orders",
    name: str | None = "Validate orders",
    stack: str | None = None,
) -> EventSummary:
    payload: dict[str, Any] = {
        "original_event": {"body": {}},
        "original_context": {"workflow_id": workflow, "workflow_name": name},
        "error": {"code": code, "msg": msg, "cellId": "c_validate", "stack": stack},
    }
    return EventSummary.model_validate(
        {
            "id": f"{ms}-{seq}",
            "indexed_at_ms": ms,
            "event": payload,
            "metadata": {"emitter_id": workflow, "name": "$errors"},
        }
    )


def board_of(*subjects: Subject) -> HealthBoard:
    board = HealthBoard()
    for subject in subjects:
        board.know(subject)
    return board


ORDERS = Subject("workflow", "p_orders", "Validate orders")
SYNC = Subject("workflow", "p_sync", "Partner sync")
HOOKS = Subject("source", "dc_hooks", "Order webhooks")


def test_errors_are_counted_in_the_hour_and_the_day_once_each() -> None:
    board = board_of(ORDERS)
    for ms in (NOW - 10 * MINUTE_MS, NOW - 2 * HOUR_MS, NOW - 25 * HOUR_MS):
        assert board.add_error("p_orders", error(ms))
    assert not board.add_error("p_orders", error(NOW - 10 * MINUTE_MS))  # the journal and a poll overlap
    row = board.row("p_orders", NOW)
    assert row is not None
    assert (row.errors_1h, row.errors_24h) == (1, 2)
    assert row.last_error_ms == NOW - 10 * MINUTE_MS
    assert row.last_error == "ValidationError: Missing required field: customer_email"
    assert row.state == "failing"
    assert row.first_error_ms == NOW - 2 * HOUR_MS  # since when, within the day (the one 25 h ago is past it)


def test_the_last_error_is_the_newest_whatever_the_order_it_came_in() -> None:
    board = board_of(ORDERS)
    board.add_error("p_orders", error(NOW - MINUTE_MS, msg="newest"))
    board.add_error("p_orders", error(NOW - HOUR_MS * 3, msg="older"))
    row = board.row("p_orders", NOW)
    assert row is not None and row.last_error.endswith("newest")


def test_a_message_is_one_line_with_control_characters_visible_and_capped() -> None:
    board = board_of(ORDERS)
    board.add_error("p_orders", error(NOW, msg="line one\nline two \x1b[31mred" + "x" * 5000))
    row = board.row("p_orders", NOW)
    assert row is not None
    assert "\n" not in row.last_error and "\x1b" not in row.last_error
    assert "\\e[31m" in row.last_error
    assert len(row.last_error) <= 200


def test_rows_put_what_needs_attention_first() -> None:
    quiet = Subject("workflow", "p_quiet", "A quiet workflow")
    yesterday = Subject("workflow", "p_yesterday", "Failed this morning")
    board = board_of(HOOKS, quiet, yesterday, ORDERS, SYNC)
    board.add_error("p_yesterday", error(NOW - 5 * HOUR_MS, workflow="p_yesterday"))
    board.add_error("p_sync", error(NOW - 2 * MINUTE_MS, workflow="p_sync"))
    for n in range(3):
        board.add_error("p_orders", error(NOW - 30 * MINUTE_MS, n))
    order = [r.subject.id for r in board.rows(NOW)]
    # Most errors in the hour first, then the last day's, then the rest by name.
    assert order == ["p_orders", "p_sync", "p_yesterday", "p_quiet", "dc_hooks"]
    assert [r.state for r in board.rows(NOW)] == ["failing", "failing", "errors", "ok", "ok"]


def test_events_per_minute_and_the_last_event() -> None:
    board = board_of(HOOKS)
    for minute, count in ((0, 3), (2, 1), (SPARK_MINUTES + 3, 7)):
        for n in range(count):
            ms = NOW - minute * MINUTE_MS + n
            assert board.add_event("dc_hooks", f"{ms}-0", ms)
    assert not board.add_event("dc_hooks", f"{NOW}-0", NOW)  # once
    row = board.row("dc_hooks", NOW)
    assert row is not None
    assert len(row.per_minute) == SPARK_MINUTES
    assert row.per_minute[-1] == 3 and row.per_minute[-3] == 1
    assert sum(row.per_minute) == 4  # older minutes are not in the sparkline
    assert row.last_event_ms == NOW + 2
    board.prune(NOW)
    assert sum(board.row("dc_hooks", NOW).per_minute) == 4  # type: ignore[union-attr]


def test_a_run_of_events_is_counted_once_each_within_it_and_across_runs() -> None:
    board = board_of(HOOKS)
    ids = [(f"{NOW + n}-0", NOW + n) for n in range(10)]
    assert (
        board.add_events("dc_hooks", [*ids[:6], ids[2], ("", NOW), (None, None)]) == 7
    )  # no id: counted, no time: not
    assert board.add_events("dc_hooks", ids) == 4  # the first six were counted by the run before
    assert board.add_events("nobody", ids) == 0
    row = board.row("dc_hooks", NOW)
    assert row is not None and (row.per_minute[-1], row.last_event_ms) == (11, NOW + 9)


def test_ids_are_remembered_for_at_least_event_ids_of_them() -> None:
    board = board_of(HOOKS)
    ids = [(f"{NOW + n}-0", NOW + n) for n in range(3 * EVENT_IDS)]
    assert board.add_events("dc_hooks", ids) == len(ids)
    newest = ids[-EVENT_IDS:]
    assert board.add_events("dc_hooks", newest) == 0  # the last EVENT_IDS are known, whichever generation holds them
    assert board.add_event("dc_hooks", *ids[0]) is True  # the oldest are forgotten: memory stays bounded


def test_errors_older_than_a_day_are_forgotten() -> None:
    board = board_of(ORDERS)
    board.add_error("p_orders", error(NOW - 2 * DAY_MS))
    board.prune(NOW)
    row = board.row("p_orders", NOW)
    assert row is not None and row.errors_24h == 0


def test_a_workflow_known_by_id_only_takes_its_name_from_its_errors() -> None:
    board = board_of(Subject("workflow", "p_orders"))
    board.add_error("p_orders", error(NOW))
    assert board.subjects()[0].label == "Validate orders"


def test_sparkline_and_age() -> None:
    assert sparkline([0, 0, 0]) == "   "
    assert sparkline([0, 1, 8]) == " ▁█"
    assert age(None, NOW) == "—"
    assert [age(NOW - s * 1000, NOW) for s in (5, 125, 7300, 200000)] == ["5s", "2m", "2h", "2d"]
    # In a sentence, what one unit would round away: "since 20:06 (1h ago" of an hour and 57 minutes.
    assert [age_words(NOW - s * 1000, NOW) for s in (5, 125, 7020, 7200, 200000, 172800)] == [
        "5s",
        "2m",
        "1h 57m",
        "2h",
        "2d 7h",
        "2d",
    ]


# --- alerts -----------------------------------------------------------------------------------------


def test_what_happened_before_watching_makes_groups_known_without_an_alert() -> None:
    tracker = AlertTracker(NOW)
    assert tracker.seen("p_orders", "Validate orders", error(NOW - MINUTE_MS)) is None
    # The same failure with other numbers, ids and quoted values is the same group: no alert.
    same = error(NOW + 1000, msg="Missing required field: customer_email")
    assert tracker.seen("p_orders", "Validate orders", same) is None
    assert tracker.groups == 1


def test_a_new_group_after_the_start_alerts_once() -> None:
    tracker = AlertTracker(NOW)
    tracker.seen("p_orders", "Validate orders", error(NOW - MINUTE_MS))
    first = error(NOW + 1000, code="HTTPError", msg="Request failed with status code 502 for ord_123")
    alert = tracker.seen("p_orders", "Validate orders", first)
    assert alert is not None and alert.kind == "new"
    assert alert.text == "Validate orders: HTTPError: Request failed with status code 502 for ord_123"
    again = error(NOW + 2000, code="HTTPError", msg="Request failed with status code 504 for ord_999")
    assert tracker.seen("p_orders", "Validate orders", again) is None  # numbers and ids differ: the same group
    other_step = error(
        NOW + 3000, code="HTTPError", msg="Request failed with status code 502 for ord_123", workflow="p_sync"
    )
    assert tracker.seen("p_sync", "Partner sync", other_step) is not None  # another workflow: another group


def test_a_spike_in_a_known_group_alerts_once_a_window() -> None:
    tracker = AlertTracker(NOW, spike_min=5, spike_factor=3.0)
    for n in range(6):  # the last hour: one every ten minutes, the group's usual
        tracker.seen("p_orders", "Validate orders", error(NOW - (n + 1) * 10 * MINUTE_MS))
    alerts = [tracker.seen("p_orders", "Validate orders", error(NOW + 1000 + n * 1000, n)) for n in range(8)]
    spikes = [a for a in alerts if a is not None]
    assert len(spikes) == 1
    assert spikes[0].kind == "spike" and spikes[0].count == 5
    # The count when it was told, at its time: "5 in 5 min" read as the whole spike after 8 had come.
    clock = datetime.fromtimestamp(spikes[0].at_ms / 1000, tz=UTC).strftime("%H:%M:%S")
    assert spikes[0].text.startswith(f"Validate orders: at least 5 errors in 5 min, at {clock} UTC: "), spikes[0].text
    # And what came after it: the 3 errors that followed, the newest at NOW + 8 s.
    assert tracker.since(spikes[0].fingerprint, spikes[0].at_ms) == (3, NOW + 8000)


def test_a_spike_that_lasts_alerts_once_and_one_after_a_calm_alerts_again() -> None:
    """A spike lasting a quarter of an hour alerted every 5 minutes: one incident read as three, their "since"
    counts overlapping. It alerts as it starts; once an error comes that falls short of a spike, the next is
    another incident."""
    tracker = AlertTracker(NOW, spike_min=5, spike_factor=3.0)
    tracker.seen("p_orders", "Validate orders", error(NOW - 30 * MINUTE_MS))  # known before: no "new" alert
    storm = [NOW + n * 2000 for n in range(15 * 30)]  # one every 2 s for 15 minutes
    alerts = [tracker.seen("p_orders", "Validate orders", error(ms, n)) for n, ms in enumerate(storm)]
    assert [a.at_ms for a in alerts if a is not None] == [NOW + 8000]  # at the 5th error, and not again
    # A short spike, ten quiet minutes, one error (no spike: that incident is over), then another spike.
    tracker = AlertTracker(NOW, spike_min=5, spike_factor=3.0)
    tracker.seen("p_orders", "Validate orders", error(NOW - 30 * MINUTE_MS))
    first = [tracker.seen("p_orders", "Validate orders", error(NOW + n * 1000, n)) for n in range(6)]
    calm = NOW + 10 * MINUTE_MS
    assert tracker.seen("p_orders", "Validate orders", error(calm)) is None
    second = [tracker.seen("p_orders", "Validate orders", error(calm + n * 1000 + 1000, n)) for n in range(6)]
    assert [a.kind for a in first + second if a is not None] == ["spike", "spike"]


def test_the_usual_rate_is_no_spike() -> None:
    tracker = AlertTracker(NOW, spike_min=5, spike_factor=3.0)
    for n in range(60):  # one a minute for the last hour
        tracker.seen("p_orders", "Validate orders", error(NOW - (n + 1) * MINUTE_MS))
    alerts = [tracker.seen("p_orders", "Validate orders", error(NOW + n * MINUTE_MS + 1, n)) for n in range(6)]
    assert alerts == [None] * 6


# --- the journal's part ---------------------------------------------------------------------------


def test_history_from_the_journal_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        journal.add([error(NOW - 5 * MINUTE_MS), error(NOW - 3 * HOUR_MS), error(NOW - 2 * DAY_MS)], "p_orders")
        events = [
            EventSummary.model_validate(
                {"id": f"{NOW - m * MINUTE_MS}-0", "event": {"n": m}, "metadata": {"emitter_id": "dc_hooks"}}
            )
            for m in (1, 2, 40)
        ]
        journal.add(events, "dc_hooks")
    with Journal(path) as journal:  # aftui started again
        history = load_history(journal, [ORDERS, HOOKS], NOW)
    board = board_of(ORDERS, HOOKS)
    for event in history.errors["p_orders"]:
        board.add_error("p_orders", event)
    for event_id, ms in history.events["dc_hooks"]:
        board.add_event("dc_hooks", event_id, ms)
    orders, hooks = board.row("p_orders", NOW), board.row("dc_hooks", NOW)
    assert orders is not None and (orders.errors_1h, orders.errors_24h) == (1, 2)
    assert hooks is not None and sum(hooks.per_minute) == 2
    assert history.last_event["dc_hooks"] == NOW - MINUTE_MS


def test_a_workflow_whose_every_error_of_the_hour_was_replayed_ok_is_fixed_until_the_next_error() -> None:
    board = board_of(ORDERS, SYNC, Subject("workflow", "p_yesterday", "Failed this morning"))
    board.add_error("p_sync", error(NOW - 2 * MINUTE_MS, workflow="p_sync"))
    board.add_error("p_yesterday", error(NOW - 5 * HOUR_MS, workflow="p_yesterday"))
    for n in range(3):
        board.add_error("p_orders", error(NOW - 30 * MINUTE_MS, n))
    board.add_error("p_orders", error(NOW - 2 * HOUR_MS))  # of the day, not of the hour: not read for replays
    board.prune(NOW)
    assert {i: [e.id for e in es] for i, es in board.hour_errors().items()} == {
        "p_sync": [f"{NOW - 2 * MINUTE_MS}-0"],
        "p_orders": [f"{NOW - 30 * MINUTE_MS}-{n}" for n in range(3)],
    }

    board.note_replays("p_orders", {f"{NOW - 30 * MINUTE_MS}-0": "succeeded", f"{NOW - 30 * MINUTE_MS}-1": "failed"})
    row = board.row("p_orders", NOW)
    assert row is not None and row.state == "failing" and (row.originals_1h, row.replayed_ok_1h) == (3, 1)
    assert row.after_replayed_ok == 0  # the three came together: none came after the one replayed ok

    # The one that failed again was replayed in turn (its state follows: succeeded); the error that replay
    # had led to is no failure of its own.
    board.add_error("p_orders", error(NOW - 20 * MINUTE_MS, 7))
    board.note_replays(
        "p_orders",
        {
            f"{NOW - 30 * MINUTE_MS}-1": "succeeded",
            f"{NOW - 30 * MINUTE_MS}-2": "succeeded",
            f"{NOW - 20 * MINUTE_MS}-7": REPLAY,
        },
    )
    row = board.row("p_orders", NOW)
    assert row is not None and row.state == "fixed" and row.fixed
    assert (row.errors_1h, row.originals_1h, row.replayed_ok_1h) == (4, 3, 3)
    order = [(r.subject.id, r.state) for r in board.rows(NOW)]
    assert order[:3] == [("p_sync", "failing"), ("p_orders", "fixed"), ("p_yesterday", "errors")]

    board.add_error("p_orders", error(NOW - MINUTE_MS, 9))  # a new failure, not read yet: not replayed
    row = board.row("p_orders", NOW)
    assert row is not None and row.state == "failing" and (row.originals_1h, row.replayed_ok_1h) == (4, 3)

    board.prune(NOW + 40 * MINUTE_MS)  # later: the replayed errors are no longer the hour's, the new one is
    assert {i: [e.id for e in es] for i, es in board.hour_errors().items()} == {
        "p_sync": [f"{NOW - 2 * MINUTE_MS}-0"],
        "p_orders": [f"{NOW - MINUTE_MS}-9"],
    }


def test_the_replay_records_say_which_errors_were_replayed_ok(tmp_path: Path) -> None:
    """`read_replays` from the journal's own replay log, as the app reads it on a thread."""
    errors = [error(NOW - 30 * MINUTE_MS, n) for n in range(3)]
    again = error(NOW - 25 * MINUTE_MS, 5)  # what the replay of the second one led to
    with Journal(tmp_path / "journal.sqlite3") as journal, journal.replays() as log:
        for replay_id, event, outcome, became in (
            ("rp_0", errors[0], "succeeded", None),
            ("rp_1", errors[1], "failed", again.id),
        ):
            log.started(
                replay_id,
                emitter_id="p_orders",
                event_id=event.id or "",
                workflow_id="p_orders",
                method="POST",
                target_url="http://127.0.0.1/",
                edited=True,
            )
            log.finished(replay_id, outcome=outcome, outcome_emitter_id="p_orders", outcome_event_id=became)
        found = read_replays(log, {"p_orders": [*errors, again]})
    assert found == {
        "p_orders": {
            errors[0].id: "succeeded",
            errors[1].id: "failed",
            errors[2].id: "never",
            again.id: REPLAY,
        }
    }


def test_a_storm_of_errors_keeps_only_the_newest_whole_and_the_rest_counts_as_not_replayed() -> None:
    board = board_of(ORDERS)
    for n in range(HOUR_ERRORS_KEPT + 20):
        board.add_error("p_orders", error(NOW - 30 * MINUTE_MS + n, 0))
    kept = board.hour_errors()["p_orders"]
    assert len(kept) == HOUR_ERRORS_KEPT and kept[-1].id == f"{NOW - 30 * MINUTE_MS + HOUR_ERRORS_KEPT + 19}-0"
    board.note_replays("p_orders", {e.id or "": "succeeded" for e in kept})
    row = board.row("p_orders", NOW)
    assert row is not None and row.state == "failing", "20 errors not looked up: not known to be replayed"
    assert (row.originals_1h, row.replayed_ok_1h) == (HOUR_ERRORS_KEPT + 20, HOUR_ERRORS_KEPT)

    # Newest first, as a service's page and the journal's history give them: the newest are still the ones kept.
    backwards = board_of(ORDERS)
    for n in reversed(range(HOUR_ERRORS_KEPT + 20)):
        backwards.add_error("p_orders", error(NOW - 30 * MINUTE_MS + n, 0))
    assert {e.id for e in backwards.hour_errors()["p_orders"]} == {e.id for e in kept}


def test_errors_after_the_newest_replayed_ok_say_the_cause_is_still_there() -> None:
    """Replays that succeed fix the runs that failed, not why they failed: errors that keep coming after them are
    what "is it fixed?" must not pass over."""
    board = board_of(ORDERS)
    for n, minutes in enumerate((50, 40, 30, 20, 10)):
        board.add_error("p_orders", error(NOW - minutes * MINUTE_MS, n))
    ids = [f"{NOW - m * MINUTE_MS}-{n}" for n, m in enumerate((50, 40, 30, 20, 10))]
    board.note_replays("p_orders", {ids[0]: "succeeded", ids[1]: "succeeded", ids[3]: REPLAY})
    row = board.row("p_orders", NOW)
    assert row is not None and row.after_replayed_ok == 2  # at 30 and 10 min; the one at 20 a replay's own
    board.note_replays("p_orders", {ids[4]: "succeeded"})  # the newest replayed ok: nothing is said to follow it
    row = board.row("p_orders", NOW)
    assert row is not None and row.after_replayed_ok == 0


def test_the_runs_a_timer_started_are_counted_as_runs_no_replay_can_send() -> None:
    """Health said "none of the hour's errors replayed ok yet" of a timer's runs, as if nobody had tried."""
    from aftui.tui.screens.health import _replayed

    board = board_of(SYNC)
    timed = error(NOW - 5 * MINUTE_MS, workflow="p_sync")
    assert timed.event is not None
    timed.event["original_context"] |= {"emitter_id": "ti_sync", "source_type": "TIMER"}
    board.add_error("p_sync", timed)
    board.add_error("p_sync", error(NOW - 4 * MINUTE_MS, workflow="p_sync"))  # an HTTP request's, say
    row = board.row("p_sync", NOW)
    assert row is not None and (row.unsendable_1h, row.unsendable_by) == (1, "a timer")
    assert "(1 cannot be replayed: a timer started them)" in _replayed(row).plain
    only_timed = board_of(SYNC)
    only_timed.add_error("p_sync", timed)
    row = only_timed.row("p_sync", NOW)
    assert row is not None and row.state == "failing"
    assert _replayed(row).plain.startswith(" · a timer started these runs: no replay can send them again")
    # It emits nothing: its runs that succeed show nowhere, and "the next runs say" had a newcomer wait for them.
    assert _replayed(row).plain.endswith("a run that succeeds shows nothing: no new error is what says it is fixed")
    only_timed.note_last_event("p_sync", NOW - MINUTE_MS)
    row = only_timed.row("p_sync", NOW)
    assert row is not None and _replayed(row).plain.endswith("; the next runs say if it is fixed")


def test_unseen_alerts_count_every_one_and_keep_the_newest() -> None:
    unseen = Unseen()
    alerts = [Alert("spike", "p_1", "Orders", "fp", "E: boom", 5, ms) for ms in range(Unseen.KEEP + 10)]
    unseen.add(alerts[:10])
    unseen.add(alerts[10:])
    assert unseen.count == Unseen.KEEP + 10
    taken = unseen.take()
    assert taken == alerts[10:]  # the newest, oldest first
    assert unseen.count == 0 and unseen.take() == []


def test_an_ok_row_whose_feed_is_not_live_is_a_question_not_a_green_dot() -> None:
    """In an outage Health drew a green ● for workflows it could not read; `aftui health` said unknown."""
    from aftui.tui.screens.health import row_cells

    board = board_of(SYNC)
    row = board.row("p_sync", NOW)
    assert row is not None and row.state == "ok"
    assert row_cells(row, NOW)[0].plain == "●"
    assert row_cells(row, NOW, unheard=True)[0].plain == "?"
    board.add_error("p_sync", error(NOW - MINUTE_MS, workflow="p_sync"))
    failing = board.row("p_sync", NOW)
    assert failing is not None and row_cells(failing, NOW, unheard=True)[0].plain == "✖"  # what was heard stands
