"""Replay states from the journal's replay rows (aftui.replay.states), and the TUI's one-line fix (parse_edit, changes)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from aftui.api.models import EventSummary
from aftui.fingerprint import group_errors
from aftui.journal.replays import CLAIM_S, ReplayLog, ReplayRow
from aftui.replay.patch import MISSING, Change, PatchError, changes, parse_edit
from aftui.replay.settle import unknown_of
from aftui.replay.states import group_state, replay_states, still_failing
from aftui.replay.who import replayed_words


def error(event_id: str, replay_id: str | None = None) -> EventSummary:
    headers = {"x-aftui-replay": replay_id} if replay_id else {}
    return EventSummary.model_validate(
        {
            "id": event_id,
            "indexed_at_ms": int(event_id.split("-")[0]),
            "event": {
                "original_event": {"headers": headers, "body": {"n": event_id}},
                "original_context": {"workflow_id": "p_wf"},
                "error": {"code": "ValidationError", "msg": "Missing required field: customer_email"},
            },
            "metadata": {"emitter_id": "p_wf", "name": "$errors"},
        }
    )


def replayed(log: ReplayLog, replay_id: str, event_id: str, outcome: str | None, became: str | None = None) -> None:
    log.started(
        replay_id, emitter_id="p_wf", event_id=event_id, workflow_id="p_wf", method="POST", target_url="u", edited=False
    )
    if outcome is not None:
        log.finished(replay_id, outcome=outcome, outcome_emitter_id="p_wf" if became else None, outcome_event_id=became)


def test_states_links_both_ways_and_a_group_fixed_on_the_second_try(tmp_path: Path) -> None:
    events = [
        error("1000-0"),  # replayed, failed again as 5000-0, which was replayed with success
        error("2000-0"),  # replayed ok
        error("3000-0"),  # pending
        error("4000-0"),  # never
        error("5000-0", replay_id="rp_a"),
        error("6000-0", replay_id="rp_elsewhere"),  # a replay the journal never saw sent
    ]
    with ReplayLog(tmp_path / "j.sqlite3") as log:
        replayed(log, "rp_a", "1000-0", "failed", became="5000-0")
        replayed(log, "rp_b", "2000-0", "succeeded")
        replayed(log, "rp_c", "3000-0", None)
        replayed(log, "rp_d", "5000-0", "succeeded")
        rows = log.touching("p_wf", [e.id or "" for e in events], ["rp_a", "rp_elsewhere"])
    states = replay_states(events, rows)
    assert {k: s.kind for k, s in states.items()} == {
        "1000-0": "succeeded",  # followed to what its replay became
        "2000-0": "succeeded",
        "3000-0": "pending",
        "4000-0": "never",
        "5000-0": "succeeded",
        "6000-0": "never",
    }
    assert states["1000-0"].became == ("5000-0",) and states["5000-0"].replay_of == "1000-0"
    assert states["6000-0"].is_replay and states["6000-0"].replay_of is None
    (group,) = group_errors(events, workflow_id="p_wf")
    state = group_state(group, states)
    assert (state.originals, state.replays, state.fixed) == (4, 2, False)
    # The group counts 6: its 4 originals' words, and the 2 a replay led to, so the parts add up to the count.
    assert state.words() == "1 replay pending · 1 never replayed · 2 replayed ok · 2 a failed replay's own"
    assert [e.id for e in still_failing(group, states)] == ["4000-0"]


def row(replay_id: str, event_id: str, at: float, outcome: str) -> ReplayRow:
    """A replay sent `at` seconds after a moment a minute ago (a pending one is fresh unless `at` is far back)."""
    started = time.time() - 60 + at
    return ReplayRow(
        replay_id, "p_wf", event_id, "p_wf", started, started + 1, "POST", "u", False, 200, outcome, None, None, None
    )


def test_a_replay_that_succeeded_is_not_undone_by_a_later_one_that_failed() -> None:
    """Replayed ok, then sent again (a teammate, a second y) and that failed: the order went through once, so the
    error is replayed ok, and the group's replay leaves it out; it said "failed again" and sent it a third time."""
    events = [error("1000-0"), error("2000-0"), error("3000-0")]
    rows = [
        row("rp_ok", "1000-0", 10.0, "succeeded"),
        row("rp_dup", "1000-0", 20.0, "failed"),
        row("rp_f1", "2000-0", 10.0, "failed"),
        row("rp_f2", "2000-0", 20.0, "pending"),
        row("rp_p", "3000-0", 10.0, "succeeded"),
        row("rp_q", "3000-0", 20.0, "pending"),
    ]
    states = replay_states(events, rows)
    assert {k: s.kind for k, s in states.items()} == {"1000-0": "succeeded", "2000-0": "pending", "3000-0": "succeeded"}
    assert [r.replay_id for r in states["1000-0"].replays] == ["rp_dup", "rp_ok"]  # the detail lists both, newest first
    (group,) = group_errors(events, workflow_id="p_wf")
    assert still_failing(group, states) == []
    assert group_state(group, states).words() == "1 replay pending · 2 replayed ok"


