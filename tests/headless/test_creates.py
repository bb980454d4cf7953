"""`aftui create webhook` and `aftui create subscription`, against the emulator, checked through the API."""

from __future__ import annotations

from typing import Any

import httpx

from aftui.headless.schemas import SCHEMAS

from .conftest import Aftui

PAGER = "https://pager.example/hooks/acme"
ORDERS = "Validate and forward orders"


def webhooks(api: httpx.Client) -> list[dict[str, Any]]:
    return list(api.get("/users/me/webhooks", params={"limit": 100}).json()["data"])


def subscriptions(api: httpx.Client, info: dict) -> list[dict[str, Any]]:
    return list(api.get(f"/orgs/{info['org_id']}/subscriptions", params={"limit": 100}).json()["data"])


def test_a_workflows_errors_go_to_a_new_webhook_in_two_commands(aftui: Aftui, api: httpx.Client, info: dict) -> None:
    made = aftui("create", "webhook", PAGER, "--name", "pager", "--yes", "--json")
    assert made.code == 0, made.err
    (record,) = made.records()
    assert set(record) == set(SCHEMAS["webhook"]) and (record["name"], record["url"]) == ("pager", PAGER)
    assert record["id"] in {w["id"] for w in webhooks(api)}
    # Run twice, a script made a second webhook to the same URL, which then got every event twice.
    again = aftui("create", "webhook", PAGER, "--name", "pager", "--yes")
    assert again.code == 2 and f"exists already ({record['id']})" in again.err
    assert sum(w["url"] == PAGER for w in webhooks(api)) == 1

    ends = ("--emitter", ORDERS, "--listener", "pager", "--channel", "$errors")
    asked = aftui("create", "subscription", *ends, stdin="n\n")
    assert asked.code != 0 and not any(s["listener_id"] == record["id"] for s in subscriptions(api, info))
    assert f"Subscribe pager ({record['id']}) to the $errors channel of {ORDERS} (" in asked.err
    done = aftui("create", "subscription", *ends, "--yes", "--json")
    assert done.code == 0, done.err
    (sub,) = done.records()
    assert set(sub) == set(SCHEMAS["subscription"]) and sub["listener_name"] == "pager"
    assert (sub["listener_id"], sub["event_name"]) == (record["id"], "$errors") and sub["emitter_id"].startswith("p_")
    made_subs = [s for s in subscriptions(api, info) if s["listener_id"] == record["id"]]
    assert [(s["emitter_id"], s["event_name"]) for s in made_subs] == [(sub["emitter_id"], "$errors")]
    # Asked for again, it is there: said, printed, and nothing sent (exit 0, so a script can run it twice).
    twice = aftui("create", "subscription", *ends, "--yes")
    assert twice.code == 0 and "already" in twice.err and twice.out.startswith(sub["id"] or "-")
    assert len([s for s in subscriptions(api, info) if s["listener_id"] == record["id"]]) == 1


def test_what_cannot_be_made_is_refused_before_anything_is_sent(aftui: Aftui, api: httpx.Client) -> None:
    before = webhooks(api)
    bad = aftui("create", "webhook", "ftp://files.example/x", "--yes")
    assert bad.code == 2 and "http:// or https://" in bad.err
    read_only = aftui("--read-only", "create", "webhook", PAGER, "--yes")
    assert read_only.code == 2 and "read-only" in read_only.err
    assert webhooks(api) == before
    nobody = aftui("create", "subscription", "--emitter", ORDERS, "--listener", "no such hook", "--yes")
    assert nobody.code == 4
    missing = aftui("create", "subscription", "--emitter", ORDERS, "--yes")
    assert missing.code == 2 and "--listener" in missing.err


def test_a_connect_token_for_an_end_user(aftui: Aftui, api: httpx.Client, info: dict) -> None:
    refused = aftui("create", "token", "alice", "--success-redirect", "javascript:alert(1)", "--yes")
    assert refused.code == 2 and "--success-redirect: A javascript: URI" in refused.err
    made = aftui("create", "token", "alice", "--environment", "development", "--yes", "--json")
    assert made.code == 0, made.err
    (record,) = made.records()
    assert set(record) == set(SCHEMAS["connect_token"])
    assert record["token"].startswith("ctok_") and record["token"] not in made.err  # a credential: stdout only
    assert (record["external_user_id"], record["environment"], record["project_id"]) == (
        "alice",
        "development",
        info["project_id"],
    )
    assert record["expires_at"] and "development environment" in made.err
