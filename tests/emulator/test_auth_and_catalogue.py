"""Authentication, the user record, accounts, apps and components, over HTTP.

Covers the spec's Authentication section, the States table rows for access
tokens and user API keys, the User, Account, App and Component resources
and their endpoints.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from aftui.emulator.server import ServerHandle

REGISTRY_URL = "https://github.com/PipedreamHQ/pipedream/blob/master/components/github/sources/github-new-issue.mjs"

HELLO_CODE = """\
export default {
  key: "aftui-test-hello",
  name: "Hello",
  version: "0.0.1",
  type: "action",
  description: "Says hello",
  props: {
    who: { type: "string", label: "Who", description: "Whom to greet" },
    times: { type: "integer", optional: true, min: 1, max: 3 },
  },
  async run({ $ }) {
    return `hello ${this.who}`;
  },
};
"""

SERVED_CODE = """\
export default {
  key: "aftui-test-served",
  name: "Served Over HTTP",
  version: "2.1.0",
  props: {
    http: { type: "$.interface.http" },
  },
  async run(event) {
    this.$emit(event.body);
  },
};
"""


def token_for(emulator: ServerHandle, info: dict, **overrides: str) -> httpx.Response:
    body = {
        "grant_type": "client_credentials",
        "client_id": info["oauth_client_id"],
        "client_secret": info["oauth_client_secret"],
    }
    return httpx.post(f"{emulator.base_url}/oauth/token", json={**body, **overrides})


def client(emulator: ServerHandle, token: str) -> httpx.Client:
    return httpx.Client(base_url=emulator.base_url, headers={"Authorization": f"Bearer {token}"}, timeout=10)


def error_of(response: httpx.Response) -> str:
    body = response.json()
    assert isinstance(body.get("error"), str) and body["error"], body
    return body["error"]


def is_iso8601(value: object) -> bool:
    if not isinstance(value, str) or "T" not in value:
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def walk(api: httpx.Client, path: str, **params: object) -> list[dict]:
    """Every record of a paginated list, following end_cursor."""
    records: list[dict] = []
    after = None
    for _ in range(200):
        page = api.get(path, params={**params, **({"after": after} if after else {})})
        assert page.status_code == 200, page.text
        body = page.json()
        records.extend(body["data"])
        after = body["page_info"]["end_cursor"]
        if not after:
            return records
    raise AssertionError("pagination never ended")


# --- user API keys ------------------------------------------------------------------------------


def test_user_api_key_is_accepted(api: httpx.Client) -> None:
    assert api.get("/users/me").status_code == 200


def test_unknown_api_key_gets_401(emulator: ServerHandle) -> None:
    with client(emulator, "not-a-real-key") as bad:
        response = bad.get("/users/me")
    assert response.status_code == 401
    assert "invalid" in error_of(response).lower()


def test_missing_authorization_header_gets_401(emulator: ServerHandle) -> None:
    response = httpx.get(f"{emulator.base_url}/users/me")
    assert response.status_code == 401
    assert "authorization" in error_of(response).lower()


@pytest.mark.parametrize(
    "header",
    [
        b"Bearer",
        b"Bearer    x",
        b"Basic dXNlcjpwYXNz",
        b"Token abc",
        b"Bearer a.b.c",
        b"Bearer \xe9.a.b",
        b"Bearer \xe9\xe9",
        b"Bearer " + b"x" * 8000,
    ],
    ids=["no-token", "padded-token", "basic", "other-scheme", "fake-jwt", "latin1-jwt", "latin1-key", "huge-key"],
)
def test_malformed_authorization_headers_get_401(emulator: ServerHandle, header: bytes) -> None:
    response = httpx.get(f"{emulator.base_url}/users/me", headers={"Authorization": header})
    assert response.status_code == 401
    error_of(response)


def test_revoked_user_key_gets_401_and_the_new_key_works(
    emulator: ServerHandle, info: dict, api: httpx.Client, root: httpx.Client
) -> None:
    user_id = api.get("/users/me").json()["data"]["id"]
    revoked = root.post(f"/_emulator/users/{user_id}/revoke_key")
    assert revoked.status_code == 200
    new_key = revoked.json()["api_key"]
    assert new_key and new_key != info["api_key"]

    old = api.get("/users/me")
    assert old.status_code == 401
    assert "revoked" in error_of(old)
    with client(emulator, new_key) as fresh:
        me = fresh.get("/users/me")
    assert me.status_code == 200
    assert me.json()["data"]["id"] == user_id


def test_revoking_a_key_of_an_unknown_user_is_404(root: httpx.Client) -> None:
    response = root.post("/_emulator/users/u_nobody/revoke_key")
    assert response.status_code == 404
    error_of(response)


# --- OAuth tokens ---------------------------------------------------------------------------------


def test_client_credentials_give_a_bearer_jwt_for_an_hour(emulator: ServerHandle, info: dict) -> None:
    response = token_for(emulator, info)
    assert response.status_code == 200
    token = response.json()
    assert set(token) >= {"access_token", "token_type", "expires_in", "created_at"}
    parts = token["access_token"].split(".")
    assert len(parts) == 3 and all(parts)
    assert token["token_type"] == "Bearer"
    assert token["expires_in"] == 3600
    assert isinstance(token["created_at"], int) and not isinstance(token["created_at"], bool)
    assert token["created_at"] > 1_000_000_000  # epoch seconds


def test_oauth_token_is_accepted_as_bearer(oauth: httpx.Client, info: dict) -> None:
    response = oauth.get("/accounts")
    assert response.status_code == 200


def test_token_endpoint_accepts_a_form_encoded_body(emulator: ServerHandle, info: dict) -> None:
    form = {
        "grant_type": "client_credentials",
        "client_id": info["oauth_client_id"],
        "client_secret": info["oauth_client_secret"],
    }
    response = httpx.post(f"{emulator.base_url}/oauth/token", data=form)
    assert response.status_code == 200, response.text
    token = response.json()["access_token"]
    with client(emulator, token) as oauth:
        assert oauth.get("/accounts").status_code == 200


def test_wrong_client_secret_gets_401(emulator: ServerHandle, info: dict) -> None:
    response = token_for(emulator, info, client_secret="wrong")
    assert response.status_code == 401
    assert "client" in error_of(response)


def test_unknown_client_id_gets_401(emulator: ServerHandle, info: dict) -> None:
    response = token_for(emulator, info, client_id="nobody")
    assert response.status_code == 401
    error_of(response)


def test_wrong_grant_type_gets_400(emulator: ServerHandle, info: dict) -> None:
    response = token_for(emulator, info, grant_type="authorization_code")
    assert response.status_code == 400
    assert "grant_type" in error_of(response)


def test_missing_grant_type_gets_400(emulator: ServerHandle, info: dict) -> None:
    body = {"client_id": info["oauth_client_id"], "client_secret": info["oauth_client_secret"]}
    response = httpx.post(f"{emulator.base_url}/oauth/token", json=body)
    assert response.status_code == 400
    assert "grant_type" in error_of(response)


def test_missing_grant_type_in_a_form_body_gets_400(emulator: ServerHandle, info: dict) -> None:
    form = {"client_id": info["oauth_client_id"], "client_secret": info["oauth_client_secret"]}
    response = httpx.post(f"{emulator.base_url}/oauth/token", data=form)
    assert response.status_code == 400
    assert "grant_type" in error_of(response)


def test_missing_client_secret_gets_400(emulator: ServerHandle, info: dict) -> None:
    body = {"grant_type": "client_credentials", "client_id": info["oauth_client_id"]}
    response = httpx.post(f"{emulator.base_url}/oauth/token", json=body)
    assert response.status_code == 400
    assert "client_secret" in error_of(response)


def test_token_expires_after_its_lifetime(emulator: ServerHandle, info: dict, root: httpx.Client) -> None:
    assert root.post("/_emulator/settings", json={"token_lifetime": 2}).json()["token_lifetime"] == 2
    issued = token_for(emulator, info).json()
    assert issued["expires_in"] == 2
    with client(emulator, issued["access_token"]) as oauth:
        assert oauth.get("/accounts").status_code == 200
        assert root.post("/_emulator/clock", json={"advance": 3}).status_code == 200
        response = oauth.get("/accounts")
    assert response.status_code == 401
    assert "expired" in error_of(response)


def test_token_is_still_valid_just_before_it_expires(emulator: ServerHandle, info: dict, root: httpx.Client) -> None:
    root.post("/_emulator/settings", json={"token_lifetime": 10})
    token = token_for(emulator, info).json()["access_token"]
    root.post("/_emulator/clock", json={"advance": 9})
    with client(emulator, token) as oauth:
        assert oauth.get("/accounts").status_code == 200


def test_revoked_token_gets_401(emulator: ServerHandle, info: dict, oauth: httpx.Client, oauth_token: str) -> None:
    assert oauth.get("/accounts").status_code == 200
    body = {"token": oauth_token, "client_id": info["oauth_client_id"], "client_secret": info["oauth_client_secret"]}
    revoked = httpx.post(f"{emulator.base_url}/oauth/revoke", json=body)
    assert revoked.status_code == 200
    assert revoked.json() == {}
    response = oauth.get("/accounts")
    assert response.status_code == 401
    assert "revoked" in error_of(response)


def test_revoke_needs_the_client_credentials(
    emulator: ServerHandle, info: dict, oauth: httpx.Client, oauth_token: str
) -> None:
    body = {"token": oauth_token, "client_id": info["oauth_client_id"], "client_secret": "wrong"}
    response = httpx.post(f"{emulator.base_url}/oauth/revoke", json=body)
    assert response.status_code == 401
    assert oauth.get("/accounts").status_code == 200


def test_revoke_without_token_gets_400(emulator: ServerHandle, info: dict) -> None:
    body = {"client_id": info["oauth_client_id"], "client_secret": info["oauth_client_secret"]}
    response = httpx.post(f"{emulator.base_url}/oauth/revoke", json=body)
    assert response.status_code == 400
    assert "token" in error_of(response)


def test_revoke_accepts_a_form_encoded_body(
    emulator: ServerHandle, info: dict, oauth: httpx.Client, oauth_token: str
) -> None:
    form = {"token": oauth_token, "client_id": info["oauth_client_id"], "client_secret": info["oauth_client_secret"]}
    response = httpx.post(f"{emulator.base_url}/oauth/revoke", data=form)
    assert response.status_code == 200
    assert response.json() == {}
    assert oauth.get("/accounts").status_code == 401


def test_revoking_an_unknown_token_is_not_an_error(emulator: ServerHandle, info: dict) -> None:
    body = {
        "token": "\u00e9.not.a-jwt",
        "client_id": info["oauth_client_id"],
        "client_secret": info["oauth_client_secret"],
    }
    response = httpx.post(f"{emulator.base_url}/oauth/revoke", json=body)
    assert response.status_code == 200
    assert response.json() == {}


# --- endpoints reserved for user API keys ----------------------------------------------------------


def user_key_only_requests(emulator: ServerHandle) -> list[tuple[str, str]]:
    workflow_id = next(iter(emulator.emulator.store.workflows))
    return [
        ("POST", "/components"),
        ("POST", "/sources"),
        ("POST", "/workflows"),
        ("PUT", f"/workflows/{workflow_id}"),
        ("GET", "/users/me"),
        ("GET", "/users/me/sources"),
        ("GET", "/users/me/subscriptions"),
        ("GET", "/users/me/webhooks"),
    ]


def test_user_key_only_endpoints_refuse_oauth_tokens_with_403(emulator: ServerHandle, oauth: httpx.Client) -> None:
    for method, path in user_key_only_requests(emulator):
        response = oauth.request(method, path, json={"active": True})
        assert response.status_code == 403, (method, path, response.text)
        assert "user API key" in error_of(response), (method, path)


def test_user_key_only_endpoints_refuse_oauth_tokens_with_trailing_slash(
    emulator: ServerHandle, oauth: httpx.Client
) -> None:
    for method, path in user_key_only_requests(emulator):
        response = oauth.request(method, path + "/", json={"active": True})
        assert response.status_code == 403, (method, path, response.text)


def test_oauth_token_still_reads_workspace_resources(oauth: httpx.Client, info: dict) -> None:
    assert oauth.get(f"/orgs/{info['org_id']}/sources").status_code == 200
    assert oauth.get(f"/orgs/{info['org_id']}/subscriptions").status_code == 200


# --- org_id ---------------------------------------------------------------------------------------


def test_creating_a_workflow_with_a_user_key_needs_org_id(api: httpx.Client) -> None:
    response = api.post("/workflows", json={"template_id": "tch_3Lm9Qa"})
    assert response.status_code == 400
    assert "org_id" in error_of(response)
    assert response.json()["details"]["param"] == "org_id"


def test_creating_a_workflow_in_a_workspace_the_user_is_not_in_is_400(
    api: httpx.Client, emulator: ServerHandle, info: dict
) -> None:
    with client(emulator, info["paid_api_key"]) as paid:
        foreign = paid.get("/users/me").json()["data"]["orgs"][0]["id"]
    response = api.post("/workflows", json={"template_id": "tch_3Lm9Qa", "org_id": foreign})
    assert response.status_code == 400
    assert "org_id" in error_of(response)


def test_creating_a_workflow_with_org_id_works(api: httpx.Client, info: dict) -> None:
    response = api.post("/workflows", json={"template_id": "tch_3Lm9Qa", "org_id": info["org_id"]})
    assert response.status_code == 200, response.text
    workflow = response.json()["data"]
    assert workflow["id"].startswith("p_")
    assert api.get(f"/workflows/{workflow['id']}").status_code == 200


def test_org_id_is_ignored_with_an_oauth_token(
    emulator: ServerHandle, info: dict, api: httpx.Client, oauth: httpx.Client
) -> None:
    with client(emulator, info["paid_api_key"]) as paid:
        foreign = paid.get("/users/me").json()["data"]["orgs"][0]["id"]
        created = oauth.post("/webhooks", params={"url": "https://example.com/hook", "org_id": foreign})
        assert created.status_code == 200, created.text
        webhook_id = created.json()["data"]["id"]
        # Not in the paid user's workspace...
        assert webhook_id not in {w["id"] for w in walk(paid, "/users/me/webhooks", limit=100)}
    # ...but in the token's workspace, which the demo user (a member) sees and the token may change.
    assert webhook_id in {w["id"] for w in walk(api, "/users/me/webhooks", limit=100)}
    assert oauth.delete(f"/webhooks/{webhook_id}").status_code == 200


def test_org_id_of_another_workspace_is_400_with_a_user_key_on_other_creations(
    api: httpx.Client, emulator: ServerHandle, info: dict
) -> None:
    with client(emulator, info["paid_api_key"]) as paid:
        foreign = paid.get("/users/me").json()["data"]["orgs"][0]["id"]
    response = api.post("/webhooks", params={"url": "https://example.com/hook", "org_id": foreign})
    assert response.status_code == 400
    assert "org_id" in error_of(response)


# --- /users/me --------------------------------------------------------------------------------------


def test_free_plan_user_record_has_daily_quotas_and_orgs(api: httpx.Client) -> None:
    user = api.get("/users/me").json()["data"]
    assert user["id"].startswith("u_")
    assert isinstance(user["username"], str) and "@" in user["email"]
    for field in (
        "daily_compute_time_quota",
        "daily_compute_time_used",
        "daily_invocations_quota",
        "daily_invocations_used",
    ):
        assert isinstance(user[field], int), field
    assert user["daily_compute_time_used"] <= user["daily_compute_time_quota"]
    assert not {"billing_period_start_ts", "billing_period_end_ts", "billing_period_credits"} & set(user)
    assert user["orgs"]
    for org in user["orgs"]:
        assert {"name", "id", "orgname", "email", "daily_credits_quota", "daily_credits_used"} <= set(org)
        assert org["id"].startswith("o_")
        assert isinstance(org["daily_credits_quota"], int) and isinstance(org["daily_credits_used"], int)


def test_free_plan_org_items_may_carry_compute_and_invocation_quotas(api: httpx.Client) -> None:
    orgs = api.get("/users/me").json()["data"]["orgs"]
    with_quotas = [o for o in orgs if "daily_compute_time_quota" in o]
    assert with_quotas
    for org in with_quotas:
        for field in ("daily_compute_time_used", "daily_invocations_quota", "daily_invocations_used"):
            assert isinstance(org[field], int)


def test_paid_plan_user_record_has_billing_period(emulator: ServerHandle, info: dict) -> None:
    with client(emulator, info["paid_api_key"]) as paid:
        user = paid.get("/users/me").json()["data"]
    for field in ("billing_period_start_ts", "billing_period_end_ts", "billing_period_credits"):
        assert isinstance(user[field], int), field
    assert user["billing_period_start_ts"] < user["billing_period_end_ts"]
    assert "daily_compute_time_quota" not in user
    assert user["orgs"] and user["orgs"][0]["id"].startswith("o_")


def test_workspace_of_info_is_one_of_the_users_orgs(api: httpx.Client, info: dict) -> None:
    orgs = api.get("/users/me").json()["data"]["orgs"]
    assert info["org_id"] in {o["id"] for o in orgs}


# --- accounts -----------------------------------------------------------------------------------------


def test_accounts_are_paginated_with_apn_ids_and_iso_timestamps(api: httpx.Client) -> None:
    body = api.get("/accounts", params={"limit": 3}).json()
    assert body["page_info"]["count"] == 3 == len(body["data"])
    assert body["page_info"]["total_count"] > 3
    for account in walk(api, "/accounts", limit=5):
        assert account["id"].startswith("apn_")
        assert set(account["app"]) == {"id", "name"}
        assert account["app"]["id"].startswith("app_")
        assert isinstance(account["healthy"], bool)
        assert account["name"] is None or isinstance(account["name"], str)
        assert is_iso8601(account["created_at"]) and is_iso8601(account["updated_at"])
        assert "credentials" not in account and "expires_at" not in account


def test_accounts_filter_by_app_id_and_by_name_slug_agree(api: httpx.Client) -> None:
    app_id = api.get("/apps/github").json()["data"]["id"]
    by_slug = walk(api, "/accounts", app="github")
    by_id = walk(api, "/accounts", app=app_id)
    assert by_slug and by_slug == by_id
    assert {a["app"]["id"] for a in by_slug} == {app_id}


def test_accounts_with_an_unknown_app_are_404(api: httpx.Client) -> None:
    response = api.get("/accounts", params={"app": "no_such_app"})
    assert response.status_code == 404
    assert "no_such_app" in error_of(response)


def test_include_credentials_adds_oauth_credentials_and_expires_at(api: httpx.Client) -> None:
    accounts = api.get("/accounts", params={"app": "github", "include_credentials": "true"}).json()["data"]
    assert accounts
    for account in accounts:
        assert set(account["credentials"]) >= {
            "oauth_access_token",
            "oauth_client_id",
            "oauth_refresh_token",
            "oauth_uid",
        }
        assert is_iso8601(account["expires_at"])


def test_include_credentials_of_a_keys_app_uses_its_custom_field_names(api: httpx.Client) -> None:
    app = api.get("/apps/openai").json()["data"]
    assert app["auth_type"] == "keys"
    fields = {f["name"] for f in json.loads(app["custom_fields_json"])}
    assert "api_key" in fields
    accounts = api.get("/accounts", params={"app": "openai", "include_credentials": True}).json()["data"]
    assert accounts
    for account in accounts:
        assert set(account["credentials"]) == fields
        assert "expires_at" in account
        assert "oauth_access_token" not in account["credentials"]


def test_credentials_are_absent_without_include_credentials(api: httpx.Client) -> None:
    for params in ({}, {"include_credentials": "false"}):
        for account in api.get("/accounts", params={**params, "limit": 100}).json()["data"]:
            assert "credentials" not in account and "expires_at" not in account


def test_include_credentials_must_be_a_boolean(api: httpx.Client) -> None:
    response = api.get("/accounts", params={"include_credentials": "maybe"})
    assert response.status_code == 400
    assert "include_credentials" in error_of(response)


def test_one_account_by_id(api: httpx.Client) -> None:
    listed = api.get("/accounts", params={"limit": 1}).json()["data"][0]
    response = api.get(f"/accounts/{listed['id']}")
    assert response.status_code == 200
    assert response.json()["data"] == listed


def test_one_account_with_credentials(api: httpx.Client) -> None:
    account_id = api.get("/accounts", params={"app": "github", "limit": 1}).json()["data"][0]["id"]
    plain = api.get(f"/accounts/{account_id}").json()["data"]
    secret = api.get(f"/accounts/{account_id}", params={"include_credentials": "true"}).json()["data"]
    assert "credentials" not in plain and "expires_at" not in plain
    assert "oauth_access_token" in secret["credentials"]
    assert "expires_at" in secret


def test_unknown_account_is_404(api: httpx.Client) -> None:
    response = api.get("/accounts/apn_nope")
    assert response.status_code == 404
    assert "apn_nope" in error_of(response)


def test_workspace_accounts_filter_by_app_name_and_carry_id_and_name(api: httpx.Client, info: dict) -> None:
    every = walk(api, f"/workspaces/{info['org_id']}/accounts", limit=100)
    assert len(every) > 1
    for account in every:
        assert set(account) == {"id", "name"}
        assert account["id"].startswith("apn_")
    github = walk(api, f"/workspaces/{info['org_id']}/accounts", query="GitHub")
    assert 0 < len(github) < len(every)
    github_ids = {a["id"] for a in walk(api, "/accounts", app="github")}
    assert {a["id"] for a in github} <= github_ids


def test_workspace_accounts_of_an_unknown_workspace_are_404(api: httpx.Client) -> None:
    response = api.get("/workspaces/o_nope/accounts")
    assert response.status_code == 404
    error_of(response)


def test_accounts_filter_by_external_user_id(api: httpx.Client, oauth: httpx.Client, info: dict) -> None:
    connect = oauth.get(f"/connect/{info['project_id']}/accounts", params={"limit": 1}).json()["data"]["accounts"]
    external = connect[0]["external_id"]
    accounts = walk(api, "/accounts", external_user_id=external)
    assert accounts
    assert {a["external_id"] for a in accounts} == {external}


def test_accounts_without_external_user_id_are_the_workspaces_own(api: httpx.Client) -> None:
    assert all("external_id" not in a for a in walk(api, "/accounts", limit=100))


def test_accounts_filter_by_unknown_external_user_id_is_empty(api: httpx.Client) -> None:
    body = api.get("/accounts", params={"external_user_id": "nobody@nowhere"}).json()
    assert body["data"] == [] and body["page_info"]["total_count"] == 0


# --- apps ---------------------------------------------------------------------------------------------


def test_apps_paginate_over_the_whole_catalogue(api: httpx.Client) -> None:
    first = api.get("/apps", params={"limit": 10}).json()
    total = first["page_info"]["total_count"]
    assert total >= 30
    pages, after = [], None
    while True:
        body = api.get("/apps", params={"limit": 10, **({"after": after} if after else {})}).json()
        assert body["page_info"]["count"] == len(body["data"]) <= 10
        pages.append(body["data"])
        after = body["page_info"]["end_cursor"]
        if not after:
            break
    ids = [app["id"] for page in pages for app in page]
    assert len(pages) == -(-total // 10)
    assert len(ids) == len(set(ids)) == total
    assert pages[0] == first["data"]


def test_app_records_have_the_spec_fields(api: httpx.Client) -> None:
    apps = walk(api, "/apps", limit=100)
    for app in apps:
        assert app["id"].startswith("app_")
        for field in ("name_slug", "name", "description", "img_src", "custom_fields_json"):
            assert isinstance(app[field], str), field
        assert isinstance(app["categories"], list)
        assert isinstance(json.loads(app["custom_fields_json"]), list)
    assert {app["auth_type"] for app in apps} == {"oauth", "keys"}


def test_custom_fields_of_a_keys_app_describe_each_field(api: httpx.Client) -> None:
    fields = json.loads(api.get("/apps/stripe").json()["data"]["custom_fields_json"])
    assert fields
    for field in fields:
        assert {"name", "label", "description", "default", "optional", "type"} <= set(field)


def test_apps_q_filters_the_catalogue(api: httpx.Client) -> None:
    everything = api.get("/apps").json()["page_info"]["total_count"]
    found = walk(api, "/apps", q="git")
    assert 0 < len(found) < everything
    assert "github" in {a["name_slug"] for a in found}
    for app in found:
        assert "git" in (app["name"] + app["name_slug"] + app["description"]).lower()


def test_apps_q_with_no_match_is_an_empty_page(api: httpx.Client) -> None:
    body = api.get("/apps", params={"q": "zzzz-no-app"}).json()
    assert body["data"] == [] and body["page_info"]["total_count"] == 0 and body["page_info"]["end_cursor"] == ""


def test_one_app_by_id_or_name_slug(api: httpx.Client) -> None:
    by_slug = api.get("/apps/slack")
    assert by_slug.status_code == 200
    app = by_slug.json()["data"]
    assert app["name_slug"] == "slack"
    assert api.get(f"/apps/{app['id']}").json()["data"] == app


def test_unknown_app_is_404(api: httpx.Client) -> None:
    response = api.get("/apps/no_such_app")
    assert response.status_code == 404
    error_of(response)


# --- components -----------------------------------------------------------------------------------------


def test_saving_component_code_returns_its_metadata(api: httpx.Client) -> None:
    response = api.post("/components", json={"component_code": HELLO_CODE})
    assert response.status_code == 200, response.text
    comp = response.json()["data"]
    assert comp["id"].startswith("sc_")
    assert comp["name"] == "Hello"
    assert comp["key"] == "aftui-test-hello"
    assert comp["version"] == "0.0.1"
    assert comp["type"] == "action"
    assert comp["code"] == HELLO_CODE
    assert isinstance(comp["code_hash"], str) and comp["code_hash"]
    assert isinstance(comp["created_at"], int) and not isinstance(comp["created_at"], bool)
    assert isinstance(comp["updated_at"], int)
    props = {p["name"]: p for p in comp["configurable_props"]}
    assert props["who"]["type"] == "string" and props["who"]["label"] == "Who"
    assert props["times"]["type"] == "integer"


def test_same_code_gives_the_same_code_hash(api: httpx.Client) -> None:
    first = api.post("/components", json={"component_code": HELLO_CODE}).json()["data"]
    second = api.post("/components", json={"component_code": HELLO_CODE}).json()["data"]
    other = api.post("/components", json={"component_code": HELLO_CODE.replace("0.0.1", "0.0.2")}).json()["data"]
    assert first["code_hash"] == second["code_hash"] != other["code_hash"]


def test_component_without_type_is_a_source(api: httpx.Client) -> None:
    comp = api.post("/components", json={"component_code": SERVED_CODE}).json()["data"]
    assert comp["type"] == "source"


def test_component_code_without_version_is_400_saying_why(api: httpx.Client) -> None:
    response = api.post("/components", json={"component_code": HELLO_CODE.replace('  version: "0.0.1",\n', "")})
    assert response.status_code == 400
    assert "version" in error_of(response)


def test_component_code_with_a_syntax_error_is_400_saying_why(api: httpx.Client) -> None:
    response = api.post("/components", json={"component_code": HELLO_CODE.replace('name: "Hello"', 'name: "Hello')})
    assert response.status_code == 400
    message = error_of(response)
    assert "unterminated" in message and "line" in message


def test_code_that_is_not_a_component_is_400(api: httpx.Client) -> None:
    response = api.post("/components", json={"component_code": "console.log('hi')"})
    assert response.status_code == 400
    assert "export default" in error_of(response)


def test_component_needs_code_or_url(api: httpx.Client) -> None:
    response = api.post("/components", json={})
    assert response.status_code == 400
    message = error_of(response)
    assert "component_code" in message and "component_url" in message


def test_component_url_of_a_registry_file_reads_the_registry_copy(api: httpx.Client) -> None:
    response = api.post("/components", json={"component_url": REGISTRY_URL})
    assert response.status_code == 200, response.text
    comp = response.json()["data"]
    registry = api.get("/components/registry/github-new-issue").json()["data"]
    assert comp["key"] == "github-new-issue"
    assert comp["code"] == registry["code"]
    assert comp["component_url"] == REGISTRY_URL
    assert comp["id"] != registry["id"]


def test_component_code_wins_over_component_url_which_is_kept_as_metadata(api: httpx.Client) -> None:
    response = api.post("/components", json={"component_code": HELLO_CODE, "component_url": REGISTRY_URL})
    assert response.status_code == 200
    comp = response.json()["data"]
    assert comp["key"] == "aftui-test-hello"
    assert comp["code"] == HELLO_CODE
    assert comp["component_url"] == REGISTRY_URL


@pytest.fixture
def code_server() -> Iterator[str]:
    """A tiny HTTP server on loopback: /served.mjs answers SERVED_CODE, anything else 404."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path == "/components/served.mjs":
                body = SERVED_CODE.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/javascript")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            else:
                self.send_error(404)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def test_component_url_elsewhere_is_fetched_for_real(api: httpx.Client, code_server: str) -> None:
    url = f"{code_server}/components/served.mjs"
    response = api.post("/components", json={"component_url": url})
    assert response.status_code == 200, response.text
    comp = response.json()["data"]
    assert comp["key"] == "aftui-test-served"
    assert comp["version"] == "2.1.0"
    assert comp["code"] == SERVED_CODE
    assert comp["component_url"] == url


