"""deploy, update, activate, deactivate and delete from the command line, each checked through the API."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from aftui.emulator.server import ServerHandle
from aftui.headless.schemas import SCHEMAS

from .conftest import Aftui, source_named

# A component with a prop of each kind a form types: what --prop values are checked against.
COMPONENT = """
export default {
  key: "aftui-test-typed",
  name: "Typed props",
  version: "0.1.0",
  type: "source",
  props: {
    timer: { type: "$.interface.timer", default: { intervalSeconds: 3600 } },
    count: { type: "integer", label: "Count", min: 1, max: 10 },
    enabled: { type: "boolean", optional: true },
    tags: { type: "string[]", optional: true },
    mode: { type: "string", options: ["fast", "slow"], optional: true },
    config: { type: "object", optional: true },
    token: { type: "string", secret: true, optional: true },
  },
  async run(event) {
    this.$emit(event, { summary: "tick" });
  },
};
"""


def sources_of(api: httpx.Client, org_id: str) -> dict[str, dict[str, Any]]:
    answer = api.get(f"/orgs/{org_id}/sources", params={"limit": 100})
    return {s["id"]: s for s in answer.json()["data"]}


@pytest.fixture
def component_file(tmp_path: Path) -> Path:
    path = tmp_path / "typed.mjs"
    path.write_text(COMPONENT)
    return path


# --- deploy ------------------------------------------------------------------------------------------------


def test_deploy_a_registry_key_with_a_timer_and_a_name(aftui: Aftui, api: httpx.Client, info: dict) -> None:
    done = aftui(
        "deploy", "schedule-every-interval", "--prop", "timer=15m", "--name", "Quarter hour", "--yes", "--json"
    )
    assert done.code == 0, done.err
    [record] = done.records()
    assert list(record) == list(SCHEMAS["source"])
    source = api.get(f"/sources/{record['id']}").json()["data"]
    assert source["name"] == "Quarter hour" and source["active"] is True
    assert source["configured_props"]["timer"]["interval_seconds"] == 900
    assert "deployed source Quarter hour" in done.err
    # The same deploy again (a script run twice): refused, not a second "Quarter hour" that makes the name
    # ambiguous for every later command; asked for, another.
    again = ("deploy", "schedule-every-interval", "--prop", "timer=15m", "--name", "Quarter hour", "--yes")
    refused = aftui(*again)
    assert refused.code == 2 and f"a source named 'Quarter hour' exists already ({record['id']})" in refused.err
    # Names are looked up regardless of case: "quarter hour" beside it made "QUARTER HOUR" ambiguous.
    other_case = aftui("deploy", "schedule-every-interval", "--prop", "timer=15m", "--name", "quarter HOUR", "--yes")
    assert other_case.code == 2 and f"a source named 'Quarter hour' exists already ({record['id']})" in other_case.err
    assert aftui(*again, "--allow-duplicate").code == 0
    assert [r["name"] for r in aftui("sources", "--json").records()].count("Quarter hour") == 2


def test_deploy_a_file_types_every_prop(aftui: Aftui, api: httpx.Client, component_file: Path) -> None:
    done = aftui(
        "deploy",
        str(component_file),
        "--prop", "timer=0 9 * * 1-5",
        "--prop", "count=3",
        "--prop", "enabled=yes",
        "--prop", "tags=a",
        "--prop", "tags=b",
        "--prop", "mode=slow",
        "--prop", 'config={"k": [1, 2]}',
        "--prop", "token=s3cret",
        "--yes",
        "--json",
    )  # fmt: skip
    assert done.code == 0, done.err
    props = api.get(f"/sources/{done.records()[0]['id']}").json()["data"]["configured_props"]
    assert props["timer"]["cron"] == "0 9 * * 1-5"
    assert (props["count"], props["enabled"], props["tags"], props["mode"]) == (3, True, ["a", "b"], "slow")
    assert props["config"] == {"k": [1, 2]}


def test_deploy_from_a_url(aftui: Aftui, api: httpx.Client) -> None:
    url = "https://components.example/sources/schedule-every-interval.mjs"
    done = aftui("deploy", url, "--prop", "timer=2h", "--yes", "--json")
    assert done.code == 0, done.err
    props = api.get(f"/sources/{done.records()[0]['id']}").json()["data"]["configured_props"]
    assert props["timer"]["interval_seconds"] == 7200


@pytest.mark.parametrize(
    ("props", "words"),
    [
        (("count=eleven",), "--prop count: must be a whole number"),
        (("count=11",), "--prop count: must be at most 10"),
        (("count=2", "enabled=maybe"), "--prop enabled: must be true or false"),
        (("count=2", "mode=medium"), "--prop mode: must be one of: fast, slow"),
        (("count=2", "config=[1]"), "--prop config: must be a JSON object"),
        (("count=2", "timer=every now and then"), "--prop timer: give seconds"),
        (("count=2", "colour=red"), "--prop colour: the component has no such prop; its props are: timer, count"),
        (("enabled=true",), "--prop count: required by the component, and not given"),
        (("count",), "write --prop name=value"),
    ],
)
def test_a_bad_prop_value_is_refused_and_nothing_is_deployed(
    aftui: Aftui, api: httpx.Client, info: dict, component_file: Path, props: tuple[str, ...], words: str
) -> None:
    before = sources_of(api, info["org_id"])
    args = [arg for prop in props for arg in ("--prop", prop)]
    done = aftui("deploy", str(component_file), *args, "--yes")
    assert done.code == 2, done.err
    assert words in done.err and done.out == ""
    assert sources_of(api, info["org_id"]) == before


def test_an_unreadable_file_or_unknown_key_changes_nothing(
    aftui: Aftui, api: httpx.Client, info: dict, emulator: ServerHandle, tmp_path: Path
) -> None:
    before, components = sources_of(api, info["org_id"]), len(emulator.emulator.store.components)
    missing = aftui("deploy", str(tmp_path / "nope.mjs"), "--yes")
    assert missing.code == 2 and f"cannot read the component file {tmp_path / 'nope.mjs'}" in missing.err
    folder = aftui("deploy", f"{tmp_path}/", "--yes")
    assert folder.code == 2 and "cannot read the component file" in folder.err
    binary = tmp_path / "binary.mjs"
    binary.write_bytes(b"\xff\xfe\x00export")
    assert "is not UTF-8 text" in aftui("deploy", str(binary), "--yes").err
    unknown = aftui("deploy", "no-such-component-key", "--yes")
    assert unknown.code == 4 and "no component no-such-component-key" in unknown.err
    assert sources_of(api, info["org_id"]) == before
    assert len(emulator.emulator.store.components) == components


def test_deploy_asks_on_a_terminal_and_a_script_must_say_yes(aftui: Aftui, api: httpx.Client, info: dict) -> None:
    before = sources_of(api, info["org_id"])
    script = aftui("deploy", "schedule-every-interval", "--prop", "timer=15m")
    assert script.code == 2 and "add --yes" in script.err
    declined = aftui("deploy", "schedule-every-interval", "--prop", "timer=15m", stdin="no\n")
    assert declined.code == 2 and "Deploy a source from the registry's schedule-every-interval" in declined.err
    assert sources_of(api, info["org_id"]) == before
    accepted = aftui("deploy", "schedule-every-interval", "--prop", "timer=15m", stdin="y\n")
    assert accepted.code == 0, accepted.err
    assert len(sources_of(api, info["org_id"])) == len(before) + 1


def test_secrets_are_masked_in_the_question(aftui: Aftui, component_file: Path) -> None:
    done = aftui("deploy", str(component_file), "--prop", "count=1", "--prop", "token=s3cret", stdin="n\n")
    assert "token=••••" in done.err and "s3cret" not in done.err


def test_read_only_refuses_every_change_before_anything_is_sent(
    aftui: Aftui, api: httpx.Client, info: dict, emulator: ServerHandle, component_file: Path
) -> None:
    before, components = sources_of(api, info["org_id"]), len(emulator.emulator.store.components)
    webhooks, subs = set(emulator.emulator.store.webhooks), set(emulator.emulator.store.subscriptions)
    order = source_named(emulator, "Order webhooks")
    for args in (
        ("deploy", str(component_file), "--prop", "count=1"),
        ("update", "Order webhooks", "--name", "x"),
        ("deactivate", "Order webhooks"),
        ("activate", "Cache warmer"),
        ("delete", "source", "Order webhooks"),
        ("delete", "webhook", "Slack #alerts"),
        ("delete", "subscription", next(iter(subs))),
        ("delete", "events", "Order webhooks", "--all"),
        ("delete", "end-user", "ada.0@customers.example"),
    ):
        done = aftui("--read-only", *args, "--yes")
        assert done.code == 2, (args, done.err)
        assert "read-only" in done.err and done.out == "", args
    assert sources_of(api, info["org_id"]) == before
    assert len(emulator.emulator.store.components) == components
    assert set(emulator.emulator.store.webhooks) == webhooks and set(emulator.emulator.store.subscriptions) == subs
    assert len(api.get(f"/sources/{order.id}/event_summaries", params={"limit": 100}).json()["data"]) > 0


# --- update ------------------------------------------------------------------------------------------------


def test_update_renames_and_changes_one_prop_keeping_the_others(
    aftui: Aftui, api: httpx.Client, component_file: Path
) -> None:
    deployed = aftui("deploy", str(component_file), "--prop", "count=2", "--prop", "mode=fast", "--yes", "--json")
    source_id = deployed.records()[0]["id"]
    done = aftui("update", source_id, "--prop", "count=5", "--name", "Renamed", "--yes", "--json")
    assert done.code == 0, done.err
    source = api.get(f"/sources/{source_id}").json()["data"]
    assert source["name"] == "Renamed"
    assert source["configured_props"]["count"] == 5 and source["configured_props"]["mode"] == "fast"
    assert source["configured_props"]["timer"]["interval_seconds"] == 3600
    assert done.records()[0]["name"] == "Renamed"


def test_update_by_name_with_a_bad_value_changes_nothing(
    aftui: Aftui, api: httpx.Client, emulator: ServerHandle
) -> None:
    heartbeat = source_named(emulator, "Heartbeat every 5 minutes")
    before = api.get(f"/sources/{heartbeat.id}").json()["data"]
    done = aftui("update", "Heartbeat every 5 minutes", "--prop", "timer=never", "--name", "x", "--yes")
    assert done.code == 2 and "--prop timer" in done.err
    assert api.get(f"/sources/{heartbeat.id}").json()["data"] == before
    good = aftui("update", "Heartbeat every 5 minutes", "--prop", "timer=10m", "--yes")
    assert good.code == 0, good.err
    after = api.get(f"/sources/{heartbeat.id}").json()["data"]
    assert after["configured_props"]["timer"]["interval_seconds"] == 600 and after["name"] == before["name"]


def test_update_of_an_unknown_source_is_exit_4(aftui: Aftui) -> None:
    assert aftui("update", "dc_nothere1", "--name", "x", "--yes").code == 4
    assert aftui("update", "Nothing named so", "--name", "x", "--yes").code == 4
    assert aftui("update", "Order webhooks", "--yes").code == 2  # nothing to change


# --- activate and deactivate ------------------------------------------------------------------------------


def test_deactivate_and_activate_sources_and_workflows_by_name(
    aftui: Aftui, api: httpx.Client, emulator: ServerHandle
) -> None:
    order = source_named(emulator, "Order webhooks")
    workflow_id = emulator.emulator.demo.order_workflow_id
    done = aftui("deactivate", "Order webhooks", "Validate and forward orders", "--yes")
    assert done.code == 0, done.err
    assert api.get(f"/sources/{order.id}").json()["data"]["active"] is False
    assert api.get(f"/workflows/{workflow_id}").json()["active"] is False
    assert f"{order.id}  source    inactive  Order webhooks" in done.out
    back = aftui("activate", order.id, workflow_id, "--yes", "--json")
    assert back.code == 0, back.err
    assert [r["active"] for r in back.records()] == [True, True]
    assert api.get(f"/sources/{order.id}").json()["data"]["active"] is True
    assert api.get(f"/workflows/{workflow_id}").json()["active"] is True
    assert "2 activated" in back.err
    # One already so is said so, and asks nothing: "1 activated" of an active workflow was a wrong count.
    again = aftui("activate", workflow_id)
    assert again.code == 0 and "0 activated, 1 already active" in again.err, again


def test_deactivate_asks_and_an_ambiguous_name_changes_nothing(
    aftui: Aftui, api: httpx.Client, emulator: ServerHandle
) -> None:
    order = source_named(emulator, "Order webhooks")
    declined = aftui("deactivate", "Order webhooks", stdin="\n")
    assert declined.code == 2 and "nothing is deleted" in declined.err
    assert api.get(f"/sources/{order.id}").json()["data"]["active"] is True
    other = source_named(emulator, "Partner ping")
    api.put(f"/sources/{other.id}", json={"name": "Order webhooks"}).raise_for_status()
    ambiguous = aftui("deactivate", "Order webhooks", "--yes")
    assert ambiguous.code == 2 and order.id in ambiguous.err and other.id in ambiguous.err
    assert api.get(f"/sources/{order.id}").json()["data"]["active"] is True
    assert api.get(f"/sources/{other.id}").json()["data"]["active"] is True


# --- delete ---------------------------------------------------------------------------------------------------


def test_delete_a_source_by_name(aftui: Aftui, api: httpx.Client, emulator: ServerHandle) -> None:
    partner = source_named(emulator, "Partner ping")
    done = aftui("delete", "source", "Partner ping", "--yes")
    assert done.code == 0, done.err
    assert api.get(f"/sources/{partner.id}").status_code == 404
    assert aftui("delete", "source", partner.id, "--yes").code == 4


def test_a_dry_run_of_a_delete_prints_what_would_go_and_deletes_nothing(
    aftui: Aftui, api: httpx.Client, emulator: ServerHandle
) -> None:
    partner = source_named(emulator, "Partner ping")
    would = f"would: Delete source Partner ping ({partner.id}): its events and subscriptions go with it."
    for args in (
        ("delete", "source", "Partner ping", "--dry-run"),
        ("delete", "source", "Partner ping", "--dry-run", "--yes"),  # --yes does not turn it into a delete
        ("--read-only", "delete", "source", "Partner ping", "--dry-run"),  # it sends nothing: allowed
    ):
        done = aftui(*args)
        assert done.code == 0, (args, done.err)
        assert done.out.startswith(would) and "dry run: nothing was changed" in done.err
    assert api.get(f"/sources/{partner.id}").status_code == 200
    assert aftui("--read-only", "delete", "source", "Partner ping", "--yes").code == 2


def test_deleting_a_source_that_triggers_a_workflow_says_so_first(aftui: Aftui, emulator: ServerHandle) -> None:
    store = emulator.emulator.store
    workflow = next(w for w in store.workflows.values() if any(t.kind == "source" for t in w.triggers))
    trigger = next(t.source_id for t in workflow.triggers if t.kind == "source")
    assert aftui("workflows").code == 0  # found in the subscriptions: known from now on
    asked = aftui("delete", "source", trigger, stdin="n\n")
    assert asked.code != 0
    assert f"It triggers the workflow {workflow.name} ({workflow.id}), which loses that trigger." in asked.err


def test_delete_a_webhook(aftui: Aftui, api: httpx.Client, emulator: ServerHandle) -> None:
    slack = next(w for w in emulator.emulator.store.webhooks.values() if w.name == "Slack #alerts")
    done = aftui("delete", "webhook", "Slack #alerts", "--yes")
    assert done.code == 0, done.err
    listed = api.get("/users/me/webhooks", params={"limit": 100}).json()["data"]
    assert slack.id not in {w["id"] for w in listed}
    assert aftui("delete", "webhook", slack.id, "--yes").code == 4


def test_delete_subscriptions_by_id_and_by_their_ends(aftui: Aftui, api: httpx.Client, info: dict) -> None:
    def subs() -> list[dict[str, Any]]:
        return list(api.get(f"/orgs/{info['org_id']}/subscriptions", params={"limit": 100}).json()["data"])

    first = subs()[0]
    dry = aftui("delete", "subscription", first["id"], "--dry-run")
    # By id, its ends are named too: it said "of p_omKpW4V to the default channel of dc_iBwUbtU".
    assert dry.code == 0 and f"({first['listener_id']})" in dry.out and f"({first['emitter_id']})" in dry.out, dry
    assert f"of {first['listener_id']} " not in dry.out
    assert aftui("delete", "subscription", first["id"], "--yes").code == 0
    assert first["id"] not in {s["id"] for s in subs()}
    order_sub = next(s for s in subs() if s["listener_id"].startswith("p_") and s["event_name"] == "")
    ends = ("--emitter", "Order webhooks", "--listener", "Acknowledge and relay webhooks")
    asked = aftui("delete", "subscription", *ends, stdin="n\n")
    assert asked.code != 0 and order_sub["id"] in {s["id"] for s in subs()}
    assert (
        f"Delete the subscription of Acknowledge and relay webhooks ({order_sub['listener_id']}) to the default "
        f"channel of Order webhooks ({order_sub['emitter_id']})?" in asked.err
    ), "named as the user named them"
    done = aftui("delete", "subscription", *ends, "--yes")
    assert done.code == 0, done.err
    assert done.out.startswith(f"{order_sub['id']}  deleted  "), done.out  # its id, though named by its ends
    assert order_sub["id"] not in {s["id"] for s in subs()}
    assert aftui("delete", "subscription", "sub_nothere1", "--yes").code == 4


def test_delete_a_range_of_events_and_watch_them_go(aftui: Aftui, api: httpx.Client, emulator: ServerHandle) -> None:
    order = source_named(emulator, "Order webhooks")

    def ids() -> list[str]:
        events = api.get(f"/sources/{order.id}/event_summaries", params={"limit": 100}).json()["data"]
        return sorted((e["id"] for e in events), key=lambda i: tuple(map(int, i.split("-"))))

    kept = ids()
    start, end = kept[1], kept[3]
    done = aftui("delete", "events", "Order webhooks", "--from", start, "--to", end, "--yes")
    assert done.code == 0, done.err
    assert "3 event(s)  deleted" in done.out
    assert ids() == [kept[0], *kept[4:]]
    one = aftui("delete", "events", order.id, "--id", kept[0], "--yes")
    assert one.code == 0 and ids() == kept[4:]
    typo = aftui("delete", "events", order.id, "--id", "999-0", "--yes")
    assert typo.code == 4 and f"no event 999-0 among the {len(kept) - 4} source {order.id} keeps" in typo.err
    assert aftui("delete", "events", order.id, "--yes").code == 2  # which events?
    assert ids() == kept[4:]


def test_delete_connect_accounts_and_end_users(
    aftui: Aftui, api: httpx.Client, emulator: ServerHandle, info: dict
) -> None:
    project = info["project_id"]
    accounts = api.get(f"/connect/{project}/accounts", params={"limit": 100}).json()["data"]["accounts"]
    account = accounts[0]
    done = aftui("delete", "account", account["id"], "--yes")
    assert done.code == 0, done.err
    assert api.get(f"/connect/{project}/accounts/{account['id']}").status_code == 404
    user = next(a["external_id"] for a in accounts[1:] if a["external_id"] != account["external_id"])
    done = aftui("delete", "end-user", user, "--yes")
    assert done.code == 0, done.err
    left = api.get(f"/connect/{project}/accounts", params={"external_user_id": user}).json()["data"]["accounts"]
    assert left == []
    assert aftui("delete", "account", "not-an-id", "--yes").code == 2
    # A dry run says what it can know: an app that does not exist is not found (as the real run says), and an
    # end user without an account is said to be one the service cannot tell exists.
    typo = aftui("delete", "app-accounts", "githbu", "--dry-run")
    assert typo.code == 4, (typo.out, typo.err)
    nobody = aftui("delete", "end-user", "nobody@example.test", "--dry-run")
    assert nobody.code == 0 and "no read to tell whether this end user exists" in nobody.out


def test_an_app_prop_takes_an_account_by_name(aftui: Aftui, api: httpx.Client, info: dict) -> None:
    done = aftui(
        "deploy", "github-new-issue", "--prop", "github=acme-bot", "--prop", "repo=acme/api", "--yes", "--json"
    )
    assert done.code == 0, done.err
    props = api.get(f"/sources/{done.records()[0]['id']}").json()["data"]["configured_props"]
    bot = next(a for a in api.get("/accounts", params={"app": "github"}).json()["data"] if a["name"] == "acme-bot")
    assert props["github"] == {"authProvisionId": bot["id"]}
    before = sources_of(api, info["org_id"])
    unknown = aftui("deploy", "github-new-issue", "--prop", "github=nobody", "--prop", "repo=acme/api", "--yes")
    assert unknown.code == 4 and "no account named 'nobody' of github" in unknown.err
    assert sources_of(api, info["org_id"]) == before
