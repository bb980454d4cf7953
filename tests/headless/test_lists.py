"""`aftui sources|workflows|webhooks|subscriptions|accounts|end-users|components|apps` against the emulator."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from aftui.emulator.server import ServerHandle
from aftui.headless.schemas import COLUMNS, SCHEMAS

from .conftest import Aftui, source_named


def workspace_sources(emulator: ServerHandle, org_id: str) -> list:
    return [s for s in emulator.emulator.store.sources.values() if s.org_id == org_id]


def test_sources_for_people_are_a_table_of_the_workspace(aftui: Aftui, emulator: ServerHandle, info: dict) -> None:
    done = aftui("sources")
    assert done.code == 0, done.err
    lines = done.out.splitlines()
    assert lines[0].split() == [c.upper() for c in COLUMNS["source"]]
    expected = workspace_sources(emulator, info["org_id"])
    assert len(lines) == 1 + len(expected)
    row = next(line for line in lines if line.startswith(source_named(emulator, "Cache warmer").id))
    assert "Cache warmer" in row and " no " in row and "timer" in row
    assert done.err == ""


def test_sources_json_is_one_record_a_line_in_the_schema(aftui: Aftui, api: httpx.Client, info: dict) -> None:
    done = aftui("sources", "--json")
    assert done.code == 0, done.err
    records = done.records()
    assert all(list(r) == list(SCHEMAS["source"]) for r in records)
    listed = api.get(f"/orgs/{info['org_id']}/sources", params={"limit": 100}).json()["data"]
    assert [r["id"] for r in records] == [s["id"] for s in listed]
    order = next(r for r in records if r["name"] == "Order webhooks")
    assert order["kind"] == "source" and order["interface"] == "http"
    assert order["endpoint_url"].startswith("http://127.0.0.1")
    assert order["created_at"].endswith("Z") and "T" in order["created_at"]


def test_inactive_sources_as_json(aftui: Aftui, emulator: ServerHandle, info: dict) -> None:
    done = aftui("sources", "--inactive", "--json")
    assert done.code == 0, done.err
    inactive = {s.id for s in workspace_sources(emulator, info["org_id"]) if not s.active}
    assert {r["id"] for r in done.records()} == inactive and len(inactive) == 2
    assert all(r["active"] is False for r in done.records())
    active = aftui("sources", "--active", "--json").records()
    assert all(r["active"] is True for r in active) and not {r["id"] for r in active} & inactive


def test_fields_pick_columns_and_keys(aftui: Aftui) -> None:
    table = aftui("sources", "--fields", "name,id", "--limit", "3")
    assert table.out.splitlines()[0].split() == ["NAME", "ID"]
    assert len(table.out.splitlines()) == 4
    records = aftui("sources", "--fields", "name,id", "--json").records()
    assert all(list(r) == ["name", "id"] for r in records)


def test_an_unknown_field_is_a_usage_error_naming_the_fields(aftui: Aftui) -> None:
    done = aftui("webhooks", "--fields", "id,colour")
    assert done.code == 2
    assert "colour is not a field of a webhook" in done.err and "url" in done.err
    assert done.out == ""
    done = aftui("webhooks", "--fields", "colour,size")
    assert done.code == 2 and "--fields: colour, size are not fields of a webhook;" in done.err
    done = aftui("webhooks", "--fields", "")
    assert done.code == 2 and "--fields: no field named; the fields are: kind, id," in done.err


def test_workflows_are_found_and_shared_with_the_tui(
    aftui: Aftui, emulator: ServerHandle, data_dir: Path, info: dict
) -> None:
    done = aftui("workflows", "--json")
    assert done.code == 0, done.err
    records = done.records()
    assert all(list(r) == list(SCHEMAS["workflow"]) for r in records)
    by_name = {r["name"]: r for r in records}
    order_id = emulator.emulator.demo.order_workflow_id
    assert by_name["Validate and forward orders"]["id"] == order_id
    assert by_name["Validate and forward orders"]["triggers"][0]["kind"] == "http"
    assert by_name["Validate and forward orders"]["steps"] == ["validate", "transform", "emit"]
    assert by_name["Validate and forward orders"]["found"] == "subscription"
    known = json.loads((data_dir / "known_workflows.json").read_text())
    assert order_id in known[info["org_id"]]
    table = aftui("workflows", "--no-discover")
    assert "Validate and forward orders" in table.out and "http" in table.out


def test_a_workflow_added_by_id_is_listed_with_its_details(aftui: Aftui, emulator: ServerHandle) -> None:
    inactive = next(w for w in emulator.emulator.store.workflows.values() if not w.active)
    assert aftui("get", inactive.id).code == 0  # opening one remembers it, as the TUI does
    done = aftui("workflows", "--inactive", "--no-discover", "--json")
    assert [r["id"] for r in done.records()] == [inactive.id]
    assert done.records()[0]["name"] == inactive.name


def test_webhooks(aftui: Aftui, emulator: ServerHandle) -> None:
    records = aftui("webhooks", "--json").records()
    assert {r["id"] for r in records} == set(emulator.emulator.store.webhooks)
    assert all(list(r) == list(SCHEMAS["webhook"]) for r in records)
    assert "Slack #alerts" in aftui("webhooks").out


def test_subscriptions_name_their_ends_and_filter(aftui: Aftui, emulator: ServerHandle, info: dict) -> None:
    records = aftui("subscriptions", "--json").records()
    assert all(list(r) == list(SCHEMAS["subscription"]) for r in records)
    glob = next(r for r in records if r["emitter_id"] == "p_*")
    assert glob["emitter_name"] == "all workflows" and glob["listener_name"] == "Error audit"
    assert glob["event_name"] == "$errors"
    errors = aftui("subscriptions", "--channel", "$errors", "--json").records()
    assert errors and all(r["event_name"] == "$errors" for r in errors)
    order = source_named(emulator, "Order webhooks")
    by_name = aftui("subscriptions", "--emitter", "Order webhooks", "--json").records()
    assert [r["emitter_id"] for r in by_name] == [order.id]
    assert by_name[0]["event_name"] == ""  # the default channel: "" in JSON, the word people read and type
    table = aftui("subscriptions", "--emitter", "Order webhooks").out.splitlines()
    assert "  Order webhooks  default  " in table[1], table
    assert "event_name     default" in aftui("get", by_name[0]["id"]).out
    to_inbox = aftui("subscriptions", "--listener", "Relay to inbox", "--fields", "listener_name", "--json").records()
    assert to_inbox and all(r == {"listener_name": "Relay to inbox"} for r in to_inbox)


def test_accounts_filters_go_to_the_service(aftui: Aftui, api: httpx.Client) -> None:
    records = aftui("accounts", "--app", "github", "--json").records()
    expected = api.get("/accounts", params={"app": "github", "limit": 100}).json()["data"]
    assert [r["id"] for r in records] == [a["id"] for a in expected] and records
    assert all(list(r) == list(SCHEMAS["account"]) for r in records)


def test_connect_accounts_and_end_users(aftui: Aftui, emulator: ServerHandle) -> None:
    accounts = aftui("accounts", "--connect", "--json").records()
    assert accounts and all(r["external_id"] for r in accounts)
    users = aftui("end-users", "--json").records()
    assert all(list(r) == list(SCHEMAS["end_user"]) for r in users)
    assert len(users) == len({a["external_id"] for a in accounts})
    one = users[0]
    assert one["accounts"] == sum(1 for a in accounts if a["external_id"] == one["external_id"])
    development = aftui("end-users", "--environment", "development", "--json").records()
    assert development and {u["external_id"] for u in development} != {u["external_id"] for u in users}
    store = emulator.emulator.store.accounts.values()
    assert {u["external_id"] for u in development} == {a.external_id for a in store if a.environment == "development"}


def test_connect_reads_by_an_app_no_one_has_say_not_found(aftui: Aftui, emulator: ServerHandle) -> None:
    """`end-users --app githbu` said "no end users match" and exited 0 where `accounts --app githbu` exits 4:
    Connect's reads return nothing for an app that does not exist. An app that exists with no accounts is
    still an empty answer."""
    for command in (("end-users",), ("accounts", "--connect")):
        done = aftui(*command, "--app", "githbu")
        assert done.code == 4 and "app githbu not found" in done.err, (command, done.err)
    store = emulator.emulator.store
    used = {a.app_id for a in store.accounts.values()}
    unused = next(a["name_slug"] for a in store.apps.values() if a["id"] not in used)
    done = aftui("end-users", "--app", unused)
    assert done.code == 0 and "no end users match" in done.err, done.err


def test_components_search_the_registry(aftui: Aftui) -> None:
    done = aftui("components", "new github issue", "--json")
    assert done.code == 0, done.err
    records = done.records()
    assert records[0]["key"] == "github-new-issue" and records[0]["type"] == "source"
    assert "repo" in records[0]["props"]
    assert all(list(r) == list(SCHEMAS["component"]) for r in records)
    actions = aftui("components", "new github issue", "--actions", "--json").records()
    assert [r["key"] for r in actions] == ["github-create-issue"]


def test_apps_query_goes_to_the_service(aftui: Aftui) -> None:
    records = aftui("apps", "git", "--json").records()
    assert {r["name_slug"] for r in records} == {"github", "gitlab"}
    assert all(list(r) == list(SCHEMAS["app"]) for r in records)
    assert len(aftui("apps", "--limit", "5", "--json").records()) == 5


def test_what_the_service_sends_is_shown_inert(aftui: Aftui, api: httpx.Client, emulator: ServerHandle) -> None:
    order = source_named(emulator, "Order webhooks")
    api.put(f"/sources/{order.id}", json={"name": "Evil\x1b]52;c;aGk=\x07\u202ename"}).raise_for_status()
    done = aftui("sources")
    assert "\x1b" not in done.out and "\x07" not in done.out and "\u202e" not in done.out
    assert "Evil\\e]52;c;aGk=\\x07\\u202ename" in done.out
    as_json = aftui("sources", "--json")
    assert "\x1b" not in as_json.out and "\\u001b" in as_json.out


def test_a_list_piped_into_head_ends_quietly(aftui: Aftui, monkeypatch) -> None:
    import io

    class Closed:
        def write(self, text: str) -> int:
            raise BrokenPipeError

        def flush(self) -> None:
            raise BrokenPipeError

        def fileno(self) -> int:
            raise io.UnsupportedOperation("no descriptor: this process's own stdout is not to be touched")

        def isatty(self) -> bool:
            return False

    monkeypatch.setattr("sys.stdout", Closed())
    from aftui import cli

    assert cli.main(["webhooks"]) == 0
    assert cli.main(["config", "show"]) == 0  # its own runner: it was a traceback and exit 1


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (("accounts",), "account"),
        (("accounts", "--connect", "--limit", "7"), "account"),
        (("end-users",), "end_user"),
        (("components", "every interval"), "component"),
        (("apps", "slack"), "app"),
        (("webhooks",), "webhook"),
        (("subscriptions",), "subscription"),
        (("workflows",), "workflow"),
    ],
)
def test_every_list_for_people_is_the_json_as_a_table(aftui: Aftui, args: tuple[str, ...], kind: str) -> None:
    table = aftui(*args)
    assert table.code == 0, table.err
    lines = table.out.splitlines()
    assert lines[0].split() == [c.upper() for c in COLUMNS[kind]]
    records = aftui(*args, "--json").records()
    assert len(lines) == 1 + len(records) and records
    first = records[0]
    assert lines[1].startswith(str(first[COLUMNS[kind][0]]))


def test_a_team_journal_that_does_not_answer_is_the_networks_exit_code(
    aftui: Aftui, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It exited 2, "usage error", which a script does not retry."""
    monkeypatch.setenv("AFTUI_JOURNAL_URL", "postgresql://team:s3cret@127.0.0.1:1/aftui?connect_timeout=1")
    for command in (["journal", "stats", "--offline"], ["journal", "search", "order"]):
        done = aftui(*command)
        assert done.code == 5 and done.err.startswith("aftui: journal: ") and "s3cret" not in done.err, done
    health = aftui("health")  # goes on without the journal, and says so as every message of a command reads
    assert "aftui: not journaling: the journal at postgresql://team:****@127.0.0.1:1/" in health.err, health


