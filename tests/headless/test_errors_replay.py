"""`aftui errors` and `aftui replay` against the emulator: what failed, and sending it again."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from aftui.api.models import EventSummary
from aftui.emulator.server import ServerHandle
from aftui.fingerprint import error_key
from aftui.headless.schemas import SCHEMAS
from aftui.journal.replays import ReplayLog
from aftui.journal.store import Journal

from .conftest import Aftui

WORKFLOW = "Validate and forward orders"


@pytest.fixture
def order_workflow(emulator: ServerHandle) -> str:
    return str(emulator.emulator.demo.order_workflow_id)


def fail_order(emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_id: str) -> str:
    """An order without customer_email: the workflow fails on it. Returns the error's id."""
    endpoint = emulator.emulator.demo.order_endpoint_key
    body = {"order_id": order_id, "sku": "SKU-1001", "quantity": 1, "country": "de", "currency": "eur"}
    root.post(f"/e/{endpoint}", json=body).raise_for_status()
    for error in errors_of(api, emulator.emulator.demo.order_workflow_id):
        if error["event"]["original_event"]["body"].get("order_id") == order_id:
            return str(error["id"])
    raise AssertionError(f"no error for {order_id}")


def errors_of(api: httpx.Client, workflow_id: str) -> list[dict[str, Any]]:
    answer = api.get(f"/workflows/{workflow_id}/$errors/event_summaries", params={"expand": "event", "limit": 100})
    return list(answer.json()["data"])


def emitted_by(api: httpx.Client, workflow_id: str) -> list[dict[str, Any]]:
    answer = api.get(f"/workflows/{workflow_id}/event_summaries", params={"expand": "event", "limit": 100})
    return list(answer.json()["data"])


def replays(data_dir: Path) -> list:
    path = data_dir / "journal.sqlite3"
    if not path.exists():
        return []
    with ReplayLog(path) as log:
        return log.recent()


# --- aftui errors ----------------------------------------------------------------------------------------


def test_errors_for_people_are_dated_lines_oldest_first(aftui: Aftui, api: httpx.Client, order_workflow: str) -> None:
    done = aftui("errors", WORKFLOW)
    assert done.code == 0, done.err
    lines = done.out.splitlines()
    retained = errors_of(api, order_workflow)
    assert len(lines) == len(retained)
    pattern = re.compile(r"^2026-11-01 \d\d:\d\d:\d\d  \d+-\d+  validate  ValidationError: Missing required")
    assert all(pattern.match(line) for line in lines), lines
    ids = [line.split()[2] for line in lines]
    assert ids == sorted(ids, key=lambda i: tuple(map(int, i.split("-"))))


def test_errors_json_since_and_journal(aftui: Aftui, api: httpx.Client, order_workflow: str, data_dir: Path) -> None:
    done = aftui("errors", order_workflow, "--since", "2026-11-01T08:30:00Z", "--json")
    assert done.code == 0, done.err
    records = done.records()
    assert records and all(list(r) == list(SCHEMAS["error"]) for r in records)
    assert all(r["at"] >= "2026-11-01T08:30:00" for r in records)
    retained = errors_of(api, order_workflow)
    assert len(records) == sum(1 for e in retained if e["indexed_at_ms"] >= 1793521800000)
    first = next(e for e in retained if e["id"] == records[0]["id"])
    key = error_key(EventSummary.model_validate(first), {"c_ZP9btDc": "validate"})
    assert key is not None and records[0]["fingerprint"] == key.fingerprint
    assert records[0]["original_event"] == first["event"]["original_event"]
    with Journal(data_dir / "journal.sqlite3") as journal:
        assert journal.count(order_workflow) == len(retained)


