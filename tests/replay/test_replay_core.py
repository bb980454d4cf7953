"""Replay against the emulator: plans, sending, outcomes read back through the API, bulk order, the journal."""

from __future__ import annotations

import asyncio
import json

import pytest
from replay_helpers import failed_order, newest_error, order, post, post_order

from aftui.api import Client, ReadOnlyError
from aftui.api.models import EventSummary
from aftui.journal.replays import ReplayLog
from aftui.replay import (
    REPLAY_HEADER,
    Planner,
    is_safe_header,
    plan_replay,
    replay_bulk,
    replay_one,
    request_for,
)
from aftui.replay.watch import carries


async def test_plan_for_an_http_trigger_sends_the_request_with_safe_headers_only(emulator, client, demo) -> None:
    await post_order(emulator, demo.order_endpoint_key, order(1), path="/hooks/shop")
    error = await newest_error(client, demo.order_workflow_id, "ord_1")

    plan = await plan_replay(client, error, demo.order_workflow_id)

    assert plan.replayable and plan.reason is None
    assert plan.workflow_name == "Validate and forward orders"
    assert plan.trigger.startswith("HTTP trigger hi_")
    assert plan.step == "validate"
    request = plan.request
    assert request is not None
    assert request.method == "POST"
    assert request.url == f"{emulator.root_url}/e/{demo.order_endpoint_key}/hooks/shop"
    assert request.query == {"src": "shop"}
    assert request.headers["content-type"] == "application/json"
    assert request.headers["user-agent"] == "shop-backend/4.2"
    assert {"cookie", "content-length", "host", "x-shop-signature"} <= set(request.dropped)
    assert not {"cookie", "authorization", "host", "content-length", "x-shop-signature"} & set(request.headers)
    assert plan.payload == order(1)


def test_header_rules() -> None:
    for name in (
        "Authorization",
        "Cookie",
        "Host",
        "Content-Length",
        "Connection",
        "Transfer-Encoding",
        "X-Forwarded-For",
        "X-Real-IP",
        "Stripe-Signature",
        "X-Api-Key",
        "X-Auth-Token",
        "CF-Connecting-IP",
        REPLAY_HEADER,
    ):
        assert not is_safe_header(name), name
    for name in ("Content-Type", "User-Agent", "Accept", "X-GitHub-Event", "X-Request-Source"):
        assert is_safe_header(name), name


def test_a_body_only_event_is_posted_as_json() -> None:
    request = request_for({"order_id": "ord_9"}, "https://example.test/e/abc/")
    assert (request.method, request.url, request.body) == ("POST", "https://example.test/e/abc/", {"order_id": "ord_9"})
    content, headers = request.with_body({"order_id": "ord_9", "x": 1}).content()
    assert json.loads(content or b"") == {"order_id": "ord_9", "x": 1} and headers["content-type"] == "application/json"


def test_an_unedited_request_sends_the_original_bytes() -> None:
    raw = '{"b": 2,  "a": 1}'
    request = request_for(
        {
            "method": "PUT",
            "path": "/x",
            "headers": {"content-type": "application/json"},
            "body": {"a": 1, "b": 2},
            "bodyRaw": raw,
        },
        "https://e.test/e/k",
    )
    assert request.content()[0] == raw.encode()
    assert request.with_body({"a": 1}).content()[0] == b'{"a":1}'


def test_matching_an_emitted_event_to_the_payload_sent() -> None:
    sent = {"order_id": "ord_7", "customer_email": "a@b.example", "country": "de", "currency": "eur", "sku": "SKU-1"}
    transformed = {**sent, "country": "DE", "currency": "EUR", "source": "webshop"}
    assert carries(transformed, "rp_1", sent)
    assert not carries({**transformed, "order_id": "ord_8"}, "rp_1", sent)  # another order
    assert carries({"headers": {REPLAY_HEADER: "rp_1"}, "body": {}}, "rp_1", sent)
    assert not carries({"headers": {REPLAY_HEADER: "rp_2"}, "body": sent}, "rp_1", sent)