def test_a_replay_whose_outcome_is_unknown_is_not_sent_again_by_a_selection() -> None:
    """Sent in an outage, nothing seen of it: it may have run. A later one that failed read "failed again", and the
    next bulk replay forwarded the order a second time (helper's walk)."""
    events = [error("1000-0"), error("2000-0")]
    rows = [
        row("rp_blind", "1000-0", 10.0, "unknown"),
        row("rp_later", "1000-0", 20.0, "failed"),
        row("rp_ok", "2000-0", 10.0, "unknown"),
        row("rp_ok2", "2000-0", 20.0, "succeeded"),
    ]
    states = replay_states(events, rows)
    assert {k: s.kind for k, s in states.items()} == {"1000-0": "unknown", "2000-0": "succeeded"}
    (group,) = group_errors(events, workflow_id="p_wf")
    assert still_failing(group, states) == []


def test_a_replay_left_pending_by_an_aftui_that_died_is_unknown_and_looked_for() -> None:
    """Its aftui killed while it watched (an SSH session dropped): the row stayed "pending" for good, its error out
    of every selection and "… pending" in the list. Past CLAIM_S it may have run, and nothing says: unknown."""
    events = [error("1000-0"), error("2000-0")]
    rows = [row("rp_dead", "1000-0", -CLAIM_S - 5, "pending"), row("rp_live", "2000-0", 50.0, "pending")]
    states = replay_states(events, rows)
    assert {k: s.kind for k, s in states.items()} == {"1000-0": "unknown", "2000-0": "pending"}
    assert [r.replay_id for r in unknown_of(rows)] == ["rp_dead"]
    assert replayed_words(rows[0]).endswith(", outcome unknown")
    (group,) = group_errors(events, workflow_id="p_wf")
    assert still_failing(group, states) == []


@pytest.mark.parametrize(
    ("text", "patch", "assignments"),
    [
        ("", None, ()),
        ('{"customer_email": "ops@x.io", "debug": null}', {"customer_email": "ops@x.io", "debug": None}, ()),
        ("customer_email = ops@x.io", None, ("customer_email = ops@x.io",)),
        ('a = "x;y"; b[0] = {"c": ";"} ;', None, ('a = "x;y"', 'b[0] = {"c": ";"}')),
    ],
)
def test_parse_edit(text: str, patch: object, assignments: tuple[str, ...]) -> None:
    edit = parse_edit(text)
    assert (edit.patch, edit.assignments) == (patch, assignments)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"a": ', "the patch is not valid JSON (line 1, column 6: Expecting value)"),
        ("a = 1; b", "'b' is not an assignment"),
        ("a..b = 1", "cannot read the path"),
        ("a = {bad", "the value of a looks like JSON but is not valid"),
    ],
)
def test_a_bad_edit_is_refused_before_any_payload(text: str, said: str) -> None:
    with pytest.raises(PatchError, match=said.replace("(", r"\(").replace(")", r"\)")):
        parse_edit(text)


def test_changes_path_by_path() -> None:
    before = {"a": 1, "b": {"c": 2}, "odd key": 3, "list": [1]}
    after = parse_edit('{"b": {"c": 3, "d": 4}, "odd key": null, "list": [1, 2], "z": null}').apply(before)
    assert changes(before, after) == [
        Change("b.c", 2, 3),
        Change("b.d", MISSING, 4),
        Change('["odd key"]', 3, MISSING),
        Change("list", [1], [1, 2]),
    ]
    assert [c.kind for c in changes(before, after)] == ["changed", "added", "removed", "changed"]
    assert changes(before, before) == []