def test_errors_group_counts_the_same_failure_once(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str
) -> None:
    for n in range(3):
        fail_order(emulator, root, api, f"ord_grp{n}")
    done = aftui("errors", WORKFLOW, "--group", "--json")
    assert done.code == 0, done.err
    groups = done.records()
    assert len(groups) == 1 and list(groups[0]) == list(SCHEMAS["error_group"])
    group = groups[0]
    assert group["count"] == len(errors_of(api, order_workflow)) == len(group["error_ids"])
    assert (group["step"], group["error"]) == ("validate", "ValidationError")
    assert group["message"] == "Missing required field: customer_email"
    table = aftui("errors", WORKFLOW, "--group")
    assert table.out.splitlines()[0].split()[:3] == ["COUNT", "FIRST_AT", "LAST_AT"]
    assert group["fingerprint"] in table.out


def test_errors_say_what_became_of_their_replays_and_a_group_whether_it_is_fixed(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str
) -> None:
    """Is it fixed? The journal's replays, as the TUI's Errors tab shows them: per error, and per failure."""
    fixed = fail_order(emulator, root, api, "ord_state_fixed")
    again = fail_order(emulator, root, api, "ord_state_again")
    unknown = aftui("errors", WORKFLOW, "--json", "--no-journal").records()
    assert {r["replay"] for r in unknown} == {None}, "no journal read: unknown, not never replayed"
    assert (
        aftui("replay", fixed, "--workflow", WORKFLOW, "--set", "customer_email = ops@example.com", "--yes").code == 0
    )
    assert aftui("replay", again, "--workflow", WORKFLOW, "--yes").code == 1
    records = {r["id"]: r for r in aftui("errors", WORKFLOW, "--json").records()}
    assert records[fixed]["replay"] == "succeeded"
    assert records[again]["replay"] == "failed"
    [became] = [r for r in records.values() if r["replay_of"] == again]  # the error the failed replay led to
    others = [r for r in records.values() if r["id"] not in (fixed, again, became["id"])]
    assert others and {r["replay"] for r in others} == {"never"}
    lines = aftui("errors", WORKFLOW).out
    assert re.search(rf"{fixed}  validate  \[replayed ok\] ValidationError", lines)
    assert re.search(rf"{became['id']}  validate  \[a replay of {again}\] ValidationError", lines)
    [group] = aftui("errors", WORKFLOW, "--group", "--json").records()
    assert group["fixed"] is False
    assert group["replay"] == f"1 failed again · {len(others)} never replayed · 1 replayed ok · 1 a failed replay's own"
    assert group["count"] == 1 + len(others) + 1 + 1, "the words add up to the count"
    assert "never replayed" in aftui("errors", WORKFLOW, "--group").out


# --- aftui replay ----------------------------------------------------------------------------------------


def test_replay_with_a_fix_succeeds_and_is_journaled(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str, data_dir: Path
) -> None:
    error_id = fail_order(emulator, root, api, "ord_fix1")
    done = aftui("replay", error_id, "--workflow", WORKFLOW, "--set", "customer_email = ops@example.com", "--yes")
    assert done.code == 0, done.err
    assert re.match(rf"^{error_id}  succeeded +the workflow ran it through", done.out)
    assert "1 succeeded" in done.err
    emitted = [e["event"] for e in emitted_by(api, order_workflow)]
    assert any(e.get("order_id") == "ord_fix1" and e.get("customer_email") == "ops@example.com" for e in emitted)
    rows = replays(data_dir)
    assert [(r.event_id, r.emitter_id, r.outcome, r.edited) for r in rows] == [
        (error_id, order_workflow, "succeeded", True)
    ]


def test_replay_as_it_was_fails_again_and_exits_1(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str, data_dir: Path
) -> None:
    error_id = fail_order(emulator, root, api, "ord_again")
    assert aftui("errors", WORKFLOW).code == 0  # the journal now knows which workflow the error is of
    before = len(errors_of(api, order_workflow))
    done = aftui("replay", error_id, "--yes", "--json")
    assert done.code == 1, done.err
    [record] = done.records()
    assert list(record) == list(SCHEMAS["replay"])
    assert record["outcome"] == "failed" and "customer_email" in record["detail"]
    assert record["edited"] is False and record["status_code"] == 200
    new = [e for e in errors_of(api, order_workflow) if e["id"] == record["outcome_event_id"]]
    assert new and len(errors_of(api, order_workflow)) == before + 1
    assert [r.outcome for r in replays(data_dir)] == ["failed"]
    assert "1 failed again" in done.err