async def test_edited_replay_of_the_failing_order_succeeds_and_the_workflow_emits_it(
    emulator, client, demo, tmp_path
) -> None:
    error, plan = await failed_order(emulator, client, demo, 42)
    fixed = {**plan.payload, "customer_email": "fixed@shop.example"}

    with ReplayLog(tmp_path / "journal.sqlite3") as log:
        result = await replay_one(client, plan, body=fixed, edited=True, log=log)
        rows = log.of_event(demo.order_workflow_id, error.id or "")

    assert result.sent is not None and result.sent.status == 200
    assert result.outcome.kind == "succeeded", result.outcome.detail
    # Through the API afterwards: the workflow emitted the fixed order.
    emitted = (await client.list_workflow_events(demo.order_workflow_id, expand=True, limit=100)).items
    ours = [e for e in emitted if isinstance(e.event, dict) and e.event.get("order_id") == "ord_42"]
    assert [e.id for e in ours] == [result.outcome.event.id]  # type: ignore[union-attr]
    assert ours[0].event["customer_email"] == "fixed@shop.example" and ours[0].event["country"] == "DE"
    # Journaled with its link to the replayed event and to the outcome.
    assert len(rows) == 1
    row = rows[0]
    assert (row.emitter_id, row.event_id, row.outcome, row.status_code, row.edited) == (
        demo.order_workflow_id,
        error.id,
        "succeeded",
        200,
        True,
    )
    assert row.target_url == plan.request.full_url  # type: ignore[union-attr]
    assert (row.outcome_emitter_id, row.outcome_event_id) == (demo.order_workflow_id, result.outcome.event.id)  # type: ignore[union-attr]


async def test_a_replay_left_while_it_watches_is_recorded_unknown_then_found(emulator, client, demo, tmp_path) -> None:
    """The replay screen left (or the app quit) while the outcome was watched for: the row stayed "pending", and
    its error out of every selection for good. It is unknown, and found once looked for again."""
    import httpx

    from aftui.replay.settle import look_again, record_found

    error, plan = await failed_order(emulator, client, demo, 44)
    faults = f"{emulator.root_url}/_emulator/faults"
    errors = emulator.emulator.store.log(demo.order_workflow_id)
    before = errors.newest_first("$errors")[0].id
    async with httpx.AsyncClient() as root:  # the watch's looks fail: it goes on looking until cancelled
        await root.post(faults, json={"path": "/v1/workflows/", "method": "GET", "count": 1000, "status": 503})
        with ReplayLog(tmp_path / "journal.sqlite3") as log:
            try:
                task = asyncio.ensure_future(replay_one(client, plan, log=log, watch_timeout=60))
                for _ in range(100):  # until the request has reached the endpoint: its run failed again
                    await asyncio.sleep(0.05)
                    if errors.newest_first("$errors")[0].id != before:
                        break
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
            finally:
                await root.delete(faults)
            [row] = log.of_event(demo.order_workflow_id, error.id or "")
            assert row.outcome == "unknown" and "left before its outcome was seen" in (row.detail or "")
            found = await look_again(client, [row], {error.id or "": error})
            assert [f.outcome.kind for f in record_found(log, found)] == ["failed"]
            [row] = log.of_event(demo.order_workflow_id, error.id or "")
    assert row.outcome == "failed" and row.outcome_event_id not in (None, error.id)


async def test_a_replay_against_an_api_that_hangs_is_sent_at_once_and_unknown_in_time(
    emulator, client, demo, tmp_path
) -> None:
    """Against a service whose API hung (its endpoints answering), the replay waited minutes for the watch's first
    reads before it was sent, and its screen said "Sent" meanwhile; its looks went on past their 20 s."""
    import time

    import httpx

    error, plan = await failed_order(emulator, client, demo, 45)
    faults = f"{emulator.root_url}/_emulator/faults"
    errors = emulator.emulator.store.log(demo.order_workflow_id)
    before = errors.newest_first("$errors")[0].id
    async with httpx.AsyncClient() as root:
        await root.post(faults, json={"path": "/v1/", "count": 1000, "delay": 30})
        try:
            with ReplayLog(tmp_path / "journal.sqlite3") as log:
                started = time.monotonic()
                result = await replay_one(client, plan, log=log, watch_timeout=2)
                took = time.monotonic() - started
                [row] = log.of_event(demo.order_workflow_id, error.id or "")
        finally:
            await root.delete(faults)
    assert errors.newest_first("$errors")[0].id != before, "sent: its run failed again"
    assert result.outcome.kind == "unknown" and result.outcome.blind, result.outcome
    said = result.outcome.detail
    assert said.startswith("the workflow's errors and events could not be read for 2 s (the service did not answer)"), (
        said
    )
    assert row.outcome == "unknown" and took < 15, took


