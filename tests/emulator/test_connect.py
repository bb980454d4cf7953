"""The project-scoped Connect API of the emulator, over HTTP."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from aftui.emulator.server import ServerHandle

PROD = {"X-PD-Environment": "production"}
DEV = {"X-PD-Environment": "development"}


@pytest.fixture
def base(info: dict) -> str:
    return f"/connect/{info['project_id']}"


def accounts(api: httpx.Client, base: str, headers: dict[str, str] = PROD, **params: Any) -> list[dict[str, Any]]:
    """Every account of a listing (one page of 100 is enough for the demo, checked)."""
    response = api.get(f"{base}/accounts", params={"limit": 100, **params}, headers=headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert not body["page_info"]["end_cursor"], "more than one page; follow the cursor"
    return body["data"]["accounts"]


def parse_iso(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def now_ms(root: httpx.Client) -> int:
    return root.get("/_emulator/clock").json()["now_ms"]


# --- environments and projects ---------------------------------------------------------------------


def test_production_and_development_hold_different_accounts(api: httpx.Client, base: str) -> None:
    prod = {a["id"] for a in accounts(api, base, PROD)}
    dev = {a["id"] for a in accounts(api, base, DEV)}
    assert prod and dev
    assert not prod & dev


def test_an_account_is_not_found_in_the_other_environment(api: httpx.Client, base: str) -> None:
    account_id = accounts(api, base, PROD)[0]["id"]
    assert api.get(f"{base}/accounts/{account_id}", headers=PROD).status_code == 200
    assert api.get(f"{base}/accounts/{account_id}", headers=DEV).status_code == 404


def test_a_bad_environment_is_400(api: httpx.Client, base: str) -> None:
    response = api.get(f"{base}/accounts", headers={"X-PD-Environment": "staging"})
    assert response.status_code == 400
    assert "X-PD-Environment" in response.json()["error"]


def test_an_unknown_project_is_404(api: httpx.Client) -> None:
    assert api.get("/connect/proj_nothere/accounts", headers=PROD).status_code == 404
    assert api.post("/connect/proj_nothere/tokens", json={"external_user_id": "u1"}, headers=PROD).status_code == 404


def test_connect_works_with_an_oauth_token(oauth: httpx.Client, base: str) -> None:
    assert oauth.get(f"{base}/accounts", params={"limit": 1}, headers=PROD).status_code == 200


# --- tokens ------------------------------------------------------------------------------------------


def test_token_has_a_token_and_an_iso_8601_expiry_in_the_future(
    api: httpx.Client, root: httpx.Client, base: str
) -> None:
    response = api.post(
        f"{base}/tokens",
        json={"external_user_id": "user-abc", "success_redirect_uri": "https://app.example/ok"},
        headers=PROD,
    )
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"token", "expires_at", "connect_link_url"}
    assert body["token"]
    assert parse_iso(body["expires_at"]).timestamp() * 1000 > now_ms(root)


def test_token_carries_its_connect_link_on_the_emulators_root(api: httpx.Client, info: dict, base: str) -> None:
    body = api.post(f"{base}/tokens", json={"external_user_id": "user-link"}, headers=PROD).json()
    link = httpx.URL(body["connect_link_url"])
    assert link.path == "/_static/connect.html"
    assert link.params["token"] == body["token"]
    assert link.params["connectLink"] == "true"
    assert str(link).startswith(info["root_url"] + "/")


def test_token_external_user_id_of_250_characters_is_accepted(api: httpx.Client, base: str) -> None:
    assert api.post(f"{base}/tokens", json={"external_user_id": "x" * 250}, headers=PROD).status_code == 200


def test_token_external_user_id_over_250_characters_is_400(api: httpx.Client, base: str) -> None:
    response = api.post(f"{base}/tokens", json={"external_user_id": "x" * 251}, headers=PROD)
    assert response.status_code == 400
    assert "external_user_id" in response.json()["error"]


def test_token_without_external_user_id_is_400(api: httpx.Client, base: str) -> None:
    response = api.post(f"{base}/tokens", json={}, headers=PROD)
    assert response.status_code == 400
    assert "external_user_id" in response.json()["error"]


def test_token_creation_is_limited_to_100_a_minute_per_external_user(api: httpx.Client, base: str) -> None:
    for n in range(100):
        response = api.post(f"{base}/tokens", json={"external_user_id": "busy-user"}, headers=PROD)
        assert response.status_code == 200, f"request {n + 1}: {response.text}"
    assert response.headers["X-RateLimit-Remaining"] == "0"
    throttled = api.post(f"{base}/tokens", json={"external_user_id": "busy-user"}, headers=PROD)
    assert throttled.status_code == 429
    assert throttled.json()["error"] == "Throttled"
    assert int(throttled.headers["Retry-After"]) >= 1
    assert throttled.headers["X-RateLimit-Limit"] == "100"
    assert throttled.headers["X-RateLimit-Remaining"] == "0"
    assert int(throttled.headers["X-RateLimit-Reset"]) > 0


def test_token_limit_of_one_external_user_leaves_another_alone(api: httpx.Client, base: str) -> None:
    for _ in range(100):
        api.post(f"{base}/tokens", json={"external_user_id": "busy-user"}, headers=PROD)
    assert api.post(f"{base}/tokens", json={"external_user_id": "busy-user"}, headers=PROD).status_code == 429
    calm = api.post(f"{base}/tokens", json={"external_user_id": "calm-user"}, headers=PROD)
    assert calm.status_code == 200
    assert calm.headers["X-RateLimit-Remaining"] == "99"


def test_token_limit_resets_after_a_minute(api: httpx.Client, root: httpx.Client, base: str) -> None:
    for _ in range(100):
        api.post(f"{base}/tokens", json={"external_user_id": "busy-user"}, headers=PROD)
    assert api.post(f"{base}/tokens", json={"external_user_id": "busy-user"}, headers=PROD).status_code == 429
    assert root.post("/_emulator/clock", json={"advance": 60}).status_code == 200
    assert api.post(f"{base}/tokens", json={"external_user_id": "busy-user"}, headers=PROD).status_code == 200


def test_token_rate_limit_answers_carry_the_limit_headers(api: httpx.Client, base: str) -> None:
    response = api.post(f"{base}/tokens", json={"external_user_id": "fresh"}, headers=PROD)
    assert response.headers["X-RateLimit-Limit"] == "100"
    assert response.headers["X-RateLimit-Remaining"] == "99"
    assert "X-RateLimit-Reset" in response.headers


# --- account reads -------------------------------------------------------------------------------------


def test_account_list_is_nested_under_data_accounts(api: httpx.Client, base: str) -> None:
    response = api.get(f"{base}/accounts", params={"limit": 5}, headers=PROD)
    body = response.json()
    assert set(body["data"]) == {"accounts"}
    assert len(body["data"]["accounts"]) == 5
    account = body["data"]["accounts"][0]
    assert account["id"].startswith("apn_")
    assert {"name", "external_id", "healthy", "dead", "app", "created_at", "updated_at"} <= set(account)
    assert set(account["app"]) == {"id", "name"}
    assert isinstance(account["healthy"], bool) and isinstance(account["dead"], bool)
    parse_iso(account["created_at"])
    assert "credentials" not in account


def test_account_list_filters_by_app_slug_or_id(api: httpx.Client, base: str) -> None:
    slack_id = api.get("/apps/slack").json()["data"]["id"]
    by_slug = accounts(api, base, app="slack")
    assert by_slug and all(a["app"]["id"] == slack_id for a in by_slug)
    assert accounts(api, base, app=slack_id) == by_slug
    assert len(by_slug) < len(accounts(api, base))


def test_account_list_filters_by_external_user_id(api: httpx.Client, base: str) -> None:
    external = accounts(api, base)[0]["external_id"]
    mine = accounts(api, base, external_user_id=external)
    assert mine and all(a["external_id"] == external for a in mine)


def test_account_list_filters_by_oauth_app_id(api: httpx.Client, emulator: ServerHandle, base: str) -> None:
    oauth_app_id = next(
        a.oauth_app_id
        for a in emulator.emulator.store.accounts.values()
        if a.oauth_app_id and a.environment == "production"
    )
    listed = accounts(api, base, oauth_app_id=oauth_app_id)
    expected = {
        a.id
        for a in emulator.emulator.store.accounts.values()
        if a.oauth_app_id == oauth_app_id and a.environment == "production"
    }
    assert {a["id"] for a in listed} == expected


def test_single_account_read_has_the_full_app_record(api: httpx.Client, base: str) -> None:
    account = accounts(api, base)[0]
    data = api.get(f"{base}/accounts/{account['id']}", headers=PROD).json()["data"]
    assert data["external_id"] == account["external_id"]
    app = api.get(f"/apps/{data['app']['id']}").json()["data"]
    assert data["app"] == app
    assert {"name_slug", "auth_type", "img_src", "custom_fields_json", "categories"} <= set(data["app"])
    assert "credentials" not in data


def test_include_credentials_adds_credentials_and_refresh_details(api: httpx.Client, base: str) -> None:
    account = accounts(api, base, app="slack")[0]
    data = api.get(f"{base}/accounts/{account['id']}", params={"include_credentials": "true"}, headers=PROD).json()[
        "data"
    ]
    assert {"oauth_access_token", "oauth_client_id", "oauth_refresh_token", "oauth_uid"} <= set(data["credentials"])
    parse_iso(data["expires_at"])
    assert isinstance(data["project_id"], int)
    assert isinstance(data["user_id"], str)
    assert "error" in data and "last_refreshed_at" in data
    parse_iso(data["next_refresh_at"])


def test_include_credentials_on_the_list_adds_credentials(api: httpx.Client, base: str) -> None:
    listed = accounts(api, base, include_credentials="true", app="slack")
    assert listed and all("credentials" in a for a in listed)


def test_an_unknown_account_is_404(api: httpx.Client, base: str) -> None:
    assert api.get(f"{base}/accounts/apn_nothere", headers=PROD).status_code == 404


def test_account_reads_are_limited_to_100_a_minute_across_endpoints(api: httpx.Client, base: str) -> None:
    account_id = accounts(api, base)[0]["id"]  # read 1
    for n in range(99):
        response = (
            api.get(f"{base}/accounts", params={"limit": 1}, headers=PROD)
            if n % 2
            else api.get(f"{base}/accounts/{account_id}", headers=PROD)
        )
        assert response.status_code == 200, f"read {n + 2}: {response.text}"
    throttled = api.get(f"{base}/accounts/{account_id}", headers=PROD)
    assert throttled.status_code == 429
    assert throttled.json()["error"] == "Throttled"
    assert "Retry-After" in throttled.headers
    assert api.get(f"{base}/accounts", headers=PROD).status_code == 429


# --- deletions ------------------------------------------------------------------------------------------


def test_deleting_an_account_is_204_and_it_is_gone(api: httpx.Client, base: str) -> None:
    account_id = accounts(api, base)[0]["id"]
    response = api.delete(f"{base}/accounts/{account_id}", headers=PROD)
    assert response.status_code == 204
    assert response.content == b""
    assert api.get(f"{base}/accounts/{account_id}", headers=PROD).status_code == 404
    assert account_id not in {a["id"] for a in accounts(api, base)}


def test_deleting_the_accounts_of_a_keys_app_by_name_slug(api: httpx.Client, base: str) -> None:
    keys_slug = next(
        slug
        for slug in ("openai", "stripe", "airtable")
        if api.get(f"/apps/{slug}").json()["data"]["auth_type"] == "keys" and accounts(api, base, app=slug)
    )
    others = len(accounts(api, base)) - len(accounts(api, base, app=keys_slug))
    assert api.delete(f"{base}/apps/{keys_slug}/accounts", headers=PROD).status_code == 204
    assert accounts(api, base, app=keys_slug) == []
    assert len(accounts(api, base)) == others


def test_deleting_the_accounts_of_an_oauth_app_by_oauth_app_id(
    api: httpx.Client, emulator: ServerHandle, base: str
) -> None:
    oauth_app_id = next(
        a.oauth_app_id
        for a in emulator.emulator.store.accounts.values()
        if a.oauth_app_id and a.environment == "production"
    )
    assert accounts(api, base, oauth_app_id=oauth_app_id)
    assert api.delete(f"{base}/apps/{oauth_app_id}/accounts", headers=PROD).status_code == 204
    assert accounts(api, base, oauth_app_id=oauth_app_id) == []


def test_deleting_the_accounts_of_an_app_leaves_the_other_environment(api: httpx.Client, base: str) -> None:
    dev_before = accounts(api, base, DEV)
    slug = next(s for s in ("openai", "stripe", "airtable") if accounts(api, base, app=s))
    api.delete(f"{base}/apps/{slug}/accounts", headers=PROD)
    assert accounts(api, base, DEV) == dev_before


def test_deleting_an_end_user_is_204_and_removes_their_accounts(api: httpx.Client, base: str) -> None:
    external = accounts(api, base)[0]["external_id"]
    users_before = api.get(f"{base}/info", headers=PROD).json()["data"]["end_user_count"]
    response = api.delete(f"{base}/users/{external}", headers=PROD)
    assert response.status_code == 204
    assert accounts(api, base, external_user_id=external) == []
    assert external not in {a["external_id"] for a in accounts(api, base)}
    assert api.get(f"{base}/info", headers=PROD).json()["data"]["end_user_count"] == users_before - 1
    assert api.delete(f"{base}/users/{external}", headers=PROD).status_code == 404


def test_an_end_user_made_by_a_token_can_be_deleted(api: httpx.Client, base: str) -> None:
    api.post(f"{base}/tokens", json={"external_user_id": "just-signed-up"}, headers=DEV)
    assert api.delete(f"{base}/users/just-signed-up", headers=PROD).status_code == 404
    assert api.delete(f"{base}/users/just-signed-up", headers=DEV).status_code == 204


@pytest.mark.parametrize("external", ["org-7/user-42", "ann+test@example.com", "name with spaces"])
def test_an_end_user_with_any_characters_in_their_id_can_be_deleted(
    api: httpx.Client, base: str, external: str
) -> None:
    assert api.post(f"{base}/tokens", json={"external_user_id": external}, headers=PROD).status_code == 200
    assert api.delete(f"{base}/users/{quote(external, safe='')}", headers=PROD).status_code == 204
    assert api.delete(f"{base}/users/{quote(external, safe='')}", headers=PROD).status_code == 404


# --- info -------------------------------------------------------------------------------------------------


def test_info_describes_the_project_per_environment(api: httpx.Client, base: str, info: dict) -> None:
    prod = api.get(f"{base}/info", headers=PROD).json()["data"]
    dev = api.get(f"{base}/info", headers=DEV).json()["data"]
    assert prod["id"] == dev["id"] == info["project_id"]
    assert (prod["environment"], dev["environment"]) == ("production", "development")
    assert prod["account_count"] == len(accounts(api, base, PROD))
    assert dev["account_count"] == len(accounts(api, base, DEV))
    assert prod["end_user_count"] == len({a["external_id"] for a in accounts(api, base, PROD)})
