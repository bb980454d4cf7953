"""Names wherever ids are taken, and `aftui get` of any id."""

from __future__ import annotations

from pathlib import Path

import httpx

from aftui.api.models import EventSummary
from aftui.emulator.server import ServerHandle
from aftui.headless.names import Candidate, match
from aftui.headless.schemas import SCHEMAS
from aftui.journal.store import Journal

from .conftest import Aftui, source_named


def test_a_source_by_name_case_or_slug(aftui: Aftui, emulator: ServerHandle) -> None:
    order = source_named(emulator, "Order webhooks")
    for text in ("Order webhooks", "order WEBHOOKS", "order_webhooks", order.id):
        done = aftui("get", text, "--json")
        assert done.code == 0, (text, done.err)
        assert done.records()[0]["id"] == order.id
        assert list(done.records()[0]) == list(SCHEMAS["source"])


def test_a_name_of_another_kind_is_said_to_be_of_that_kind(aftui: Aftui, emulator: ServerHandle) -> None:
    """`aftui errors "Order webhooks"` said only "no workflow named": it is a source."""
    order = source_named(emulator, "Order webhooks")
    done = aftui("errors", "Order webhooks")
    assert (
        done.code == 4 and f"no workflow named 'Order webhooks'; 'Order webhooks' is a source ({order.id})" in done.err
    )
    assert aftui("workflows").code == 0  # now known by name
    workflow = next(w for w in emulator.emulator.store.workflows.values() if w.name == "Flaky partner sync")
    done = aftui("events", "Flaky partner sync")
    assert done.code == 4 and f"'Flaky partner sync' is a workflow ({workflow.id})" in done.err


def test_events_take_a_name(aftui: Aftui, emulator: ServerHandle) -> None:
    order = source_named(emulator, "Order webhooks")
    done = aftui("events", "Order webhooks", "-n", "2", "--json")
    assert done.code == 0, done.err
    assert {r["metadata"]["emitter_id"] for r in done.records()} == {order.id}


def test_an_ambiguous_name_is_exit_2_with_the_candidates(
    aftui: Aftui, emulator: ServerHandle, api: httpx.Client
) -> None:
    order = source_named(emulator, "Order webhooks")
    other = source_named(emulator, "Partner ping")
    api.put(f"/sources/{other.id}", json={"name": "Order webhooks"}).raise_for_status()
    for args in (("get", "Order webhooks"), ("events", "Order webhooks"), ("tail", "Order webhooks")):
        done = aftui(*args)
        assert done.code == 2, (args, done.err)
        assert order.id in done.err and other.id in done.err and "give one of their ids" in done.err
        assert done.out == ""


def test_a_name_shared_by_a_source_and_a_webhook_is_ambiguous_to_get(
    aftui: Aftui, emulator: ServerHandle, api: httpx.Client
) -> None:
    webhook = next(w for w in emulator.emulator.store.webhooks.values() if w.name == "Relay to inbox")
    source = source_named(emulator, "Partner ping")
    api.put(f"/sources/{source.id}", json={"name": "Relay to inbox"}).raise_for_status()
    done = aftui("get", "Relay to inbox")
    assert done.code == 2
    assert webhook.id in done.err and source.id in done.err
    assert "webhook" in done.err and "source" in done.err
    assert aftui("get", webhook.id, "--json").records()[0]["name"] == "Relay to inbox"


def test_webhooks_of_one_name_are_told_apart_by_state_and_url(aftui: Aftui, emulator: ServerHandle) -> None:
    relay = next(w for w in emulator.emulator.store.webhooks.values() if w.name == "Relay to inbox")
    made = aftui("create", "webhook", "https://b.example/h2", "--name", "Relay to inbox", "--yes", "--json")
    assert made.code == 0, made.err
    done = aftui("get", "Relay to inbox")
    assert done.code == 2
    assert f"{made.records()[0]['id']}" in done.err and "(active, https://b.example/h2)" in done.err
    assert relay.id in done.err


def test_an_unknown_name_is_exit_4_with_the_nearest_names(aftui: Aftui) -> None:
    done = aftui("get", "Order")
    assert done.code == 4
    assert "no source, workflow or webhook named 'Order'" in done.err
    assert "'Order webhooks'" in done.err and "'Orders sheet'" in done.err
    assert aftui("events", "No such source").code == 4