def test_component_url_that_answers_404_is_400(api: httpx.Client, code_server: str) -> None:
    response = api.post("/components", json={"component_url": f"{code_server}/components/missing.mjs"})
    assert response.status_code == 400
    assert "404" in error_of(response)


def test_component_url_nobody_listens_on_is_400(api: httpx.Client) -> None:
    response = api.post("/components", json={"component_url": "http://127.0.0.1:9/nothing-here.mjs"})
    assert response.status_code == 400
    assert "component_url" in error_of(response)


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/x.mjs",
        "not a url",
        "http:///x.mjs",
        "http://[::1/x.mjs",
        "http://localhost:99999/x.mjs",
        "http://localhost:port/x.mjs",
    ],
)
def test_invalid_component_url_is_400(api: httpx.Client, url: str) -> None:
    response = api.post("/components", json={"component_url": url})
    assert response.status_code == 400, response.text
    assert "component_url" in error_of(response)


def test_saved_component_is_read_by_key_and_by_id(api: httpx.Client) -> None:
    saved = api.post("/components", json={"component_code": HELLO_CODE}).json()["data"]
    by_key = api.get("/components/aftui-test-hello")
    by_id = api.get(f"/components/{saved['id']}")
    assert by_key.status_code == by_id.status_code == 200
    assert by_key.json()["data"] == by_id.json()["data"] == saved