async def test_a_replay_whose_watch_callback_fails_is_journaled_unknown_not_pending(
    emulator, client, demo, tmp_path
) -> None:
    """A screen left just as its replay was taken failed in `on_watch`, and the row stayed "pending" for good:
    its error out of every selection. Sent, it may have run: unknown, and looked for again."""
    error, plan = await failed_order(emulator, client, demo, 46)

    def gone(sent: object) -> None:
        raise RuntimeError("the screen is gone")

    with ReplayLog(tmp_path / "journal.sqlite3") as log:
        with pytest.raises(RuntimeError):
            await replay_one(client, plan, log=log, on_watch=gone)
        [row] = log.of_event(demo.order_workflow_id, error.id or "")
    assert row.outcome == "unknown", row


async def test_replay_as_is_fails_again_with_the_error(emulator, client, demo, tmp_path) -> None:
    error, plan = await failed_order(emulator, client, demo, 43)

    with ReplayLog(tmp_path / "journal.sqlite3") as log:
        result = await replay_one(client, plan, log=log)
        row = log.of_event(demo.order_workflow_id, error.id or "")[0]

    assert result.outcome.kind == "failed"
    assert result.outcome.detail == "ValidationError: Missing required field: customer_email"
    new_error = result.outcome.error
    assert new_error is not None and result.outcome.event is not None and result.outcome.event.id != error.id
    headers = new_error.original_event["headers"]
    assert headers[REPLAY_HEADER] == result.replay_id
    assert "cookie" not in headers and "x-shop-signature" not in headers and headers["user-agent"] == "shop-backend/4.2"
    assert new_error.original_event["query"] == {"src": "shop"}
    assert (row.outcome, row.outcome_event_id, row.edited) == ("failed", result.outcome.event.id, False)


async def test_a_timer_run_cannot_be_replayed_and_says_why(emulator, client) -> None:
    flaky = next(w for w in emulator.emulator.store.workflows.values() if w.name == "Flaky partner sync")
    errors: list[EventSummary] = []
    for _ in range(40):  # one run in five fails; the seed makes it the same runs every time
        await post(f"{emulator.root_url}/_emulator/timers/{flaky.id}/run")
        errors = (await client.list_workflow_errors(flaky.id, expand=True)).items
        if errors:
            break
    assert errors, "the flaky workflow never failed"

    plan = await plan_replay(client, errors[0], flaky.id)

    assert not plan.replayable and plan.request is None
    assert plan.reason == "a timer started this run: the API has no way to run a workflow's timer on demand"
    result = await replay_one(client, plan)
    assert (result.outcome.kind, result.outcome.detail, result.sent) == ("skipped", plan.reason, None)


async def test_a_workflow_fed_by_an_http_source_is_replayed_to_the_source(emulator, client, demo) -> None:
    inbox = await client.get_source(demo.inbox_source_id)
    workflow = await client.create_workflow("tch_3Lm9Qa", name="Inbox orders", auto_deploy=True)
    await client.subscribe(inbox.id, workflow.id or "")
    await post(f"{inbox.endpoint_url}/orders", json=order(77))
    # The demo's audit webhook posts every error back into the inbox, which fails too: pick the order's.
    errors = (await client.list_workflow_errors(workflow.id or "", expand=True)).items
    error = next(e for e in errors if e.error().original_event["path"] == "/orders")  # type: ignore[union-attr]

    plan = await plan_replay(client, error, workflow.id)
    assert plan.trigger == f"HTTP source Webhook inbox ({inbox.id})"
    assert plan.request is not None and plan.request.url == f"{inbox.endpoint_url}/orders"

    result = await replay_one(client, plan, body={**plan.payload, "customer_email": "x@shop.example"}, edited=True)
    assert result.outcome.kind == "succeeded", result.outcome.detail


async def test_a_read_only_profile_refuses_before_sending(emulator, info, client, demo) -> None:
    error, plan = await failed_order(emulator, client, demo, 44)
    before = len((await client.list_workflow_errors(demo.order_workflow_id)).items)
    async with Client(emulator.base_url, api_key=info["api_key"], org_id=info["org_id"], read_only=True) as reader:
        with pytest.raises(ReadOnlyError):
            await replay_one(reader, plan)
        with pytest.raises(ReadOnlyError):
            await replay_bulk(reader, [error], demo.order_workflow_id)
    assert len((await client.list_workflow_errors(demo.order_workflow_id)).items) == before