def test_replay_the_last_hours_failures_with_a_patch(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str, tmp_path: Path
) -> None:
    root.post("/_emulator/clock", json={"advance": 7200}).raise_for_status()  # two hours on: the demo's errors are old
    ids = [fail_order(emulator, root, api, f"ord_hour{n}") for n in range(3)]
    patch = tmp_path / "fix.json"
    patch.write_text(json.dumps({"customer_email": "ops@example.com", "quantity": None}))
    now_ms = root.get("/_emulator/clock").json()["now_ms"]
    moment = datetime.fromtimestamp((now_ms - 3600_000) / 1000, tz=UTC).isoformat()  # an hour ago, on its clock
    done = aftui("replay", "--workflow", WORKFLOW, "--since", moment, "--patch", f"@{patch}", "--yes", "--json")
    assert done.code == 0, done.err
    records = done.records()
    assert [r["error_id"] for r in records] == ids  # oldest first, only the last hour's
    assert all(r["outcome"] == "succeeded" and r["edited"] for r in records)
    emitted = {e["event"].get("order_id"): e["event"] for e in emitted_by(api, order_workflow)}
    for n in range(3):
        assert emitted[f"ord_hour{n}"]["customer_email"] == "ops@example.com"
        assert "quantity" not in emitted[f"ord_hour{n}"]


def test_the_same_selection_twice_sends_nothing_twice(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str
) -> None:
    """A selection leaves out what was replayed ok and the error a failed replay led to; named ids are sent."""
    root.post("/_emulator/clock", json={"advance": 7200}).raise_for_status()  # the demo's errors are old
    ids = [fail_order(emulator, root, api, f"ord_twice{n}") for n in range(3)]
    assert aftui("replay", ids[0], "--workflow", WORKFLOW, "--yes").code == 1  # failed again: a new error
    [became] = [e["id"] for e in errors_of(api, order_workflow) if e["id"] not in ids][:1]
    now_ms = root.get("/_emulator/clock").json()["now_ms"]
    moment = datetime.fromtimestamp((now_ms - 3600_000) / 1000, tz=UTC).isoformat()
    fix = ("--set", "customer_email = ops@example.com")

    first = aftui("replay", "--workflow", WORKFLOW, "--since", moment, *fix, "--yes", "--json")
    assert first.code == 0, first.err
    assert [r["error_id"] for r in first.records()] == ids, "the replay's own error is not sent: its original is"
    assert "1 of 4 left out (1 a replay's own error); --again sends them too" in first.err
    assert became not in first.out

    again = aftui("replay", "--workflow", WORKFLOW, "--since", moment, *fix, "--yes", "--dry-run", "--json")
    assert again.code == 0 and again.records() == [], "nothing is sent twice"
    assert "4 of 4 left out (3 replayed ok, 1 a replay's own error)" in again.err

    forced = aftui("replay", "--workflow", WORKFLOW, "--since", moment, *fix, "--again", "--dry-run", "--json")
    assert [r["error_id"] for r in forced.records()] == ids, "never a replay's own error beside its original"
    assert f"{became}: the error of a replay of {ids[0]}, which is sent instead" in forced.err
    assert f"{ids[1]}: replayed ok; --again: it would be sent again (a new run" in forced.err, "a dry run sends nothing"
    named = aftui("replay", ids[1], "--workflow", WORKFLOW, *fix, "--dry-run", "--json")
    assert [r["error_id"] for r in named.records()] == [ids[1]]
    assert f"{ids[1]}: replayed ok; named: it would be sent again (a new run of the workflow)" in named.err
    sent = aftui("replay", ids[1], "--workflow", WORKFLOW, *fix, "--dry-run")
    assert "sent again once confirmed" not in sent.err  # a dry run: nothing to confirm


