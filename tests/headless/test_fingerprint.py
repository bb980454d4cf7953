"""Grouping workflow errors (aftui.fingerprint): what counts as the same failure."""

from __future__ import annotations

import pytest

from aftui.api.models import EventSummary
from aftui.fingerprint import error_key, fingerprint, group_errors, normalise_message


@pytest.mark.parametrize(
    ("message", "normalised"),
    [
        ("Missing required field: customer_email", "Missing required field: customer_email"),
        ("Order ord_31826 total 12.50 exceeds limit 10", "Order <id> total <n> exceeds limit <n>"),
        ("source dc_iBwUbtU is inactive", "source <id> is inactive"),
        ('Unknown SKU "SKU-7781" in order', 'Unknown SKU "<value>" in order'),
        ("bad value 'x' for 'country'", 'bad value "<value>" for "<value>"'),
        ("timeout at 2026-11-01T08:56:00.000Z after 30000 ms", "timeout at <time> after <n> ms"),
        ("request 6f1c2a4e-9b1d-4c3e-8f00-123456789abc failed", "request <id> failed"),
        ("no customer with email ada@customers.example", "no customer with email <email>"),
        ("hash 70f079a5fb26105d mismatch", "hash <hex> mismatch"),
        ("Request failed with status code 503", "Request failed with status code <n>"),
        ("  spaced\n  out\tmessage ", "spaced out message"),
        ("field_name missing", "field_name missing"),
    ],
)
def test_normalise_message(message: str, normalised: str) -> None:
    assert normalise_message(message) == normalised


def test_a_huge_message_is_cut_before_it_is_looked_at() -> None:
    assert len(normalise_message("x" * 5_000_000)) == 2000


def error(
    event_id: str, *, workflow: str = "p_wf1234", cell: str = "c_a", code: str = "Error", msg: str = "x"
) -> EventSummary:
    ms = int(event_id.split("-")[0])
    return EventSummary.model_validate(
        {
            "id": event_id,
            "indexed_at_ms": ms,
            "event": {
                "original_event": {"n": event_id},
                "original_context": {"workflow_id": workflow},
                "error": {"code": code, "msg": msg, "cellId": cell},
            },
            "metadata": {"emitter_id": workflow, "name": "$errors"},
        }
    )


def test_the_fingerprint_is_workflow_step_name_and_shape_of_the_message() -> None:
    steps = {"c_a": "validate", "c_b": "send"}
    a = error_key(error("1000-0", msg="Order ord_1 failed"), steps)
    b = error_key(error("2000-0", msg="Order ord_2 failed"), steps)
    assert a is not None and b is not None
    assert a == b and a.step == "validate" and a.fingerprint == b.fingerprint
    assert len(a.fingerprint) == 12 and a.fingerprint == fingerprint("p_wf1234", "c_a", "Error", "Order <id> failed")
    # Made of the step's id, not its name: the same without the workflow (an outage, Health's alerts).
    blind = error_key(error("1000-0", msg="Order ord_1 failed"))
    assert blind is not None and blind.step == "c_a" and blind.fingerprint == a.fingerprint
    for other in (
        error("3000-0", msg="Order ord_3 failed", cell="c_b"),
        error("3000-0", msg="Order ord_3 failed", code="TypeError"),
        error("3000-0", msg="Order ord_3 failed", workflow="p_other12"),
        error("3000-0", msg="Order ord_3 vanished"),
    ):
        key = error_key(other, steps)
        assert key is not None and key.fingerprint != a.fingerprint


def test_name_and_message_come_from_the_stack_when_the_record_lacks_them() -> None:
    event = EventSummary.model_validate(
        {"id": "1-0", "event": {"error": {"stack": "TypeError: x is 42\n    at run (file.mjs:1:1)"}}}
    )
    key = error_key(event, workflow_id="p_wf1234")
    assert key is not None and (key.name, key.message) == ("TypeError", "x is <n>")


def test_groups_biggest_first_their_events_oldest_first() -> None:
    events = [
        error("3000-0", msg="Missing field a"),
        error("1000-0", msg="Timeout after 30 s", code="TimeoutError"),
        error("2000-0", msg="Missing field a"),
        error("4000-1", msg="Timeout after 31 s", code="TimeoutError"),
        error("5000-0", msg="Missing field a"),
        EventSummary.model_validate({"id": "6000-0", "event": {"not": "an error"}}),
    ]
    groups = group_errors(events)
    assert [g.count for g in groups] == [3, 2]
    assert [e.id for e in groups[0].events] == ["2000-0", "3000-0", "5000-0"]
    assert (groups[0].first_ms, groups[0].last_ms) == (2000, 5000)
    assert groups[1].key.message == "Timeout after <n> s" and groups[1].sample == "Timeout after 30 s"
