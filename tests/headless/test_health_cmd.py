"""`aftui health` against the emulator: what is failing, since when, and is it fixed, for a script."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
import pytest

from aftui.emulator.server import ServerHandle
from aftui.headless import health_cmd
from aftui.headless.schemas import SCHEMAS

from .conftest import Aftui
from .test_errors_replay import WORKFLOW, fail_order


@pytest.fixture
def later(root: httpx.Client, monkeypatch: pytest.MonkeyPatch) -> int:
    """Two hours on the emulator's clock (the demo's errors are no longer the hour's), and the command's now its."""
    now = root.post("/_emulator/clock", json={"advance": 7200}).json()["now_ms"]
    monkeypatch.setattr(health_cmd, "now_ms", lambda: now)
    return int(now)


def by_name(records: list[dict]) -> dict[str, dict]:
    return {r["name"]: r for r in records}


def test_the_failing_workflow_comes_first_with_its_errors_and_why(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, later: int
) -> None:
    ids = [fail_order(emulator, root, api, f"ord_health{n}") for n in range(2)]
    done = aftui("health", "--json")
    assert done.code == 0, done.err
    records = done.records()
    assert all(list(r) == list(SCHEMAS["health"]) and r["kind"] == "health" for r in records)
    first = records[0]
    assert (first["name"], first["type"], first["state"]) == (WORKFLOW, "workflow", "failing")
    assert first["errors_1h"] == 2 and first["errors_24h"] >= 2 and first["replayed_ok_1h"] == 0
    assert first["last_error"] == "ValidationError: Missing required field: customer_email"
    assert first["last_error_at"] == datetime.fromtimestamp(int(ids[-1].split("-")[0]) / 1000, UTC).isoformat(
        timespec="milliseconds"
    ).replace("+00:00", "Z")
    org_sources = {
        s.name for s in emulator.emulator.store.sources.values() if s.org_id == emulator.emulator.demo.org_id
    }
    assert org_sources <= {r["name"] for r in records if r["type"] == "source"}
    assert [r["state"] for r in records].count("failing") == 1, "the demo's other errors are hours old"

    table = aftui("health", "--failing")
    assert table.code == 1, "a check: something is failing"
    header, *lines = table.out.splitlines()
    assert header.split()[:5] == ["STATE", "NAME", "TYPE", "ERRORS_1H", "ERRORS_24H"]
    assert len(lines) == 1 and lines[0].startswith("failing  " + WORKFLOW)
    assert lines[0].endswith("ValidationError: Missing required field: customer_email")
    [failing] = aftui("health", "--failing", "--json").records()
    assert failing["active"] is True
    # Deactivated, no run comes to say whether it is fixed: said in both outputs.
    api.put(f"/workflows/{failing['id']}", json={"active": False}).raise_for_status()
    assert aftui("health", "--failing", "--json").records()[0]["active"] is False
    assert aftui("health", "--failing").out.splitlines()[1].startswith("failing (off)  " + WORKFLOW)


def test_replayed_ok_it_is_fixed_until_it_fails_again(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, later: int
) -> None:
    for n in range(2):
        fail_order(emulator, root, api, f"ord_fix{n}")
    moment = datetime.fromtimestamp((later - 3600_000) / 1000, tz=UTC).isoformat()
    sent = aftui("replay", "--workflow", WORKFLOW, "--since", moment, "--set", "customer_email = a@b.example", "--yes")
    assert sent.code == 0, sent.err

    orders = by_name(aftui("health", "--json").records())[WORKFLOW]
    assert (orders["state"], orders["errors_1h"], orders["replayed_ok_1h"], orders["originals_1h"]) == (
        "fixed",
        2,
        2,
        2,
    )
    quiet = aftui("health", "--failing")
    assert quiet.code == 0 and quiet.out == "" and "nothing failing in the last hour" in quiet.err
    assert aftui("health").code == 0, "without --failing, a failing row is no failure of the command"

    fail_order(emulator, root, api, "ord_after_the_fix")
    orders = by_name(aftui("health", "--json").records())[WORKFLOW]
    assert (orders["state"], orders["errors_1h"], orders["replayed_ok_1h"]) == ("failing", 3, 2)

    # Without the journal the replays are not known: nothing reads as fixed, the service's errors still count.
    blind = by_name(aftui("health", "--json", "--no-journal").records())[WORKFLOW]
    assert (blind["state"], blind["errors_1h"], blind["replayed_ok_1h"]) == ("failing", 3, 0)


def test_fields_and_their_mistakes(aftui: Aftui, later: int) -> None:
    picked = aftui("health", "--json", "--fields", "name,state")
    assert picked.code == 0 and all(list(r) == ["name", "state"] for r in picked.records())
    wrong = aftui("health", "--fields", "name,nope")
    assert wrong.code == 2 and "nope is not a field of a health row" in wrong.err and wrong.out == ""


def test_a_workflow_whose_errors_cannot_be_read_is_unknown_and_a_check_cannot_pass(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, later: int
) -> None:
    fail_order(emulator, root, api, "ord_unread")
    root.post("/_emulator/faults", json={"path": "/v1/workflows", "status": 503, "count": 1000}).raise_for_status()
    try:
        blind = aftui("health", "--failing", "--no-journal")
        assert blind.code == 5, (blind.code, blind.err)  # not 0 and "nothing failing": it could not tell
        assert "could not tell whether" in blind.err and "nothing failing" not in blind.err
        assert blind.out.splitlines()[1].startswith("unknown  ")
        states = {r["id"]: r["state"] for r in aftui("health", "--json", "--no-journal").records()}
        assert states[emulator.emulator.demo.order_workflow_id] == "unknown", states
        assert "ok" in states.values()  # the sources, read all the same
    finally:
        root.delete("/_emulator/faults").raise_for_status()
    assert aftui("health", "--failing", "--no-journal").code == 1  # read again: failing


def test_in_an_outage_the_journal_still_says_what_was_failing(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, later: int
) -> None:
    """With every read answered 503, `health` failed on the sources' list (exit 5, nothing printed) though
    the journal held the hour's errors. It reports the workflows as the journal has them, and says once,
    not a line a workflow, what could not be read."""
    fail_order(emulator, root, api, "ord_outage")
    assert aftui("health", "--failing").code == 1  # read once: journaled
    root.post("/_emulator/faults", json={"path": "/v1", "status": 503, "count": 10_000}).raise_for_status()
    try:
        down = aftui("health", "--failing", "--json")
    finally:
        root.delete("/_emulator/faults").raise_for_status()
    assert down.code == 1, (down.code, down.err)  # failing, as far as the journal can tell
    failing = [r for r in down.records() if r["state"] == "failing"]
    assert [r["name"] for r in failing] == [WORKFLOW] and failing[0]["errors_1h"] == 1
    assert "the sources could not be listed: only workflows are reported" in down.err
    said = [line for line in down.err.splitlines() if "could not be read" in line and "errors" in line]
    assert (
        len(said) == 1 and said[0].startswith("aftui: the errors of ") and " workflows could not be read: " in said[0]
    )


def test_a_key_the_service_refuses_is_exit_3_whatever_the_journal_says(
    aftui: Aftui,
    emulator: ServerHandle,
    root: httpx.Client,
    api: httpx.Client,
    later: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A revoked key: `health --failing` printed the journal's failing rows and exited 1 (or 5, "could not
    tell"), and `get ERROR_ID` said "not found" (4), with "invalid API key" only among the problems: a cron
    job read a failing workflow, or a service down, for as long as the key was wrong (an on-call walk)."""
    error_id = fail_order(emulator, root, api, "ord_revoked")
    assert aftui("health", "--failing").code == 1  # failing, and the journal keeps its error
    monkeypatch.setenv("AFTUI_API_KEY", "not-the-key-0123456789")
    checked = aftui("health", "--failing")
    assert checked.code == 3, (checked.code, checked.err)
    assert checked.err.rstrip().endswith(
        "authentication failed: invalid API key (check the profile's key; `aftui config show`)"
    )
    got = aftui("get", error_id)
    assert got.code == 3, (got.code, got.err)
    unseen = aftui("get", "1795964295570-0")  # in no journal: "not found" among what the key could not see
    assert unseen.code == 3, (unseen.code, unseen.err)