def test_an_error_another_aftui_is_replaying_now_is_not_sent_twice(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str, data_dir: Path
) -> None:
    """A teammate's (or a cron job's) replay of the same error is pending in the journal: this one sends nothing."""
    error_id = fail_order(emulator, root, api, "ord_claimed")
    assert aftui("errors", WORKFLOW, "--json").code == 0  # the journal is made, the error in it
    with ReplayLog(data_dir / "journal.sqlite3", by="dana") as log:
        log.started(
            "rp_dana", emitter_id=order_workflow, event_id=error_id, workflow_id=order_workflow,
            method="POST", target_url="http://127.0.0.1/", edited=True,
        )  # fmt: skip
    emitted = len(emitted_by(api, order_workflow))
    done = aftui("replay", error_id, "--workflow", WORKFLOW, "--set", "customer_email = a@b.example", "--yes")
    assert done.code == 1
    assert "being replayed by dana now: not sent twice" in done.out + done.err
    assert len(emitted_by(api, order_workflow)) == emitted, "nothing was sent"
    assert [r.replay_id for r in replays(data_dir)] == ["rp_dana"]


def test_replay_of_one_failure_by_its_fingerprint(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client
) -> None:
    fail_order(emulator, root, api, "ord_fp")
    [group] = aftui("errors", WORKFLOW, "--group", "--json").records()
    done = aftui("replay", "--workflow", WORKFLOW, "--fingerprint", group["fingerprint"][:8], "--dry-run", "--json")
    assert done.code == 0, done.err
    assert [r["error_id"] for r in done.records()] == group["error_ids"]
    # A fingerprint no error has is a mistake (exit 4), not "nothing left to replay" (exit 0).
    unknown = aftui("replay", "--workflow", WORKFLOW, "--fingerprint", "ffffffffffff", "--yes")
    assert unknown.code == 4 and "has a fingerprint starting 'ffffffffffff'" in unknown.err, unknown


def test_a_dry_run_sends_nothing_even_read_only(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str, data_dir: Path
) -> None:
    error_id = fail_order(emulator, root, api, "ord_dry")
    before = (len(errors_of(api, order_workflow)), len(emitted_by(api, order_workflow)))
    done = aftui(
        "--read-only", "replay", error_id, "--workflow", order_workflow, "--dry-run", "--set", "customer_email=a@b.c"
    )
    assert done.code == 0, done.err
    assert done.out.startswith(f"{error_id}  would send POST http://127.0.0.1")
    assert "(edited)" in done.out and '"customer_email":"a@b.c"' in done.out and "ord_dry" in done.out
    plan = aftui("replay", error_id, "--workflow", order_workflow, "--dry-run", "--json").records()[0]
    assert list(plan) == list(SCHEMAS["replay_plan"]) and plan["replayable"] and plan["method"] == "POST"
    assert "authorization" not in {h.lower() for h in plan["headers"]}
    assert (len(errors_of(api, order_workflow)), len(emitted_by(api, order_workflow))) == before
    assert replays(data_dir) == []