async def _ten_errors(emulator, client: Client, demo) -> list[EventSummary]:
    for n in range(10):
        await post_order(emulator, demo.order_endpoint_key, order(f"bulk{n}"))
    return [await newest_error(client, demo.order_workflow_id, f"ord_bulk{n}") for n in range(10)]


async def test_bulk_replays_ten_errors_in_their_original_order(emulator, client, demo, tmp_path) -> None:
    errors = await _ten_errors(emulator, client, demo)
    shuffled = errors[5:] + errors[:5][::-1]  # selection order is not replay order
    progress: list[tuple[int, str | None]] = []

    with ReplayLog(tmp_path / "journal.sqlite3") as log:
        summary = await replay_bulk(
            client,
            shuffled,
            demo.order_workflow_id,
            log=log,
            on_progress=lambda i, s, r: progress.append((i, r.outcome.kind if r else None)),
        )
        journaled = {row.event_id: row for row in log.recent()}

    assert summary.total == 10 and not summary.stopped
    assert [r.plan.event.id for r in summary.results] == [e.id for e in errors]
    assert summary.count("failed") == 10 and summary.line() == "10 failed again"
    assert progress == [(i, kind) for i in range(10) for kind in (None, "failed")]
    # What the workflow received, in the order it received it: the new errors, oldest first.
    received = (await client.list_workflow_errors(demo.order_workflow_id, expand=True)).items
    replayed = sorted(
        (e for e in received if e.error().original_event["headers"].get(REPLAY_HEADER)), key=lambda e: e.key
    )  # type: ignore[union-attr]
    assert [e.error().original_event["body"]["order_id"] for e in replayed] == [f"ord_bulk{n}" for n in range(10)]  # type: ignore[union-attr]
    assert set(journaled) == {e.id for e in errors} and {row.outcome for row in journaled.values()} == {"failed"}


async def test_bulk_stops_on_demand(emulator, client, demo) -> None:
    errors = await _ten_errors(emulator, client, demo)
    stop = asyncio.Event()

    def progress(index: int, summary, result) -> None:
        if result is not None and index == 2:
            stop.set()

    summary = await replay_bulk(client, errors, demo.order_workflow_id, on_progress=progress, stop=stop)

    assert summary.stopped and len(summary.results) == 3 and summary.not_reached == 7
    assert summary.line() == "3 failed again · 7 not replayed (stopped)"
    received = (await client.list_workflow_errors(demo.order_workflow_id, expand=True)).items
    assert sum(1 for e in received if e.error().original_event["headers"].get(REPLAY_HEADER)) == 3  # type: ignore[union-attr]


async def test_bulk_skips_what_cannot_be_replayed_with_its_reason(emulator, client, demo) -> None:
    await post_order(emulator, demo.order_endpoint_key, order(50))
    good = await newest_error(client, demo.order_workflow_id, "ord_50")
    timer_error = good.model_copy(
        update={
            "id": "1-0",
            "event": {
                **good.event,
                "original_context": {**good.event["original_context"], "emitter_id": None, "source_type": "TIMER"},
            },
        }
    )
    planner = Planner(client)

    summary = await replay_bulk(client, [good, timer_error], demo.order_workflow_id, planner=planner)

    assert [r.outcome.kind for r in summary.results] == ["skipped", "failed"]  # "1-0" is the older id
    assert summary.results[0].outcome.detail.startswith("a timer started this run")
    assert summary.line() == "1 failed again · 1 skipped"


async def test_an_endpoint_that_refuses_is_reported_with_its_answer(emulator, client, demo) -> None:
    await post_order(emulator, demo.order_endpoint_key, order(51))
    error = await newest_error(client, demo.order_workflow_id, "ord_51")
    await client.set_workflow_active(demo.order_workflow_id, False)
    plan = await plan_replay(client, error, demo.order_workflow_id)
    assert plan.warning == "the workflow is inactive: its endpoint will refuse the request"

    result = await replay_one(client, plan)

    assert result.outcome.kind == "rejected"
    assert result.outcome.detail.startswith("the endpoint answered 409: ") and "inactive" in result.outcome.detail


async def test_cut_summaries_are_read_in_full_before_they_are_replayed(emulator, client, demo) -> None:
    await post_order(emulator, demo.order_endpoint_key, order(60, note="n" * 3000))
    cut = next(e for e in (await client.list_workflow_errors(demo.order_workflow_id)).items if e.truncated)
    assert cut.error() is None  # a prefix of the JSON text: nothing to replay from

    summary = await replay_bulk(client, [cut], demo.order_workflow_id)

    (result,) = summary.results
    assert result.plan.payload["note"] == "n" * 3000
    assert result.outcome.kind == "failed" and result.outcome.detail.endswith("customer_email")