def test_components_key_of_a_registry_component_reads_it(api: httpx.Client) -> None:
    response = api.get("/components/slack-send-message")
    assert response.status_code == 200
    assert response.json()["data"]["key"] == "slack-send-message"


def test_registry_component_by_key(api: httpx.Client) -> None:
    response = api.get("/components/registry/github-new-issue")
    assert response.status_code == 200
    comp = response.json()["data"]
    assert comp["key"] == "github-new-issue"
    assert comp["type"] == "source"
    assert comp["name"] == "New Issue"
    assert {"github", "timer", "repo"} <= {p["name"] for p in comp["configurable_props"]}
    assert isinstance(comp["created_at"], int)


def test_unknown_component_is_404(api: httpx.Client) -> None:
    for path in ("/components/no-such-component", "/components/sc_nope", "/components/registry/no-such-component"):
        response = api.get(path)
        assert response.status_code == 404, path
        error_of(response)


def test_saved_component_is_not_in_the_public_registry(api: httpx.Client) -> None:
    api.post("/components", json={"component_code": HELLO_CODE})
    assert api.get("/components/registry/aftui-test-hello").status_code == 404


# --- component search ---------------------------------------------------------------------------------


def search(api: httpx.Client, **params: object) -> httpx.Response:
    return api.get("/components/search", params=params)