def test_read_only_refuses_a_replay_before_sending(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str, data_dir: Path
) -> None:
    error_id = fail_order(emulator, root, api, "ord_ro")
    before = len(emitted_by(api, order_workflow)), len(errors_of(api, order_workflow))
    done = aftui("--read-only", "replay", error_id, "--workflow", order_workflow, "--yes")
    assert done.code == 2 and "read-only" in done.err and done.out == ""
    assert (len(emitted_by(api, order_workflow)), len(errors_of(api, order_workflow))) == before
    assert replays(data_dir) == []


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (("--patch", '{"customer_email": '), "--patch: the patch is not valid JSON (line 1, column 20"),
        (("--patch", "@/nonexistent/fix.json"), "--patch @/nonexistent/fix.json: the file cannot be read"),
        (("--set", "customer_email"), "--set: 'customer_email' is not an assignment"),  # said of the flag, not an error
        (("--set", "order_id.deeper = 1"), "the edit cannot be made: 'order_id.deeper = 1'"),
    ],
)
def test_a_bad_edit_is_refused_and_nothing_is_sent(
    aftui: Aftui,
    emulator: ServerHandle,
    root: httpx.Client,
    api: httpx.Client,
    order_workflow: str,
    data_dir: Path,
    edit: tuple[str, str],
    words: str,
) -> None:
    error_id = fail_order(emulator, root, api, "ord_bad")
    before = len(emitted_by(api, order_workflow)), len(errors_of(api, order_workflow))
    done = aftui("replay", error_id, "--workflow", order_workflow, *edit, "--yes")
    assert done.code == 2, done.err
    assert words in done.err and done.out == ""
    assert (len(emitted_by(api, order_workflow)), len(errors_of(api, order_workflow))) == before
    assert replays(data_dir) == []


def test_an_unknown_error_id_is_exit_4(aftui: Aftui, order_workflow: str) -> None:
    done = aftui("replay", "1-0", "--yes")
    assert done.code == 4 and "no error 1-0" in done.err and "--workflow" in done.err
    assert aftui("replay", "1-0", "--workflow", order_workflow, "--yes").code == 4


def test_replay_asks_on_a_terminal_and_scripts_must_say_yes(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str, data_dir: Path
) -> None:
    error_id = fail_order(emulator, root, api, "ord_ask")
    before = len(errors_of(api, order_workflow))
    script = aftui("replay", error_id, "--workflow", order_workflow)
    assert script.code == 2 and "add --yes" in script.err
    declined = aftui("replay", error_id, "--workflow", order_workflow, stdin="n\n")
    assert declined.code == 2 and "Replay 1 error of Validate and forward orders as it was?" in declined.err
    assert "nothing was changed" in declined.err
    assert len(errors_of(api, order_workflow)) == before and replays(data_dir) == []
    accepted = aftui("replay", error_id, "--workflow", order_workflow, stdin="y\n")
    assert accepted.code == 1  # sent as it was: it fails again
    assert len(errors_of(api, order_workflow)) == before + 1


def test_an_unknown_field_of_an_error_is_named_in_a_sentence(aftui: Aftui) -> None:
    done = aftui("errors", WORKFLOW, "--fields", "bogus")
    assert done.code == 2 and "--fields: bogus is not a field of an error; the fields are: kind, id" in done.err


def test_a_workflow_without_errors_is_said_by_name(aftui: Aftui, emulator: ServerHandle) -> None:
    quiet = next(w for w in emulator.emulator.store.workflows.values() if w.name == "GitHub issues to Slack")
    done = aftui("errors", "GitHub issues to Slack")
    assert done.code == 0 and done.out == ""
    assert f"no errors of GitHub issues to Slack ({quiet.id})" in done.err


def test_an_error_named_with_another_workflow_is_taken_as_its_own(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str
) -> None:
    """`--workflow` was read alone: the error, which the journal knew was another workflow's, was "not found"."""
    error = fail_order(emulator, root, api, "ord_other_workflow")
    assert aftui("errors", WORKFLOW).code == 0  # journaled, with its workflow
    flaky = next(w for w in emulator.emulator.store.workflows.values() if w.name == "Flaky partner sync")
    done = aftui("replay", error, "--workflow", flaky.id, "--dry-run", "--json")
    assert done.code == 0, done.err
    assert f"{error}: an error of {order_workflow}, not of {flaky.id}; taken as {order_workflow}'s" in done.err
    [plan] = done.records()
    assert plan["error_id"] == error and plan["workflow_id"] == order_workflow