def test_event_json_escapes_what_a_terminal_would_act_on_and_keeps_the_value() -> None:
    from aftui.text import safe_json as event_json

    value = {"name": "a\u202eb\u200bc\x85d\ud800", "ok": "üñ\n", "[b]": "[red]x[/]"}
    text = event_json(value)
    assert json.loads(text) == value
    assert "\\u202e" in text and "\\u200b" in text and "\\u0085" in text and "\\ud800" in text
    assert "üñ" in text and "[red]x[/]" in text


async def test_an_error_that_does_not_say_how_the_run_started_goes_to_the_only_http_way_in(
    emulator, client, demo
) -> None:
    from aftui.replay.plan import GUESSED

    await post_order(emulator, demo.order_endpoint_key, order(61))
    error = await newest_error(client, demo.order_workflow_id, "ord_61")
    silent = error.model_copy(
        update={"event": {**error.event, "original_context": {"workflow_id": demo.order_workflow_id}}}
    )

    plan = await plan_replay(client, silent, demo.order_workflow_id)

    assert plan.replayable and plan.warning == GUESSED
    assert plan.request is not None and plan.request.url == f"{emulator.root_url}/e/{demo.order_endpoint_key}/"
    other = await plan_replay(
        client, silent, (await client.create_workflow("tch_8Wd2Kc", name="Timers only", auto_deploy=True)).id
    )
    assert (
        not other.replayable
        and other.reason
        == "the error does not say how the run started, and no HTTP trigger or HTTP source feeds this workflow"
    )


async def test_a_workflow_the_service_fails_to_give_is_not_ready_yet_not_unreplayable(emulator, client, demo) -> None:
    """A 503 reading the workflow made "Cannot be replayed: the workflow could not be read" in an outage, read
    as final. The plan says it is transient and why; once the service answers, a new plan can send it."""
    import httpx

    await post_order(emulator, demo.order_endpoint_key, order(71), path="/hooks/shop")
    error = await newest_error(client, demo.order_workflow_id, "ord_71")
    faults = f"{emulator.root_url}/_emulator/faults"
    path = f"/v1/workflows/{demo.order_workflow_id}"
    async with httpx.AsyncClient() as admin:
        await admin.post(faults, json={"path": path, "method": "GET", "count": 20, "status": 503})
        try:
            plan = await plan_replay(client, error, demo.order_workflow_id)
        finally:
            await admin.delete(faults)
    assert not plan.replayable and plan.transient
    assert plan.reason is not None and plan.reason.startswith("the workflow could not be read (HTTP 503: ")
    again = await plan_replay(client, error, demo.order_workflow_id)
    assert again.replayable and not again.transient
    gone = await plan_replay(client, error, "p_NoSuchWorkflow")  # a 404 will not pass by itself
    assert not gone.replayable and not gone.transient and "HTTP 404" in (gone.reason or "")


async def test_a_bulk_replay_stops_once_an_outcome_cannot_be_looked_for(emulator, client, demo) -> None:
    """In an outage (the lists answering 503, the endpoint taking requests) the run went on through every
    error, each "outcome unknown" though each had run. It stops after the first it cannot see."""
    import httpx

    for n in range(3):
        await post_order(emulator, demo.order_endpoint_key, order(f"blind{n}"))
    errors = [await newest_error(client, demo.order_workflow_id, f"ord_blind{n}") for n in range(3)]
    faults = f"{emulator.root_url}/_emulator/faults"
    base = f"/v1/workflows/{demo.order_workflow_id}"
    async with httpx.AsyncClient() as admin:
        planner = Planner(client)
        for event in errors:
            await planner.plan(event, demo.order_workflow_id)  # planned before the outage: the workflow is read
        for path in (f"{base}/event_summaries", f"{base}/$errors/event_summaries"):
            await admin.post(faults, json={"path": path, "status": 503, "count": 10_000})
        try:
            summary = await replay_bulk(client, errors, None, planner=planner, watch_timeout=0.5)
        finally:
            await admin.delete(faults)
    assert [r.outcome.kind for r in summary.results] == ["unknown"]
    assert summary.results[0].outcome.blind and summary.stopped
    assert (
        summary.line()
        == "1 unknown · 2 not replayed (stopped: the service did not answer: its outcome could not be seen)"
    )