def test_search_answers_source_and_action_keys(api: httpx.Client) -> None:
    body = search(api, query="new issue in github").json()
    assert set(body) == {"sources", "actions"}
    assert all(isinstance(k, str) for k in body["sources"] + body["actions"])
    for key in body["sources"]:
        assert api.get(f"/components/registry/{key}").json()["data"]["type"] == "source"
    for key in body["actions"]:
        assert api.get(f"/components/registry/{key}").json()["data"]["type"] == "action"


def test_search_ranks_the_best_match_first(api: httpx.Client) -> None:
    body = search(api, query="new issue in github").json()
    assert body["sources"][0] == "github-new-issue"
    assert body["actions"][0] == "github-create-issue"
    assert search(api, query="send a message to slack").json()["actions"][0] == "slack-send-message"


def test_higher_similarity_threshold_gives_a_subset(api: httpx.Client) -> None:
    loose = search(api, query="new issue in github", similarity_threshold=0.05).json()
    strict = search(api, query="new issue in github", similarity_threshold=0.5).json()
    assert set(strict["sources"]) <= set(loose["sources"]) and set(strict["actions"]) <= set(loose["actions"])
    assert len(strict["sources"]) + len(strict["actions"]) < len(loose["sources"]) + len(loose["actions"])
    assert "github-new-issue" in strict["sources"]