def test_usage_errors_of_replay(aftui: Aftui) -> None:
    assert aftui("replay").code == 2
    done = aftui("replay", "--workflow", WORKFLOW, "--yes")
    assert done.code == 2 and "--since" in done.err
    # Ids with a selection: the selection was ignored, and an error outside it sent all the same.
    for selection in (("--since", "5m"), ("--fingerprint", "ffff")):
        done = aftui("replay", "1793517360000-0", "--workflow", WORKFLOW, *selection, "--dry-run")
        assert done.code == 2 and "give the ids, or the selection, not both" in done.err, done.err
        assert done.out == ""
    done = aftui("replay", "notanid", "--dry-run")
    assert done.code == 2 and "'notanid' is not an error id: they read like 1795896786205-0" in done.err


def test_an_error_the_service_no_longer_keeps_is_replayed_from_the_journal(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str, data_dir: Path
) -> None:
    old = fail_order(emulator, root, api, "ord_old")
    assert aftui("errors", WORKFLOW).code == 0  # journaled, in full
    endpoint = emulator.emulator.demo.order_endpoint_key
    for n in range(100):  # a hundred newer failures push it out of what the service keeps
        root.post(f"/e/{endpoint}", json={"order_id": f"ord_flood{n}"}).raise_for_status()
    assert old not in {e["id"] for e in errors_of(api, order_workflow)}
    done = aftui("replay", old, "--set", "customer_email = ops@example.com", "--yes", "--json")
    assert done.code == 0, done.err
    assert done.records()[0]["outcome"] == "succeeded"
    assert any(e["event"].get("order_id") == "ord_old" for e in emitted_by(api, order_workflow))
    assert [(r.event_id, r.outcome) for r in replays(data_dir)] == [(old, "succeeded")]


def test_a_selection_since_a_time_takes_the_errors_the_journal_kept_beyond_the_services_hundred(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str
) -> None:
    """An hour of more than 100 errors: `--since 1h` took only the service's last 100, and Health, which counts
    the journal's, could never say the workflow was fixed."""
    root.post("/_emulator/clock", json={"advance": 7200}).raise_for_status()  # the demo's errors are old
    now_ms = root.get("/_emulator/clock").json()["now_ms"]
    moment = datetime.fromtimestamp((now_ms - 3600_000) / 1000, tz=UTC).isoformat()
    old = [fail_order(emulator, root, api, f"ord_early{n}") for n in range(3)]
    assert aftui("errors", WORKFLOW).code == 0  # journaled while the service still had them
    endpoint = emulator.emulator.demo.order_endpoint_key
    for n in range(100):  # a hundred newer failures push them out of what the service keeps
        root.post(f"/e/{endpoint}", json={"order_id": f"ord_flood{n}"}).raise_for_status()
    assert not set(old) & {e["id"] for e in errors_of(api, order_workflow)}
    done = aftui("replay", "--workflow", WORKFLOW, "--since", moment, "--dry-run", "--json")
    assert done.code == 0, done.err
    sent = [r["error_id"] for r in done.records()]
    assert len(sent) == 103 and sent[:3] == old, "the journal's, oldest first, then the service's hundred"
    # `errors --since` lists and counts the same errors, as Health does: it had stopped at the service's 100.
    listed = aftui("errors", WORKFLOW, "--since", moment, "--json")
    assert [r["id"] for r in listed.records()] == sent
    grouped = aftui("errors", WORKFLOW, "--since", moment, "--group", "--json")
    assert sum(r["count"] for r in grouped.records()) == 103