def test_an_id_of_the_wrong_kind_is_a_usage_error(aftui: Aftui, emulator: ServerHandle) -> None:
    webhook = next(iter(emulator.emulator.store.webhooks))
    done = aftui("events", webhook)
    assert done.code == 2 and "is a webhook id; a source is expected" in done.err


def test_an_unknown_id_is_exit_4(aftui: Aftui) -> None:
    for ident in ("dc_nothere", "p_nothere", "wh_nothere", "sub_nothere", "apn_nothere"):
        done = aftui("get", ident)
        assert done.code == 4, (ident, done.err)
        assert done.out == ""


def test_a_workflow_name_from_the_journal_when_nothing_else_knows_it(
    aftui: Aftui, emulator: ServerHandle, api: httpx.Client, root: httpx.Client, data_dir: Path, info: dict
) -> None:
    workflow_id = emulator.emulator.demo.order_workflow_id
    errors = api.get(f"/workflows/{workflow_id}/$errors/event_summaries", params={"expand": "event"}).json()["data"]
    with Journal(data_dir / "journal.sqlite3") as journal:
        journal.add([EventSummary.model_validate(e) for e in errors], workflow_id)
    # Subscriptions cannot be read now: only the journal can name the workflow.
    root.post(
        "/_emulator/faults", json={"path": f"/v1/orgs/{info['org_id']}/subscriptions", "status": 503, "count": 50}
    ).raise_for_status()
    done = aftui("get", "Validate and forward orders", "--fields", "id,name", "--json")
    assert done.code == 0, done.err
    assert done.records() == [{"id": workflow_id, "name": "Validate and forward orders"}]


def test_a_workflow_name_found_through_subscriptions_is_remembered(
    aftui: Aftui, emulator: ServerHandle, data_dir: Path, info: dict
) -> None:
    done = aftui("get", "Flaky partner sync", "--fields", "id", "--json")
    assert done.code == 0, done.err
    workflow = next(w for w in emulator.emulator.store.workflows.values() if w.name == "Flaky partner sync")
    assert done.records() == [{"id": workflow.id}]
    assert workflow.id in (data_dir / "known_workflows.json").read_text()
    # Read again, it says where aftui learned of it, as `aftui workflows` does (it said "found -").
    again = aftui("get", workflow.id, "--fields", "found", "--json")
    assert again.records() == [{"found": "subscription"}]


def test_get_reads_every_kind(aftui: Aftui, emulator: ServerHandle, info: dict, api: httpx.Client) -> None:
    store = emulator.emulator.store
    source = next(s for s in store.sources.values() if s.org_id == info["org_id"])
    sub = next(iter(store.subscriptions.values()))
    account = next(a for a in store.accounts.values() if a.external_id is None and a.org_id == info["org_id"])
    connect = next(a for a in store.accounts.values() if a.external_id and a.environment == "production")
    template = next(iter(store.templates))
    cases = {
        sub.id: "subscription",
        account.id: "account",
        connect.id: "account",
        next(iter(store.webhooks)): "webhook",
        next(iter(store.apps)): "app",
        template: "workflow_template",
        info["org_id"]: "workspace",
    }
    for ident, kind in cases.items():
        done = aftui("get", ident, "--json")
        assert done.code == 0, (ident, done.err)
        assert done.records()[0]["kind"] == kind
    people = aftui("get", sub.id)
    assert f"id             {sub.id}" in people.out
    raw = aftui("get", connect.id, "--raw").records()[0]
    assert raw["external_id"] == connect.external_id and "credentials" not in raw
    sent = api.get(f"/sources/{source.id}").json()["data"]
    assert set(aftui("get", source.id, "--raw").records()[0]) == set(sent)  # what it sent, nothing added


def test_matching_rules() -> None:
    a = Candidate("source", "dc_a1234", "Orders", slug="orders")
    b = Candidate("source", "dc_b1234", "orders", slug="orders_2")
    assert match("Orders", [a, b]) == [a]  # exact first
    assert match("ORDERS", [a, b]) == [a, b]  # then regardless of case: both
    assert match("orders_2", [a, b]) == [b]
    assert match("Orders", [a, a]) == [a]  # the same thing found twice is one
