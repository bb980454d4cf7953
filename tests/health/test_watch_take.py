"""HealthWatch.take with a limit: a burst is folded into the board a slice at a time, nothing left out."""

from __future__ import annotations

import pytest

from aftui.api import Client
from aftui.api.models import EventSummary
from aftui.health import HealthWatch, Subject
from aftui.monitor import Batch, Monitor, Record, Target

NOW = 1_800_000_000_000
HOOKS = Subject("source", "dc_hooks", "Order webhooks")


def records(count: int) -> list[Record]:
    target = Target("source", HOOKS.id, HOOKS.name)
    return [
        Record(
            n,
            target,
            EventSummary.model_validate(
                {"id": f"{NOW - n}-0", "event": {"n": n}, "metadata": {"emitter_id": HOOKS.id}}
            ),
            seen=0.0,
        )
        for n in range(count)
    ]


@pytest.fixture
def watch() -> HealthWatch:
    health = HealthWatch(lambda: Monitor(Client("http://127.0.0.1:9", api_key="k")), now_ms=lambda: NOW)
    health.know([HOOKS])
    return health


def test_a_limited_take_leaves_the_rest_for_the_next(watch: HealthWatch, monkeypatch: pytest.MonkeyPatch) -> None:
    arrived = [records(5)]
    monkeypatch.setattr(watch.monitor, "take", lambda: Batch(arrived.pop() if arrived else [], {}, [], 0, 0))

    def counted() -> int:
        row = watch.board.row(HOOKS.id, NOW)
        assert row is not None
        return sum(row.per_minute)

    watch.take(limit=2)
    assert (counted(), watch.behind) == (2, True)
    watch.take(limit=2)
    watch.take(limit=2)
    assert (counted(), watch.behind) == (5, False)


def test_a_take_without_a_limit_takes_all(watch: HealthWatch, monkeypatch: pytest.MonkeyPatch) -> None:
    arrived = [records(3000)]
    monkeypatch.setattr(watch.monitor, "take", lambda: Batch(arrived.pop() if arrived else [], {}, [], 0, 0))
    watch.take()
    assert not watch.behind


def test_a_take_counts_a_streams_events_and_alerts_on_a_workflows_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    orders = Subject("workflow", "p_orders", "Validate orders")
    health = HealthWatch(lambda: Monitor(Client("http://127.0.0.1:9", api_key="k")), now_ms=lambda: NOW)
    health.know([HOOKS, orders])
    failed = EventSummary.model_validate(
        {
            "id": f"{NOW + 1}-0",  # after the watch began: live
            "event": {"error": {"code": "ValidationError", "msg": "Missing customer_email"}},
            "metadata": {"emitter_id": orders.id, "name": "$errors"},
        }
    )
    arrived = [[*records(3), Record(3, Target("errors", orders.id, orders.name), failed, seen=0.0), *records(2)]]
    monkeypatch.setattr(health.monitor, "take", lambda: Batch(arrived.pop() if arrived else [], {}, [], 0, 0))
    alerts = health.take()
    hooks, failing = health.board.row(HOOKS.id, NOW), health.board.row(orders.id, NOW)
    assert hooks is not None and failing is not None
    assert sum(hooks.per_minute) == 3  # the second run's two were the first run's first two
    assert (failing.errors_1h, [a.workflow_id for a in alerts]) == (1, [orders.id])


def test_the_figures_are_counted_from_the_take_after_every_feed_answered_or_when_one_never_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before, a 0 of a feed still bringing what the service kept would say healthy: counted waits for every
    feed's first answer (and the take after it, which has what came before it), or COUNTED_AFTER_S."""
    from aftui.api.stream import StreamState
    from aftui.health.watch import COUNTED_AFTER_S

    now = [NOW]
    health = HealthWatch(lambda: Monitor(Client("http://127.0.0.1:9", api_key="k")), now_ms=lambda: now[0])
    hooks = Target("source", HOOKS.id, HOOKS.name)
    orders = Target("errors", "p_orders", "Validate orders")
    emitted = Target("events", "p_orders", "Validate orders")
    phases = {hooks.key: "live", orders.key: "connecting", emitted.key: "live"}

    def take() -> Batch:
        states = {t.key: (t, StreamState(phases[t.key])) for t in (hooks, orders, emitted)}
        return Batch([], states, [], 0, 0)

    monkeypatch.setattr(health.monitor, "take", take)
    monkeypatch.setattr(health.monitor, "watch", lambda targets: setattr(health.monitor, "wanted", targets))
    health.watch([HOOKS, Subject("workflow", "p_orders", "Validate orders")])
    health.take()
    health.take()
    assert not health.counted  # the $errors poll has not answered: its workflow's 0 would say healthy
    phases[orders.key] = "live"
    health.take()
    assert not health.counted  # what it brought before its answer is taken next time
    health.take()
    assert health.counted

    stuck = HealthWatch(lambda: Monitor(Client("http://127.0.0.1:9", api_key="k")), now_ms=lambda: now[0])
    phases[orders.key] = "connecting"
    monkeypatch.setattr(stuck.monitor, "take", take)
    monkeypatch.setattr(stuck.monitor, "watch", lambda targets: setattr(stuck.monitor, "wanted", targets))
    stuck.watch([HOOKS, Subject("workflow", "p_orders", "Validate orders")])
    stuck.take()
    assert not stuck.counted
    now[0] += int(COUNTED_AFTER_S * 1000)
    stuck.take()
    assert stuck.counted  # what is known is shown, whatever a feed that never answers keeps back
