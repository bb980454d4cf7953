"""Sources over HTTP: deploy, configured_props checks, hooks, update, delete and lists."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from aftui.emulator.server import ServerHandle

HOOKED = """export default {
  name: "Hooked Source",
  version: "0.0.1",
  type: "source",
  props: {
    label: { type: "string", optional: true },
  },
  hooks: {
    async deploy() { console.log("deploy"); },
    async activate() { console.log("activate"); },
    async deactivate() { console.log("deactivate"); },
  },
  async run() { this.$emit({ label: this.label }); },
};
"""

ONLY_DEACTIVATE = """export default {
  name: "Old Code",
  version: "0.0.1",
  props: { label: { type: "string", optional: true } },
  hooks: { async deactivate() { console.log("old code stops"); } },
  async run() {},
};
"""

ONLY_ACTIVATE = """export default {
  name: "New Code",
  version: "0.0.2",
  props: { label: { type: "string", optional: true } },
  hooks: { async activate() { console.log("new code starts"); } },
  async run() {},
};
"""

CHECKED = """export default {
  name: "Checked Source",
  version: "0.0.1",
  props: {
    title: { type: "string", label: "Title" },
    count: { type: "integer", min: 1, max: 10, optional: true },
    note: { type: "string", optional: true },
  },
  async run() {},
};
"""

PLAIN = """export default {
  name: "Plain Code Source",
  version: "0.0.1",
  props: {},
  async run() { this.$emit({ ok: true }); },
};
"""

REGISTRY_URL = "https://github.example.com/PipedreamHQ/pipedream/blob/master/components/http/sources/new-requests/http-new-requests.mjs"


def deploy(api: httpx.Client, **body: object) -> dict:
    response = api.post("/sources", json=body)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def refused(api: httpx.Client, **body: object) -> dict:
    response = api.post("/sources", json=body)
    assert response.status_code == 400, response.text
    return response.json()


def hook_log(api: httpx.Client, source_id: str) -> list[str]:
    """The hooks that ran, oldest first, read from the source's `$logs`."""
    response = api.get(f"/sources/{source_id}/event_summaries", params={"channel": "$logs", "limit": 100})
    assert response.status_code == 200, response.text
    return [e["event"]["hook"] for e in reversed(response.json()["data"]) if "hook" in e["event"]]


def account_of(api: httpx.Client, app: str) -> str:
    response = api.get("/accounts", params={"app": app, "limit": 1})
    assert response.status_code == 200, response.text
    return response.json()["data"][0]["id"]


def registry_id(api: httpx.Client, key: str) -> str:
    return api.get(f"/components/registry/{key}").json()["data"]["id"]


# --- deploy: where the code comes from -------------------------------------------------------


