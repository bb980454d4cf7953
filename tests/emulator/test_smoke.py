"""The emulator starts, serves the demo and answers as the spec's conventions say."""

from __future__ import annotations

import httpx


def test_users_me_answers_with_the_demo_user(api: httpx.Client) -> None:
    response = api.get("/users/me")
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["id"].startswith("u_")
    assert len(data["orgs"]) == 2


def test_every_path_works_with_and_without_trailing_slash(api: httpx.Client) -> None:
    assert api.get("/users/me/sources").json() == api.get("/users/me/sources/").json()