def test_journal_search_takes_an_emitters_name_and_says_when_it_knows_none(
    aftui: Aftui, emulator: ServerHandle
) -> None:
    """A name in --emitter filtered by itself and found nothing: "no events match", exit 0."""
    workflow = emulator.emulator.demo.order_workflow_id
    assert aftui("errors", workflow, "-n", "2").code == 0  # journaled, and the workflow named
    by_name = aftui("journal", "search", "customer_email", "--emitter", "Validate and forward orders", "--json")
    assert by_name.code == 0 and by_name.records(), by_name.err
    assert {r["metadata"]["emitter_id"] for r in by_name.records()} == {workflow}
    unknown = aftui("journal", "search", "customer_email", "--emitter", "Validate orders")
    assert unknown.code == 4 and "did you mean: 'Validate and forward orders'" in unknown.err, unknown
    assert "(`aftui sources` or `aftui workflows` run once names them)" in unknown.err  # health did not
    people = aftui("journal", "search", "customer_email", "-n", "1")  # the emitter by name, as tail names it
    assert "  Validate and fo…  $errors  " in people.out and workflow not in people.out, people.out
    nothing = aftui("journal", "search", "zzzqqq")
    assert nothing.code == 0 and nothing.err.startswith("aftui: no events match"), nothing.err