def test_deploy_from_registry_key(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests")
    assert source["component_id"] == registry_id(api, "http-new-requests")


def test_deploy_from_saved_component_id(api: httpx.Client) -> None:
    saved = api.post("/components", json={"component_code": PLAIN}).json()["data"]
    assert saved["id"].startswith("sc_")
    source = deploy(api, component_id=saved["id"])
    assert source["component_id"] == saved["id"]


def test_deploy_from_component_code(api: httpx.Client) -> None:
    source = deploy(api, component_code=PLAIN)
    component = api.get(f"/components/{source['component_id']}").json()["data"]
    assert source["component_id"].startswith("sc_")
    assert component["code"] == PLAIN
    assert component["name"] == "Plain Code Source"


@pytest.fixture
def code_server() -> Iterator[str]:
    """A loopback HTTP server that serves PLAIN as a component file."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = PLAIN.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/components/plain-source.mjs"
    server.shutdown()
    server.server_close()


def test_deploy_from_component_url_fetches_the_code(api: httpx.Client, code_server: str) -> None:
    source = deploy(api, component_url=code_server)
    component = api.get(f"/components/{source['component_id']}").json()["data"]
    assert component["code"] == PLAIN
    assert component["component_url"] == code_server


def test_deploy_from_a_registry_file_url(api: httpx.Client) -> None:
    source = deploy(api, component_url=REGISTRY_URL)
    component = api.get(f"/components/{source['component_id']}").json()["data"]
    assert component["key"] == "http-new-requests"
    assert component["component_url"] == REGISTRY_URL


def test_component_id_wins_over_code_and_url(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests", component_code=PLAIN, component_url=REGISTRY_URL)
    assert source["component_id"] == registry_id(api, "http-new-requests")


def test_component_code_wins_over_url_which_is_kept_as_metadata(api: httpx.Client) -> None:
    source = deploy(api, component_code=PLAIN, component_url=REGISTRY_URL)
    component = api.get(f"/components/{source['component_id']}").json()["data"]
    assert component["code"] == PLAIN
    assert component["component_url"] == REGISTRY_URL


def test_deploy_from_a_registry_key_in_the_body(api: httpx.Client) -> None:
    source = deploy(api, key="http-new-requests")
    assert source["component_id"] == registry_id(api, "http-new-requests")


def test_deploying_an_action_is_400(api: httpx.Client) -> None:
    body = refused(api, component_id="slack-send-message")
    assert "action" in body["error"]


def test_deploy_without_any_component_is_400(api: httpx.Client) -> None:
    body = refused(api, name="nothing to deploy")
    assert "component_id" in body["error"]


def test_deploy_with_unknown_component_id_is_404(api: httpx.Client) -> None:
    assert api.post("/sources", json={"component_id": "sc_doesNotExist"}).status_code == 404


def test_deploy_needs_a_user_api_key(oauth: httpx.Client) -> None:
    assert oauth.post("/sources", json={"component_id": "http-new-requests"}).status_code == 403


# --- deploy: the record ------------------------------------------------------------------------


def test_name_defaults_to_the_component_name_slug(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests")  # name "New Requests"
    assert source["name"] == "new_requests"


def test_name_slug_is_unique_in_a_workspace(api: httpx.Client) -> None:
    first = deploy(api, component_id="http-new-requests", name="Orders In")
    second = deploy(api, component_id="http-new-requests", name="Orders In")
    assert first["name"] == second["name"] == "Orders In"
    assert first["name_slug"] == "orders_in"
    assert second["name_slug"] != first["name_slug"]


def test_same_name_in_another_workspace_keeps_its_slug(api: httpx.Client, info: dict) -> None:
    orgs = [o["id"] for o in api.get("/users/me").json()["data"]["orgs"]]
    a = deploy(api, component_id="http-new-requests", name="Twin Source", org_id=orgs[0])
    b = deploy(api, component_id="http-new-requests", name="Twin Source", org_id=orgs[1])
    assert a["name_slug"] == b["name_slug"] == "twin_source"


def test_source_id_has_dc_prefix_and_epoch_second_timestamps(api: httpx.Client, root: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests")
    now_s = root.get("/_emulator/clock").json()["now_ms"] // 1000
    assert source["id"].startswith("dc_")
    for field in ("created_at", "updated_at"):
        assert type(source[field]) is int
        assert source[field] == now_s
    assert source["active"] is True
    assert source["user_id"].startswith("u_")


def test_http_source_gets_an_endpoint_url_under_root_e(api: httpx.Client, info: dict) -> None:
    source = deploy(api, component_id="http-new-requests")
    url = source["configured_props"]["http"]["endpoint_url"]
    assert url.startswith(f"{info['root_url']}/e/")
    assert len(url) > len(f"{info['root_url']}/e/")


# --- configured_props ----------------------------------------------------------------------------


def test_missing_required_prop_is_400_naming_it(api: httpx.Client) -> None:
    body = refused(api, component_code=CHECKED, configured_props={})
    assert "title" in body["error"]
    assert body["details"]["param"] == "configured_props.title"


def test_wrong_prop_type_is_400_naming_it(api: httpx.Client) -> None:
    body = refused(api, component_code=CHECKED, configured_props={"title": "t", "count": "3"})
    assert "count" in body["error"]
    assert body["details"]["param"] == "configured_props.count"


@pytest.mark.parametrize("count", [0, 11])
def test_integer_outside_min_max_is_400(api: httpx.Client, count: int) -> None:
    body = refused(api, component_code=CHECKED, configured_props={"title": "t", "count": count})
    assert "count" in body["error"]


@pytest.mark.parametrize("count", [1, 10])
def test_integer_at_min_and_max_is_accepted(api: httpx.Client, count: int) -> None:
    source = deploy(api, component_code=CHECKED, configured_props={"title": "t", "count": count})
    assert source["configured_props"]["count"] == count


def test_registry_integer_min_max_applies(api: httpx.Client) -> None:
    body = refused(api, component_id="http-custom-response", configured_props={"status": 600})
    assert "status" in body["error"]


def test_string_over_64_kb_is_400(api: httpx.Client) -> None:
    body = refused(api, component_code=CHECKED, configured_props={"title": "t", "note": "x" * (64 * 1024 + 1)})
    assert "note" in body["error"]
    assert "64 KB" in body["error"]


def test_string_of_exactly_64_kb_is_accepted(api: httpx.Client) -> None:
    deploy(api, component_code=CHECKED, configured_props={"title": "t", "note": "x" * (64 * 1024)})


def test_expression_is_not_bound_by_64_kb(api: httpx.Client) -> None:
    expression = "{{ '" + "x" * (70 * 1024) + "' }}"
    source = deploy(api, component_code=CHECKED, configured_props={"title": "t", "note": expression})
    assert source["configured_props"]["note"] == expression


def test_unknown_prop_is_400_naming_it(api: httpx.Client) -> None:
    body = refused(api, component_code=CHECKED, configured_props={"title": "t", "colour": "red"})
    assert "colour" in body["error"]


def test_app_prop_with_account_of_another_app_is_400(api: httpx.Client) -> None:
    slack = account_of(api, "slack")
    body = refused(
        api,
        component_id="github-new-issue",
        configured_props={"github": {"authProvisionId": slack}, "repo": "acme/api"},
    )
    assert "github" in body["error"]


def test_app_prop_with_unknown_account_is_400(api: httpx.Client) -> None:
    body = refused(
        api,
        component_id="github-new-issue",
        configured_props={"github": {"authProvisionId": "apn_nope000"}, "repo": "acme/api"},
    )
    assert "apn_nope000" in body["error"]


def test_app_prop_with_account_of_the_right_app_is_accepted(api: httpx.Client) -> None:
    github = account_of(api, "github")
    source = deploy(
        api,
        component_id="github-new-issue",
        configured_props={"github": {"authProvisionId": github}, "repo": "acme/api"},
    )
    assert source["configured_props"]["github"] == {"authProvisionId": github}


def test_timer_given_as_interval_seconds_comes_back_normalized(api: httpx.Client) -> None:
    source = deploy(api, component_id="schedule-every-interval", configured_props={"timer": {"intervalSeconds": 60}})
    assert source["configured_props"]["timer"] == {"cron": None, "interval_seconds": 60}


def test_timer_given_as_cron_comes_back_normalized(api: httpx.Client) -> None:
    source = deploy(api, component_id="schedule-cron-expression", configured_props={"timer": {"cron": "*/5 * * * *"}})
    assert source["configured_props"]["timer"] == {"cron": "*/5 * * * *", "interval_seconds": None}


def test_timer_default_is_used_when_not_given(api: httpx.Client) -> None:
    source = deploy(api, component_id="schedule-every-interval")
    assert source["configured_props"]["timer"] == {"cron": None, "interval_seconds": 900}


@pytest.mark.parametrize("cron", ["61 * * * *", "every day", "* * * *"])
def test_invalid_cron_is_400(api: httpx.Client, cron: str) -> None:
    body = refused(api, component_id="schedule-cron-expression", configured_props={"timer": {"cron": cron}})
    assert "timer" in body["error"]


# --- hooks ----------------------------------------------------------------------------------------


def test_deploy_runs_deploy_then_activate(api: httpx.Client) -> None:
    source = deploy(api, component_code=HOOKED)
    assert hook_log(api, source["id"]) == ["deploy", "activate"]


def test_registry_github_source_runs_deploy_then_activate(api: httpx.Client) -> None:
    github = account_of(api, "github")
    source = deploy(
        api,
        component_id="github-new-issue",
        configured_props={"github": {"authProvisionId": github}, "repo": "acme/api"},
    )
    assert hook_log(api, source["id"]) == ["deploy", "activate"]


def test_update_runs_deactivate_then_activate(api: httpx.Client) -> None:
    source = deploy(api, component_code=HOOKED)
    response = api.put(f"/sources/{source['id']}", json={"configured_props": {"label": "v2"}})
    assert response.status_code == 200, response.text
    assert hook_log(api, source["id"]) == ["deploy", "activate", "deactivate", "activate"]


def test_update_runs_old_code_deactivate_then_new_code_activate(api: httpx.Client) -> None:
    source = deploy(api, component_code=ONLY_DEACTIVATE)
    assert hook_log(api, source["id"]) == []
    response = api.put(f"/sources/{source['id']}", json={"component_code": ONLY_ACTIVATE})
    assert response.status_code == 200, response.text
    # deactivate() is the old code's, activate() the new code's: the code is replaced in between.
    assert hook_log(api, source["id"]) == ["deactivate", "activate"]


def test_delete_runs_deactivate(api: httpx.Client) -> None:
    """Seen through a `$logs` subscription, since the deleted source's own events go with it."""
    source = deploy(api, component_code=HOOKED)
    listener = deploy(api, component_id="http-new-requests", name="log collector")
    sub = api.post(
        "/subscriptions", params={"emitter_id": source["id"], "listener_id": listener["id"], "event_name": "$logs"}
    )
    assert sub.status_code == 200, sub.text
    assert api.delete(f"/sources/{source['id']}").status_code == 200
    events = api.get(f"/sources/{listener['id']}/event_summaries", params={"expand": "event"}).json()["data"]
    assert [e["event"].get("hook") for e in events] == ["deactivate"]


# --- update -------------------------------------------------------------------------------------------


def test_put_updates_the_name_and_slug(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests", name="Before")
    response = api.put(f"/sources/{source['id']}", json={"name": "After Rename"})
    assert response.status_code == 200, response.text
    got = api.get(f"/sources/{source['id']}").json()["data"]
    assert (got["id"], got["name"], got["name_slug"]) == (source["id"], "After Rename", "after_rename")


def test_put_rename_to_a_taken_name_gets_another_slug(api: httpx.Client) -> None:
    first = deploy(api, component_id="http-new-requests", name="Taken Name")
    second = deploy(api, component_id="http-new-requests", name="Free Name")
    api.put(f"/sources/{second['id']}", json={"name": "Taken Name"})
    renamed = api.get(f"/sources/{second['id']}").json()["data"]
    assert renamed["name"] == "Taken Name"
    assert renamed["name_slug"] != first["name_slug"]


def test_put_updates_configured_props(api: httpx.Client) -> None:
    source = deploy(api, component_code=CHECKED, configured_props={"title": "one"})
    response = api.put(f"/sources/{source['id']}", json={"configured_props": {"title": "two", "count": 3}})
    assert response.status_code == 200, response.text
    assert api.get(f"/sources/{source['id']}").json()["data"]["configured_props"] == {"title": "two", "count": 3}


def test_put_checks_configured_props(api: httpx.Client) -> None:
    source = deploy(api, component_code=CHECKED, configured_props={"title": "one"})
    response = api.put(f"/sources/{source['id']}", json={"configured_props": {"title": "two", "count": 99}})
    assert response.status_code == 400
    assert api.get(f"/sources/{source['id']}").json()["data"]["configured_props"] == {"title": "one"}


def test_put_with_new_code_keeps_the_same_id(api: httpx.Client) -> None:
    source = deploy(api, component_code=ONLY_DEACTIVATE)
    response = api.put(f"/sources/{source['id']}", json={"component_code": ONLY_ACTIVATE})
    assert response.status_code == 200, response.text
    got = api.get(f"/sources/{source['id']}").json()["data"]
    assert got["id"] == source["id"]
    assert got["component_id"] != source["component_id"]
    assert api.get(f"/components/{got['component_id']}").json()["data"]["code"] == ONLY_ACTIVATE


def test_put_active_false_then_true(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests")
    assert api.put(f"/sources/{source['id']}", json={"active": False}).status_code == 200
    assert api.get(f"/sources/{source['id']}").json()["data"]["active"] is False
    assert api.put(f"/sources/{source['id']}", json={"active": True}).status_code == 200
    assert api.get(f"/sources/{source['id']}").json()["data"]["active"] is True


def test_put_active_false_runs_deactivate_and_true_runs_activate(api: httpx.Client) -> None:
    source = deploy(api, component_code=HOOKED)
    api.put(f"/sources/{source['id']}", json={"active": False})
    api.put(f"/sources/{source['id']}", json={"active": True})
    assert hook_log(api, source["id"]) == ["deploy", "activate", "deactivate", "activate"]


def test_put_with_nothing_to_change_is_400(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests")
    assert api.put(f"/sources/{source['id']}", json={}).status_code == 400


def test_put_unknown_source_is_404(api: httpx.Client) -> None:
    assert api.put("/sources/dc_missing", json={"name": "x"}).status_code == 404


# --- read, delete, lists ----------------------------------------------------------------------------


def test_get_source_returns_the_record(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests", name="Readable")
    assert api.get(f"/sources/{source['id']}").json()["data"] == source


def test_delete_then_get_is_404(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests")
    assert api.delete(f"/sources/{source['id']}").status_code == 200
    assert api.get(f"/sources/{source['id']}").status_code == 404
    assert api.get(f"/sources/{source['id']}/event_summaries").status_code == 404
    assert api.delete(f"/sources/{source['id']}").status_code == 404


def test_deleted_http_source_endpoint_is_gone(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests")
    url = source["configured_props"]["http"]["endpoint_url"]
    api.delete(f"/sources/{source['id']}")
    assert httpx.post(url, json={"a": 1}).status_code == 404


def test_users_me_sources_lists_a_new_source_first(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests")
    page = api.get("/users/me/sources", params={"limit": 1}).json()
    assert page["data"] == [source]
    assert page["page_info"]["count"] == 1
    assert page["page_info"]["total_count"] > 1


def test_users_me_sources_drops_a_deleted_source(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests")
    before = api.get("/users/me/sources", params={"limit": 1}).json()["page_info"]["total_count"]
    api.delete(f"/sources/{source['id']}")
    page = api.get("/users/me/sources", params={"limit": 100}).json()
    assert page["page_info"]["total_count"] == before - 1
    assert source["id"] not in [s["id"] for s in page["data"]]


def test_org_sources_lists_only_that_workspace(api: httpx.Client) -> None:
    orgs = [o["id"] for o in api.get("/users/me").json()["data"]["orgs"]]
    source = deploy(api, component_id="http-new-requests", org_id=orgs[1])
    mine = api.get(f"/orgs/{orgs[1]}/sources", params={"limit": 100}).json()["data"]
    other = api.get(f"/orgs/{orgs[0]}/sources", params={"limit": 100}).json()["data"]
    assert source["id"] in [s["id"] for s in mine]
    assert source["id"] not in [s["id"] for s in other]


def test_org_sources_of_an_unknown_workspace_is_404(api: httpx.Client) -> None:
    assert api.get("/orgs/o_notmine/sources").status_code == 404


def test_a_deleted_source_leaves_the_workflow_it_triggered_readable_without_it(
    api: httpx.Client, emulator: ServerHandle, info: dict
) -> None:
    """The demo's GitHub issues to Slack is triggered by a source; deleted, the workflow loses that trigger (the
    emulator answered 500 for the source it could not find)."""
    store = emulator.emulator.store
    workflow = next(w for w in store.workflows.values() if any(t.kind == "source" for t in w.triggers))
    source_id = next(t.source_id for t in workflow.triggers if t.kind == "source")
    before = api.get(f"/workflows/{workflow.id}", params={"org_id": info["org_id"]}).json()["triggers"]
    assert source_id in [t["id"] for t in before]
    assert api.delete(f"/sources/{source_id}").status_code < 300
    answer = api.get(f"/workflows/{workflow.id}", params={"org_id": info["org_id"]})
    assert answer.status_code == 200, answer.text
    after = [t["id"] for t in answer.json()["triggers"]]
    assert source_id not in after and len(after) == len(before) - 1
