"""Common parameters (limit, after, before, include, exclude), trailing slashes,
the Errors table and bad input, over HTTP.

The rule behind the last part: bad input gets a 4xx with a JSON body
`{"error": ...}`; no request, however malformed, gets a 500.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from aftui.emulator.server import ServerHandle

DEMO_SOURCES = 29  # the demo user's sources, /users/me/sources


def error_of(response: httpx.Response) -> str:
    assert response.headers["content-type"].startswith("application/json"), response.headers
    body = response.json()
    assert isinstance(body, dict) and isinstance(body.get("error"), str) and body["error"], body
    return body["error"]


def page(api: httpx.Client, path: str = "/users/me/sources", **params: Any) -> dict:
    response = api.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def ids(body: dict) -> list[str]:
    return [record["id"] for record in body["data"]]


# --- limit ---------------------------------------------------------------------------------------------


def test_limit_defaults_to_10(api: httpx.Client) -> None:
    body = page(api)
    assert body["page_info"]["count"] == 10 == len(body["data"])
    assert body["page_info"]["total_count"] == DEMO_SOURCES


@pytest.mark.parametrize("limit", [1, 29, 100])
def test_limit_from_1_to_100_is_the_page_size(api: httpx.Client, limit: int) -> None:
    body = page(api, limit=limit)
    assert len(body["data"]) == body["page_info"]["count"] == min(limit, DEMO_SOURCES)


@pytest.mark.parametrize("limit", ["0", "101", "abc", "-1", "1.5", "1e2", "\u00b2", "9" * 5000, "[]"])
def test_limit_outside_1_to_100_or_not_an_integer_is_400_naming_limit(api: httpx.Client, limit: str) -> None:
    response = api.get("/users/me/sources", params={"limit": limit})
    assert response.status_code == 400
    assert "limit" in error_of(response)
    assert response.json()["details"]["param"] == "limit"


@pytest.mark.parametrize("path", ["/accounts", "/apps", "/users/me/webhooks", "/users/me/subscriptions"])
def test_limit_is_checked_on_every_list(api: httpx.Client, path: str) -> None:
    assert api.get(path, params={"limit": 101}).status_code == 400
    assert api.get(path, params={"limit": 0}).status_code == 400
    assert api.get(path, params={"limit": 1}).json()["page_info"]["count"] == 1


@pytest.mark.parametrize("limit", [0, 101, "abc", 1.5, True, None, [5], {"n": 5}])
def test_limit_in_a_json_body_is_checked_too(api: httpx.Client, limit: Any) -> None:
    response = api.request("GET", "/users/me/sources", json={"limit": limit})
    if limit is None:
        assert response.status_code == 200  # null is "not given"
    else:
        assert response.status_code == 400
        assert "limit" in error_of(response)


# --- cursors and page_info --------------------------------------------------------------------------------


def test_page_info_has_counts_and_cursors(api: httpx.Client) -> None:
    info = page(api, limit=5)["page_info"]
    assert set(info) == {"total_count", "count", "start_cursor", "end_cursor"}
    assert info["total_count"] == DEMO_SOURCES and info["count"] == 5
    assert isinstance(info["start_cursor"], str) and info["start_cursor"]
    assert isinstance(info["end_cursor"], str) and info["end_cursor"]


def test_end_cursor_is_empty_on_the_last_page(api: httpx.Client) -> None:
    assert page(api, limit=100)["page_info"]["end_cursor"] == ""
    assert page(api, limit=DEMO_SOURCES)["page_info"]["end_cursor"] == ""
    assert page(api, limit=DEMO_SOURCES - 1)["page_info"]["end_cursor"] != ""


def test_after_walks_forward_with_no_overlap_or_gap(api: httpx.Client) -> None:
    everything = ids(page(api, limit=100))
    walked, after, sizes = [], None, []
    while True:
        body = page(api, limit=10, **({"after": after} if after else {}))
        assert body["page_info"]["total_count"] == DEMO_SOURCES
        sizes.append(body["page_info"]["count"])
        walked.extend(ids(body))
        after = body["page_info"]["end_cursor"]
        if not after:
            break
    assert sizes == [10, 10, 9]
    assert walked == everything
    assert len(set(walked)) == DEMO_SOURCES


def test_before_walks_back_over_the_same_pages(api: httpx.Client) -> None:
    forward, after = [], None
    while True:
        body = page(api, limit=10, **({"after": after} if after else {}))
        forward.append(body)
        after = body["page_info"]["end_cursor"]
        if not after:
            break
    backward = [forward[-1]]
    while True:
        body = page(api, limit=10, before=backward[-1]["page_info"]["start_cursor"])
        if not body["data"]:
            break
        backward.append(body)
    assert [ids(b) for b in reversed(backward)] == [ids(f) for f in forward]


def test_before_the_first_item_is_an_empty_page(api: httpx.Client) -> None:
    first = page(api, limit=10)
    body = page(api, limit=10, before=first["page_info"]["start_cursor"])
    assert body["data"] == [] and body["page_info"]["count"] == 0
    assert body["page_info"]["start_cursor"] == ""


def test_before_takes_the_items_closest_to_the_cursor(api: httpx.Client) -> None:
    everything = ids(page(api, limit=100))
    middle = page(api, limit=15)["page_info"]["end_cursor"]  # names item 15
    assert ids(page(api, limit=4, before=middle)) == everything[10:14]


def test_after_and_before_together_give_the_items_between(api: httpx.Client) -> None:
    everything = ids(page(api, limit=100))
    after = page(api, limit=3)["page_info"]["end_cursor"]  # item 3
    before = page(api, limit=8)["page_info"]["end_cursor"]  # item 8
    assert ids(page(api, limit=100, after=after, before=before)) == everything[3:7]


def test_cursors_walk_event_summaries_too(api: httpx.Client) -> None:
    heartbeat = next(s for s in page(api, limit=100)["data"] if s["name"] == "Heartbeat every 5 minutes")
    path = f"/sources/{heartbeat['id']}/event_summaries"
    everything = ids(page(api, path, limit=100))
    assert len(everything) > 5
    walked, after = [], None
    while True:
        body = page(api, path, limit=3, **({"after": after} if after else {}))
        walked.extend(ids(body))
        after = body["page_info"]["end_cursor"]
        if not after:
            break
    assert walked == everything


@pytest.mark.parametrize("param", ["after", "before"])
@pytest.mark.parametrize("cursor", ["!!!!", "a", "not-a-cursor", "YWJj", "wrI", "MS0yLTM"])
def test_bad_cursor_is_400_naming_the_parameter(api: httpx.Client, param: str, cursor: str) -> None:
    response = api.get("/users/me/sources", params={param: cursor})
    assert response.status_code == 400
    assert param in error_of(response)
    assert response.json()["details"]["param"] == param


@pytest.mark.parametrize("param", ["after", "before"])
def test_bad_cursor_on_event_summaries_is_400(api: httpx.Client, emulator: ServerHandle, param: str) -> None:
    source_id = next(iter(emulator.emulator.store.sources))
    for cursor in ("YWJj", "wrItMQ", "MS0yLTM", "!!"):
        response = api.get(f"/sources/{source_id}/event_summaries", params={param: cursor})
        assert response.status_code == 400, cursor
        assert response.json()["details"]["param"] == param


# --- include and exclude ----------------------------------------------------------------------------------


def test_include_keeps_only_the_named_fields_of_each_record(api: httpx.Client) -> None:
    body = page(api, include="id,name")
    assert body["data"] and all(set(r) == {"id", "name"} for r in body["data"])
    assert body["page_info"]["count"] == 10  # page_info is not a record


def test_include_tolerates_spaces_and_unknown_fields(api: httpx.Client) -> None:
    body = page(api, include=" id , nope ,")
    assert all(set(r) == {"id"} for r in body["data"])


def test_exclude_drops_the_named_fields(api: httpx.Client) -> None:
    full = page(api)["data"][0]
    body = page(api, exclude="configured_props,user_id")
    record = body["data"][0]
    assert "configured_props" not in record and "user_id" not in record
    assert set(record) == set(full) - {"configured_props", "user_id"}


def test_include_and_exclude_together(api: httpx.Client) -> None:
    body = page(api, include="id,name,active", exclude="name")
    assert all(set(r) == {"id", "active"} for r in body["data"])


def test_include_shapes_single_records(api: httpx.Client) -> None:
    assert set(api.get("/users/me", params={"include": "id,email"}).json()["data"]) == {"id", "email"}
    assert set(api.get("/apps/github", params={"include": "id,name_slug"}).json()["data"]) == {"id", "name_slug"}
    account_id = page(api, "/accounts", limit=1)["data"][0]["id"]
    assert set(api.get(f"/accounts/{account_id}", params={"exclude": "app"}).json()["data"]) == {
        "id",
        "name",
        "healthy",
        "created_at",
        "updated_at",
    }


def test_include_shapes_a_workflow(api: httpx.Client, emulator: ServerHandle) -> None:
    workflow_id = next(iter(emulator.emulator.store.workflows))
    body = api.get(f"/workflows/{workflow_id}", params={"include": "id,triggers"}).json()
    assert set(body) == {"id", "triggers"}
    assert "steps" not in api.get(f"/workflows/{workflow_id}", params={"exclude": "steps"}).json()


def test_include_in_a_post_body_shapes_the_created_record(api: httpx.Client) -> None:
    response = api.post("/webhooks", params={"url": "https://example.com/in"}, json={"include": "id,url"})
    assert response.status_code == 200
    assert response.json()["data"] == {"id": response.json()["data"]["id"], "url": "https://example.com/in"}


@pytest.mark.parametrize("param", ["include", "exclude"])
@pytest.mark.parametrize("value", [5, ["id"], {"id": True}, True])
def test_include_and_exclude_must_be_strings(api: httpx.Client, param: str, value: Any) -> None:
    response = api.request("GET", "/users/me/sources", json={param: value})
    assert response.status_code == 400
    assert param in error_of(response)


# --- trailing slashes -------------------------------------------------------------------------------------


def get_paths(emulator: ServerHandle, info: dict) -> list[str]:
    store = emulator.emulator.store
    source_id = next(iter(store.sources))
    workflow_id = next(iter(store.workflows))
    account_id = next(a.id for a in store.accounts.values() if a.project_id is None)
    connect_account = next(
        a.id for a in store.accounts.values() if a.project_id is not None and a.environment == "production"
    )
    project, org = info["project_id"], info["org_id"]
    return [
        "/users/me",
        "/users/me/sources",
        "/users/me/subscriptions",
        "/users/me/webhooks",
        "/accounts",
        f"/accounts/{account_id}",
        f"/workspaces/{org}/accounts",
        "/apps",
        "/apps/github",
        "/components/github-new-issue",
        "/components/registry/github-new-issue",
        f"/sources/{source_id}",
        f"/sources/{source_id}/event_summaries",
        f"/orgs/{org}/sources",
        f"/orgs/{org}/subscriptions",
        f"/workflows/{workflow_id}",
        f"/workflows/{workflow_id}/event_summaries",
        f"/workflows/{workflow_id}/$errors/event_summaries",
        f"/connect/{project}/accounts",
        f"/connect/{project}/accounts/{connect_account}",
        f"/connect/{project}/info",
    ]


def test_every_get_path_works_with_and_without_a_trailing_slash(
    api: httpx.Client, emulator: ServerHandle, info: dict
) -> None:
    for path in get_paths(emulator, info):
        bare, slashed = api.get(path), api.get(path + "/")
        assert bare.status_code == 200, (path, bare.text)
        assert slashed.status_code == 200, (path + "/", slashed.text)
        assert bare.json() == slashed.json(), path


def test_search_works_with_a_trailing_slash(api: httpx.Client) -> None:
    params = {"query": "new issue in github"}
    assert api.get("/components/search/", params=params).json() == api.get("/components/search", params=params).json()


def test_post_paths_work_with_a_trailing_slash(api: httpx.Client, emulator: ServerHandle, info: dict) -> None:
    created = api.post("/sources/", json={"key": "http-new-requests", "name": "slashed"})
    assert created.status_code == 200, created.text
    assert created.json()["data"]["name"] == "slashed"
    assert api.post("/webhooks/", params={"url": "https://example.com/x"}).status_code == 200
    token = httpx.post(
        f"{emulator.base_url}/oauth/token/",
        json={
            "grant_type": "client_credentials",
            "client_id": info["oauth_client_id"],
            "client_secret": info["oauth_client_secret"],
        },
    )
    assert token.status_code == 200


def test_delete_and_put_paths_work_with_a_trailing_slash(api: httpx.Client, emulator: ServerHandle) -> None:
    source_id = next(iter(emulator.emulator.store.sources))
    assert api.put(f"/sources/{source_id}/", json={"name": "renamed"}).status_code == 200
    assert api.get(f"/sources/{source_id}").json()["data"]["name"] == "renamed"
    assert api.delete(f"/sources/{source_id}/").status_code == 200
    assert api.get(f"/sources/{source_id}").status_code == 404


def test_control_paths_work_with_a_trailing_slash(root: httpx.Client) -> None:
    assert root.get("/_emulator/info/").json() == root.get("/_emulator/info").json()
    assert root.get("/_emulator/clock/").status_code == 200


# --- the Errors table -------------------------------------------------------------------------------------


def unknown_resources(info: dict) -> list[tuple[str, str]]:
    project, org = info["project_id"], info["org_id"]
    return [
        ("GET", "/accounts/apn_nope"),
        ("GET", "/apps/no_such_app"),
        ("GET", "/components/sc_nope"),
        ("GET", "/components/registry/no-such-key"),
        ("GET", "/sources/dc_nope"),
        ("PUT", "/sources/dc_nope"),
        ("DELETE", "/sources/dc_nope"),
        ("GET", "/sources/dc_nope/event_summaries"),
        ("DELETE", "/sources/dc_nope/events"),
        ("GET", "/workflows/p_nope"),
        ("PUT", "/workflows/p_nope"),
        ("GET", "/workflows/p_nope/event_summaries"),
        ("GET", "/workflows/p_nope/$errors/event_summaries"),
        ("DELETE", "/webhooks/wh_nope"),
        ("GET", "/workspaces/o_nope/accounts"),
        ("GET", "/orgs/o_nope/sources"),
        ("GET", "/orgs/o_nope/subscriptions"),
        ("GET", "/connect/proj_nope/info"),
        ("GET", f"/connect/{project}/accounts/apn_nope"),
        ("DELETE", f"/connect/{project}/accounts/apn_nope"),
        ("DELETE", f"/connect/{project}/users/nobody-at-all"),
        ("GET", f"/orgs/{org}/sources/extra/segments"),
    ]


def test_unknown_ids_are_404_with_an_error_body(api: httpx.Client, info: dict) -> None:
    for method, path in unknown_resources(info):
        response = api.request(method, path, json={"active": True})
        assert response.status_code == 404, (method, path, response.status_code, response.text)
        error_of(response)


def test_unknown_id_message_names_the_id(api: httpx.Client) -> None:
    assert "dc_nope" in error_of(api.get("/sources/dc_nope"))


def test_resources_of_another_user_look_unknown(emulator: ServerHandle, info: dict, api: httpx.Client) -> None:
    source_id = next(iter(emulator.emulator.store.sources))
    with httpx.Client(base_url=emulator.base_url, headers={"Authorization": f"Bearer {info['paid_api_key']}"}) as paid:
        response = paid.get(f"/sources/{source_id}")
    assert response.status_code == 404
    assert api.get(f"/sources/{source_id}").status_code == 200


def test_body_that_is_not_json_is_400(api: httpx.Client) -> None:
    response = api.post(
        "/webhooks",
        params={"url": "https://example.com/x"},
        content=b"url=nope",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 400
    assert "JSON" in error_of(response)


@pytest.mark.parametrize("body", [b"[1, 2]", b'"text"', b"42", b"null", b"true"])
def test_json_body_that_is_not_an_object_is_400(api: httpx.Client, body: bytes) -> None:
    response = api.post("/sources", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert "object" in error_of(response)


def test_oauth_token_body_that_is_not_json_is_400(emulator: ServerHandle) -> None:
    response = httpx.post(
        f"{emulator.base_url}/oauth/token", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    error_of(response)


def test_unknown_path_is_404_json(api: httpx.Client, root: httpx.Client) -> None:
    for response in (api.get("/no/such/thing"), root.get("/nothing-here"), root.get("/_emulator/nope")):
        assert response.status_code == 404
        assert "no such endpoint" in error_of(response)


def test_wrong_method_is_405_json(api: httpx.Client) -> None:
    for method, path in (("DELETE", "/users/me"), ("PATCH", "/apps"), ("POST", "/accounts"), ("PUT", "/oauth/token")):
        response = api.request(method, path)
        assert response.status_code == 405, (method, path)
        assert "not allowed" in error_of(response)


# --- no request gets a 500 --------------------------------------------------------------------------------

# Wrong types for JSON bodies (also sent on GET, where the emulator overlays them on the query).
JSON_VALUES: list[Any] = [
    5, -1, 1.5, 1e308, True, None, [], {}, [1], {"a": 1}, [{"a": 1}],
    "", "x" * 3000, "\u00b2", "\u00e9.a.b", "\x00", "p_*", "YWJj",
]  # fmt: skip
QUERY_VALUES = [
    "",
    "abc",
    "-1",
    "0",
    "101",
    "\u00b2",
    "nan",
    "inf",
    "1e5",
    "[]",
    "\x00",
    "\u00e9.a.b",
    "true",
    "YWJj",
    "wrItMQ",
    "p_*",
]
RAW_BODIES = [b"not json", b"[1]", b"\xff\xfe\x00", b'{"a":', b"null", b"1e400", b'{"limit": 1e400}', b'{"limit": NaN}']

COMMON = ["include", "exclude", "org_id", "limit", "after", "before"]


def malformed_routes(emulator: ServerHandle, info: dict) -> list[tuple[str, str, dict[str, Any], list[str]]]:
    """(method, path, a valid body to build on, the parameters the route reads)."""
    store = emulator.emulator.store
    source = next(s for s in store.sources.values() if s.org_id == info["org_id"])
    workflow = next(iter(store.workflows))
    account = next(a.id for a in store.accounts.values() if a.project_id is None)
    github = next(
        a.id for a in store.accounts.values() if a.project_id is None and store.apps[a.app_id]["name_slug"] == "github"
    )
    connect_account = next(
        a.id for a in store.accounts.values() if a.project_id is not None and a.environment == "production"
    )
    project, org = info["project_id"], info["org_id"]
    events = ["limit", "after", "before", "expand", "channel"]
    return [
        ("GET", "/users/me", {}, COMMON),
        ("GET", "/accounts", {}, [*COMMON, "app", "oauth_app_id", "external_user_id", "include_credentials"]),
        ("GET", f"/accounts/{account}", {}, [*COMMON, "include_credentials"]),
        ("GET", f"/workspaces/{org}/accounts", {}, [*COMMON, "query"]),
        ("GET", "/apps", {}, [*COMMON, "q"]),
        ("GET", "/apps/github", {}, COMMON),
        ("POST", "/components", {}, [*COMMON, "component_code", "component_url"]),
        ("GET", "/components/search", {"query": "github"}, [*COMMON, "query", "app", "similarity_threshold", "debug"]),
        ("GET", "/components/registry/github-new-issue", {}, COMMON),
        ("GET", "/components/github-new-issue", {}, COMMON),
        (
            "POST",
            "/sources",
            {"key": "http-new-requests"},
            [*COMMON, "component_id", "component_code", "component_url", "key", "name", "configured_props"],
        ),
        (
            "POST",
            "/sources",
            {"key": "github-new-issue", "configured_props": {"github": {"authProvisionId": github}, "repo": "a/b"}},
            ["configured_props", "name"],
        ),
        ("GET", f"/sources/{source.id}", {}, COMMON),
        (
            "PUT",
            f"/sources/{source.id}",
            {},
            [*COMMON, "component_id", "component_code", "component_url", "key", "name", "active", "configured_props"],
        ),
        ("GET", "/users/me/sources", {}, COMMON),
        ("GET", f"/orgs/{org}/sources", {}, COMMON),
        ("GET", f"/sources/{source.id}/event_summaries", {}, [*COMMON, *events]),
        ("DELETE", f"/sources/{source.id}/events", {}, ["start_id", "end_id"]),
        ("GET", f"/workflows/{workflow}/event_summaries", {}, events),
        ("GET", f"/workflows/{workflow}/$errors/event_summaries", {}, events),
        (
            "POST",
            "/subscriptions",
            {"emitter_id": source.id, "listener_id": workflow},
            [*COMMON, "emitter_id", "listener_id", "event_name"],
        ),
        ("DELETE", "/subscriptions", {}, ["emitter_id", "listener_id", "event_name"]),
        (
            "POST",
            "/auto_subscriptions",
            {"event_name": "$errors", "listener_id": workflow},
            ["event_name", "listener_id", "org_id"],
        ),
        ("GET", "/users/me/subscriptions", {}, COMMON),
        ("GET", f"/orgs/{org}/subscriptions", {}, COMMON),
        ("POST", "/webhooks", {"url": "https://example.com/hook"}, [*COMMON, "url", "name", "description"]),
        ("GET", "/users/me/webhooks", {}, COMMON),
        ("DELETE", "/webhooks/wh_nope", {}, COMMON),
        (
            "POST",
            "/workflows",
            {"org_id": org, "template_id": "tch_8Wd2Kc"},
            ["org_id", "project_id", "template_id", "steps", "triggers", "settings"],
        ),
        ("POST", "/workflows", {"org_id": org, "template_id": "tch_Gh5rT1"}, ["steps", "triggers", "settings"]),
        ("GET", f"/workflows/{workflow}", {}, [*COMMON, "org_id"]),
        ("PUT", f"/workflows/{workflow}", {}, ["active", "org_id"]),
        ("POST", "/oauth/token", {"grant_type": "client_credentials"}, ["grant_type", "client_id", "client_secret"]),
        (
            "POST",
            "/oauth/revoke",
            {"client_id": info["oauth_client_id"], "client_secret": info["oauth_client_secret"]},
            ["token", "client_id", "client_secret"],
        ),
        (
            "POST",
            f"/connect/{project}/tokens",
            {"external_user_id": "fuzz"},
            ["external_user_id", "success_redirect_uri", "error_redirect_uri", "webhook_uri"],
        ),
        (
            "GET",
            f"/connect/{project}/accounts",
            {},
            [*COMMON, "app", "oauth_app_id", "external_user_id", "include_credentials"],
        ),
        ("GET", f"/connect/{project}/accounts/{connect_account}", {}, ["include_credentials", "include", "exclude"]),
        ("GET", f"/connect/{project}/info", {}, COMMON),
    ]


# Nested values that have tripped the emulator before, for the bodies that take objects.
NESTED_VALUES: dict[str, list[Any]] = {
    "triggers": [[{"props": {"timer": "abc"}}], [{"props": {"timer": []}}], [{"props": "x"}], [{"props": {"timer": {"intervalSeconds": 1e308}}}], [{"namespace": "x"}], [[1]]],
    "steps": [[{"namespace": 5}], [{"namespace": "nope"}], [{"namespace": "format", "props": []}], [{"namespace": "format", "props": {"x": [1]}}]],
    "settings": [{"name": 5}, {"auto_deploy": "yes"}],
    "configured_props": [{"timer": "abc"}, {"timer": {"intervalSeconds": "5"}}, {"github": "apn_x"}, {"github": {"authProvisionId": 5}}, {"repo": 5}, {"labels": "x"}],
}  # fmt: skip


def assert_clean_failure_or_success(response: httpx.Response, what: object) -> None:
    assert response.status_code < 500, (what, response.status_code, response.text[:300])
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body, dict) and "error" in body, (what, body)


def test_no_malformed_parameter_gets_a_500(emulator: ServerHandle, info: dict) -> None:
    routes = malformed_routes(emulator, info)
    headers = {"Authorization": f"Bearer {info['api_key']}"}
    with httpx.Client(base_url=emulator.base_url, headers=headers, timeout=10) as api:
        for method, path, base, params in routes:
            for name in params:
                for value in [*JSON_VALUES, *NESTED_VALUES.get(name, [])]:
                    what = (method, path, name, value if not isinstance(value, str) else value[:20])
                    assert_clean_failure_or_success(api.request(method, path, json={**base, name: value}), what)
                for text in QUERY_VALUES:
                    what = (method, path, name, text)
                    query = {k: v for k, v in base.items() if isinstance(v, str)}
                    assert_clean_failure_or_success(api.request(method, path, params={**query, name: text}), what)


def test_no_malformed_body_gets_a_500(emulator: ServerHandle, info: dict) -> None:
    headers = {"Authorization": f"Bearer {info['api_key']}"}
    with httpx.Client(base_url=emulator.base_url, headers=headers, timeout=10) as api:
        for method, path, _, _ in malformed_routes(emulator, info):
            for raw in RAW_BODIES:
                for content_type in ("application/json", "application/x-www-form-urlencoded", "text/plain"):
                    response = api.request(method, path, content=raw, headers={"content-type": content_type})
                    assert_clean_failure_or_success(response, (method, path, raw, content_type))


def test_malformed_json_body_is_400_even_on_get(api: httpx.Client) -> None:
    response = api.request(
        "GET", "/users/me/sources", content=b'{"limit": ', headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    error_of(response)


@pytest.mark.parametrize("header", [b"\xb2-1", b"abc", b"1-2-3", b"-1", b"1" * 5000 + b"-1"])
def test_bad_last_event_id_on_the_stream_is_400(emulator: ServerHandle, info: dict, header: bytes) -> None:
    source_id = next(iter(emulator.emulator.store.sources))
    response = httpx.get(
        f"{emulator.root_url}/sources/{source_id}/sse",
        headers={"Authorization": f"Bearer {info['api_key']}", "Last-Event-ID": header},
    )
    assert response.status_code == 400
    assert "Last-Event-ID" in error_of(response)


@pytest.mark.parametrize("start_id", ["\u00b2-1", "1-\u00b2", "abc", "1" * 5000 + "-1", "-", "1-"])
def test_bad_event_id_when_deleting_events_is_400(api: httpx.Client, emulator: ServerHandle, start_id: str) -> None:
    source_id = next(iter(emulator.emulator.store.sources))
    response = api.delete(f"/sources/{source_id}/events", params={"start_id": start_id})
    assert response.status_code == 400
    assert "start_id" in error_of(response)


@pytest.mark.parametrize(
    "body",
    [
        b'{"path": "/v1/apps", "count": 1e400}',
        b'{"path": "/v1/apps", "status": 1e400}',
        b'{"path": "/v1/apps", "retry_after": -1e400, "status": 429}',
        b'{"path": 5}',
        b'{"path": "/v1/apps", "status": "x"}',
    ],
)
def test_bad_fault_controls_are_400(root: httpx.Client, body: bytes) -> None:
    response = root.post("/_emulator/faults", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    error_of(response)


def test_control_endpoints_reject_malformed_input_cleanly(emulator: ServerHandle) -> None:
    store = emulator.emulator.store
    source = next(iter(store.sources))
    workflow = next(iter(store.workflows))
    account = next(iter(store.accounts))
    controls = [
        f"/_emulator/sources/{source}/inject",
        f"/_emulator/sources/{source}/emit",
        "/_emulator/sse/drop",
        "/_emulator/clock",
        "/_emulator/settings",
        "/_emulator/email",
        f"/_emulator/workflows/{workflow}/test",
        f"/_emulator/accounts/{account}",
    ]
    names = [
        "count",
        "rate",
        "size",
        "channel",
        "event",
        "id",
        "ts",
        "source_id",
        "now_ms",
        "advance",
        "token_lifetime",
        "keepalive_s",
        "events_delete_delay_s",
        "webhook_retry_delays",
        "to",
        "healthy",
        "dead",
    ]
    raws = ["1e400", "-1e400", '"x"', "[]", "{}", "null", '"\u00b2"', "-1"]
    with httpx.Client(base_url=emulator.root_url, timeout=10) as root:
        for path in controls:
            for name in names:
                for raw in raws:
                    body = json.dumps({name: 0})[:-2] + raw + "}"
                    response = root.post(path, content=body, headers={"content-type": "application/json"})
                    assert_clean_failure_or_success(response, (path, body))
            for raw_body in RAW_BODIES:
                response = root.post(path, content=raw_body, headers={"content-type": "application/json"})
                assert_clean_failure_or_success(response, (path, raw_body))