def test_a_dry_run_ends_as_the_replay_would_when_an_error_cannot_be_replayed(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client
) -> None:
    """A timer's run cannot be sent again: the dry run said "0 of 1 would be sent" and exited 0, the replay 1."""
    flaky = next(w for w in emulator.emulator.store.workflows.values() if w.name == "Flaky partner sync")
    root.post("/_emulator/clock", json={"advance": 7200}).raise_for_status()  # the demo's errors are old
    now_ms = root.get("/_emulator/clock").json()["now_ms"]
    moment = datetime.fromtimestamp((now_ms - 3600_000) / 1000, tz=UTC).isoformat()
    for _ in range(40):  # one run in five fails; the seed fixes which
        root.post(f"/_emulator/timers/{flaky.id}/run").raise_for_status()
        if [e for e in errors_of(api, flaky.id) if e["id"] > str(now_ms - 3600_000)]:
            break
    selection = ("replay", "--workflow", "Flaky partner sync", "--since", moment)
    dry = aftui(*selection, "--dry-run")
    assert dry.code == 1 and "cannot be replayed" in dry.out, dry
    sent = aftui(*selection, "--yes")
    assert sent.code == 1 and "replaying…" not in sent.err, "it is not sent: said by its line alone"


# --- aftui get ERROR_ID ----------------------------------------------------------------------------------


def test_get_finds_an_error_by_its_id_on_a_machine_that_knows_no_workflow(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str, data_dir: Path
) -> None:
    error_id = fail_order(emulator, root, api, "ord_get")
    assert not (data_dir / "known_workflows.json").exists()  # found by a discovery, as `aftui workflows` runs one
    done = aftui("get", error_id, "--json")
    assert done.code == 0, done.err
    [record] = done.records()
    assert list(record) == list(SCHEMAS["error"])
    assert (record["kind"], record["id"], record["workflow_id"]) == ("error", error_id, order_workflow)
    assert record["message"] == "Missing required field: customer_email"
    assert record["original_event"]["body"]["order_id"] == "ord_get"
    assert record["stack"].startswith("ValidationError: Missing required field")  # a script had it only from --raw
    people = aftui("get", error_id)
    assert f"workflow_name   {WORKFLOW}" in people.out
    assert "\nstack\n  ValidationError: Missing required field" in people.out
    raw = aftui("get", error_id, "--raw").records()[0]
    assert raw["id"] == error_id and raw["event"]["error"]["stack"].startswith("ValidationError")


def test_get_finds_an_error_the_service_no_longer_keeps_in_the_journal(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str
) -> None:
    old = fail_order(emulator, root, api, "ord_gone")
    assert aftui("errors", WORKFLOW).code == 0  # journaled
    endpoint = emulator.emulator.demo.order_endpoint_key
    for n in range(100):
        root.post(f"/e/{endpoint}", json={"order_id": f"ord_flood{n}"}).raise_for_status()
    assert old not in {e["id"] for e in errors_of(api, order_workflow)}
    done = aftui("get", old, "--fields", "id,workflow_id", "--json")
    assert done.code == 0, done.err
    assert done.records() == [{"id": old, "workflow_id": order_workflow}]


def test_get_of_an_error_id_found_nowhere_is_exit_4_and_says_where_ids_are_listed(aftui: Aftui) -> None:
    done = aftui("get", "1-0")
    assert done.code == 4 and done.out == ""
    assert "no error 1-0" in done.err and "aftui errors WORKFLOW" in done.err


def test_get_of_an_error_masks_a_callers_credentials_for_people_and_json_keeps_them(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str
) -> None:
    endpoint = emulator.emulator.demo.order_endpoint_key
    body = {"order_id": "ord_cookie", "sku": "SKU-1001", "quantity": 1, "country": "de", "currency": "eur"}
    root.post(f"/e/{endpoint}", json=body, headers={"Cookie": "session=SECRET"}).raise_for_status()
    error_id = next(
        e["id"]
        for e in errors_of(api, order_workflow)
        if e["event"]["original_event"]["body"].get("order_id") == "ord_cookie"
    )
    people = aftui("get", error_id)
    assert people.code == 0 and "SECRET" not in people.out and '"cookie":"****"' in people.out
    assert "session=SECRET" in aftui("get", error_id, "--json").out  # asked for as it is