def test_similarity_threshold_of_one_or_zero_is_allowed(api: httpx.Client) -> None:
    assert search(api, query="github", similarity_threshold=1).status_code == 200
    assert search(api, query="github", similarity_threshold=0).status_code == 200


@pytest.mark.parametrize("threshold", ["-0.1", "1.5", "abc", "nan", "inf"])
def test_similarity_threshold_out_of_range_is_400(api: httpx.Client, threshold: str) -> None:
    response = search(api, query="github", similarity_threshold=threshold)
    assert response.status_code == 400
    assert "similarity_threshold" in error_of(response)


def test_search_without_query_is_400(api: httpx.Client) -> None:
    for params in ({}, {"query": ""}):
        response = search(api, **params)
        assert response.status_code == 400
        assert "query" in error_of(response)


def test_search_app_filter_keeps_only_that_apps_components(api: httpx.Client) -> None:
    body = search(api, query="new message", app="slack", similarity_threshold=0).json()
    keys = body["sources"] + body["actions"]
    assert keys
    assert all(k.startswith("slack-") for k in keys)
    assert "slack-new-message-in-channels" in body["sources"]


def test_search_with_an_unknown_app_is_404(api: httpx.Client) -> None:
    response = search(api, query="anything", app="no_such_app")
    assert response.status_code == 404
    error_of(response)


def test_search_debug_shows_scores(api: httpx.Client) -> None:
    plain = search(api, query="new issue in github").json()
    debug = search(api, query="new issue in github", debug="true").json()
    assert "debug" not in plain
    scores = debug["debug"]["scores"]
    assert set(scores) == set(debug["sources"]) | set(debug["actions"])
    assert all(0 <= s <= 1 for s in scores.values())
    assert min(scores.values()) >= debug["debug"]["similarity_threshold"]
    ranked = [scores[k] for k in debug["sources"]]
    assert ranked == sorted(ranked, reverse=True)
    assert debug["sources"] == plain["sources"]


def test_search_limit_caps_each_list(api: httpx.Client) -> None:
    body = search(api, query="new", similarity_threshold=0, limit=1).json()
    assert len(body["sources"]) <= 1 and len(body["actions"]) <= 1
    assert search(api, query="new", limit=0).status_code == 400


def test_search_works_with_an_oauth_token(oauth: httpx.Client) -> None:
    assert oauth.get("/components/search", params={"query": "github"}).status_code == 200
