"""The demo people's ids and secrets: the first draws of the emulator's id generator.

They are drawn before anything else (`demo.populate`), so the seed alone gives
them. That lets `aftui demo`'s emulator process say what a client needs (the
demo key, workspace and project) as soon as it starts, from this module and
`ids` alone, and build the rest while the TUI starts: the client's first
requests wait in the socket's backlog (`emulator/child.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .ids import IdFactory
from .sockets import base_url_of


@dataclass(frozen=True)
class DemoIdentity:
    personal_org_id: str
    acme_org_id: str
    user_id: str
    api_key: str
    paid_org_id: str
    paid_user_id: str
    paid_api_key: str
    client_id: str
    client_secret: str
    project_id: str


def draw_identity(ids: IdFactory) -> DemoIdentity:
    """The people's ids and secrets, in the order drawn: a new draw goes last, or every id after it changes."""
    return DemoIdentity(
        personal_org_id=ids.new("o_"),
        acme_org_id=ids.new("o_"),
        user_id=ids.new("u_"),
        api_key=ids.token("", 32).lower(),
        paid_org_id=ids.new("o_"),
        paid_user_id=ids.new("u_"),
        paid_api_key=ids.token("", 32).lower(),
        client_id=ids.token("", 22),
        client_secret=ids.token("", 40),
        project_id=ids.new("proj_"),
    )


def description(identity: DemoIdentity, root_url: str, *, seed: int, activity: bool) -> dict[str, Any]:
    """What a user needs to connect (`Emulator.describe`): URLs, the demo key and OAuth client."""
    return {
        "base_url": base_url_of(root_url),
        "root_url": root_url,
        "api_key": identity.api_key,
        "paid_api_key": identity.paid_api_key,
        "oauth_client_id": identity.client_id,
        "oauth_client_secret": identity.client_secret,
        "org_id": identity.acme_org_id,
        "project_id": identity.project_id,
        "seed": seed,
        "activity": activity,
    }