def test_in_an_outage_get_and_errors_give_the_journals_copies_and_a_dry_run_says_not_ready(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client
) -> None:
    """With the service answering 503, `get ERROR_ID` failed on the 503 though the journal had the error, and
    a dry run said "cannot be replayed" (exit 1), read as final. Now: the journal's copy, and "not ready to
    replay" with exit 5, as a command the service did not answer."""
    error_id = fail_order(emulator, root, api, "ord_get_outage")
    assert aftui("errors", WORKFLOW, "--json").code == 0  # listed: journaled
    root.post("/_emulator/faults", json={"path": "/v1", "status": 503, "count": 10_000}).raise_for_status()
    try:
        got = aftui("get", error_id, "--json")
        dry = aftui("replay", error_id, "--dry-run")
        sent = aftui("replay", error_id, "--yes", "--json")
        unasked = aftui("replay", error_id)  # off a terminal, no --yes
        listed = aftui("errors", WORKFLOW, "--json")
    finally:
        root.delete("/_emulator/faults").raise_for_status()
    # The list too, from the journal, and exit 5: what came since the journal last read it is not known.
    assert listed.code == 5, (listed.code, listed.err)
    assert error_id in [r["id"] for r in listed.records()]
    assert (
        "the service did not answer (injected fault: the service failed): these are the journal's errors" in listed.err
    )
    assert got.code == 0, got.err
    [record] = got.records()
    assert (record["kind"], record["id"], record["message"]) == (
        "error",
        error_id,
        "Missing required field: customer_email",
    )
    assert "the journal's copies are given" in got.err
    assert dry.code == 5, (dry.code, dry.err)
    # Not "skipped", as a run no replay can start is: a later run may send it.
    assert sent.code == 5 and [(r["outcome"], r["replay_id"]) for r in sent.records()] == [("not ready", None)], sent
    assert sent.records()[0]["detail"].startswith("the workflow could not be read (HTTP 503")
    assert unasked.code == 5 and "Replay 0 errors" not in unasked.err, unasked  # nothing to ask about
    assert dry.out.startswith(f"{error_id}  not ready to replay: the workflow could not be read (HTTP 503: ")


def test_a_replay_whose_outcome_is_unknown_exits_1_and_is_not_sent_again_unless_asked(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, order_workflow: str, data_dir: Path
) -> None:
    """The workflow's events unreadable: the replay was sent and its outcome could not be seen. It exited 5, which
    a script reads as "try again", and the retry sent the order a second time (an on-call walk). Now a 1, as
    the help says, and a second run leaves the error out until --again."""
    error_id = fail_order(emulator, root, api, "ord_unknown_twice")
    assert aftui("errors", WORKFLOW).code == 0  # journaled: the next runs find it there
    fault = {"path": f"/v1/workflows/{order_workflow}/event_summaries", "status": 503, "count": 10_000}
    root.post("/_emulator/faults", json=fault).raise_for_status()
    try:
        first = aftui("replay", error_id, "--yes", "--timeout", "2", "--json")
        again = aftui("replay", error_id, "--yes", "--timeout", "2", "--json")
    finally:
        root.delete("/_emulator/faults").raise_for_status()
    assert first.code == 1, (first.code, first.err)
    assert [r["outcome"] for r in first.records()] == ["unknown"]
    assert again.code == 1, (again.code, again.err)
    assert again.records() == []
    assert (
        f"{error_id}: replay outcome unknown: it may have run, so it is not sent again; --again sends it" in again.err
    )
    assert len(replays(data_dir)) == 1, "sent once"
    asked = aftui("replay", error_id, "--yes", "--again", "--json")
    assert asked.code == 1 and [r["outcome"] for r in asked.records()] == ["failed"], (asked.code, asked.err)
    assert len(replays(data_dir)) == 2