def test_journal_stats_names_the_emitters(aftui: Aftui, emulator: ServerHandle, info: dict, root: httpx.Client) -> None:
    order = source_named(emulator, "Order webhooks")
    workflow = emulator.emulator.demo.order_workflow_id
    assert aftui("events", order.id, "-n", "3").code == 0
    assert aftui("errors", workflow, "-n", "2").code == 0
    offline = aftui("journal", "stats", "--offline")
    assert offline.code == 0, offline.err
    assert re.search(rf"{workflow} +\d+  Validate and forward orders", offline.out)  # from the journaled errors
    assert re.search(rf"{order.id} +3  -", offline.out)  # nothing local names it: --offline asks no one
    asked = aftui("journal", "stats", "--json").records()[0]
    assert asked["emitter_names"] == {order.id: "Order webhooks", workflow: "Validate and forward orders"}
    assert aftui("sources").code == 0  # a list names it locally from now on
    assert re.search(rf"{order.id} +3  Order webhooks", aftui("journal", "stats", "--offline").out)


def test_a_request_left_unanswered_is_said_on_stderr(
    aftui: Aftui, root: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against a service that hung, `aftui whoami` was silent for two minutes before "timed out"."""
    from aftui.headless import common

    monkeypatch.setattr(common, "SILENT_S", 0.5)
    monkeypatch.setattr(common, "_is_terminal", lambda stream: True)
    root.post("/_emulator/faults", json={"path": "/v1/users/me", "delay": 2.5, "count": 1}).raise_for_status()
    done = aftui("whoami")
    assert done.code == 0, done.err
    assert "aftui: no answer from 127.0.0.1:" in done.err and "; still waiting (ctrl+c stops)" in done.err
    quick = aftui("whoami")
    assert quick.code == 0 and "no answer" not in quick.err
    # Off a terminal (a cron job's log) too, with the way out a script has.
    monkeypatch.setattr(common, "_is_terminal", lambda stream: False)
    root.post("/_emulator/faults", json={"path": "/v1/users/me", "delay": 2.5, "count": 1}).raise_for_status()
    logged = aftui("whoami")
    assert logged.code == 0 and "; still waiting (--max-time SECONDS gives up sooner)" in logged.err
    # Said again while it waits, not once: a cron log showed one line for minutes of a hang.
    monkeypatch.setattr(common, "SAY_AGAIN_S", 1.0)
    root.post("/_emulator/faults", json={"path": "/v1/users/me", "delay": 3.5, "count": 1}).raise_for_status()
    long = aftui("whoami")
    assert long.code == 0 and long.err.count("aftui: no answer from 127.0.0.1:") >= 2, long.err


def test_max_time_bounds_a_request_and_its_retries_for_a_script(aftui: Aftui, root: httpx.Client) -> None:
    """Without it a script waited out four attempts of a service that hung (minutes, in cron or CI)."""
    root.post("/_emulator/faults", json={"path": "/v1/users/me", "delay": 3, "count": 4}).raise_for_status()
    done = aftui("--max-time", "0.5", "whoami")
    assert done.code == 5 and done.out == ""
    assert "no answer within 0.5 s, retries included" in done.err
    root.delete("/_emulator/faults").raise_for_status()
    assert aftui("--max-time", "5", "whoami").code == 0
    for bad in ("0", "-1", "soon", "nan"):
        assert aftui("--max-time", bad, "whoami").code == 2, bad


def test_max_time_met_once_fails_the_commands_later_requests_at_once(aftui: Aftui, root: httpx.Client) -> None:
    """`health --max-time 3` against a service that hung took 9 s: each of its requests waited out the bound."""
    root.post("/_emulator/faults", json={"path": "/v1/orgs", "delay": 3, "count": 8}).raise_for_status()
    try:
        done = aftui("--max-time", "0.5", "health", "--failing")
    finally:
        root.delete("/_emulator/faults").raise_for_status()
    assert done.code == 5 and done.out == ""
    assert "not sent: --max-time had run out on an earlier request (GET " in done.err
    assert "unanswered for 0.5 s)" in done.err


def test_workflows_lists_what_it_could_and_exits_with_what_failed(aftui: Aftui, root: httpx.Client) -> None:
    assert aftui("workflows").code == 0
    root.post("/_emulator/faults", json={"path": "/v1/workflows", "status": 503, "count": 1000}).raise_for_status()
    try:
        failing = aftui("workflows", "--json")
    finally:
        root.delete("/_emulator/faults").raise_for_status()
    assert failing.code == 5, failing.err  # was 0: a cron job read "no problem" from a service answering 503
    assert failing.records() and all(r["problem"] for r in failing.records())


def test_debug_logs_each_request_and_retry_without_the_key(
    aftui: Aftui, root: httpx.Client, data_dir: Path, info: dict
) -> None:
    root.post("/_emulator/faults", json={"path": "/v1/users/me/webhooks", "status": 503, "count": 1}).raise_for_status()
    try:
        assert aftui("--debug", "webhooks").code == 0
    finally:
        root.delete("/_emulator/faults").raise_for_status()
    logged = (data_dir / "aftui.log").read_text()
    assert re.search(r"GET \S+/users/me/webhooks: 503 again in [\d.]+ s", logged), logged
    assert re.search(r"GET \S+/users/me/webhooks: 200 \(attempt 2\)", logged), logged
    assert info["api_key"] not in logged


SLACK = "https://hooks.slack.example/services/T04B1N2KX/B06QJ7R2M1L/9fQk2LxVb7TzR1mWc3YhN8sD"  # the demo's


def test_webhook_urls_are_masked_unless_secrets_are_asked_for(aftui: Aftui) -> None:
    """A Slack URL is its own credential: a table pasted into a ticket, or a log of --json, must not carry it."""
    masked = "https://hooks.slack.example/services/T04B1N2KX/B06QJ7R2M1L/9fQk…sD"
    table = aftui("webhooks")
    assert table.code == 0, table.err
    assert "hooks.slack.example/services/" in table.out and "9fQk2Lx" not in table.out
    records = aftui("webhooks", "--json").records()
    slack = next(r for r in records if r["name"] == "Slack #alerts")
    assert slack["url"] == masked
    for asked in (aftui("get", slack["id"], "--json"), aftui("get", slack["id"], "--raw")):
        assert asked.code == 0, asked.err
        assert "9fQk2Lx" not in asked.out and json.loads(asked.out)["url"] == masked
    whole = aftui("webhooks", "--json", "--show-secrets").records()
    assert next(r for r in whole if r["name"] == "Slack #alerts")["url"] == SLACK
    assert json.loads(aftui("get", "Slack #alerts", "--raw", "--show-secrets").out)["url"] == SLACK
