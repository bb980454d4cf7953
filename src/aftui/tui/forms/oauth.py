"""OAuth in the profile form: test the typed client credentials, revoke the token of the profile in use.

The test fetches one token with what is typed (nothing is saved) and revokes
it straight after, so a test leaves no live token behind. Revoking the
current token is logging out of the service: the client allows it in a
read-only profile too (it changes no resource), and the next call fetches a
new token by itself, so the session carries on.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
from rich.text import Text
from textual.widget import Widget

from ...api import ApiError, Client
from ...api.auth import OAuthAuth
from ...api.client import USER_AGENT
from ...text import visible
from ..change import describe_error, said_by
from ..modals.confirm import ConfirmScreen

TEST_TIMEOUT = httpx.Timeout(15.0, connect=5.0)


async def check_client_credentials(base_url: str, client_id: str, client_secret: str, *, now: datetime) -> Text:
    """Fetch a token with these credentials, say for how long it is valid, revoke it; `ApiError` when refused."""
    auth = OAuthAuth(base_url.rstrip("/"), client_id, client_secret)
    async with httpx.AsyncClient(timeout=TEST_TIMEOUT, headers={"User-Agent": USER_AGENT}) as http:
        await auth.header(http)  # the token request itself; a refusal is an AuthError with the server's words
        seconds = round(auth.expires_in or 0)  # measured a moment after the answer: 3599.99 s is the hour it was given
        try:
            await auth.revoke(http)
            after = "the test token was revoked again"
        except ApiError:
            after = "the test token could not be revoked (it expires by itself)"
    until = (now + timedelta(seconds=seconds)).astimezone(UTC).strftime("%H:%M UTC")
    return Text.assemble(
        ("✓ OK", "bold green"),
        f": the service issued a token for {visible(client_id, 60)}, valid for {_duration(seconds)} (until {until}). ",
        (f"Nothing was saved; {after}.", "dim"),
    )


def refused(error: ApiError) -> Text:
    return Text.assemble(("✗ Refused", "bold red"), ": ", describe_error(error))


def _duration(seconds: int) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{seconds // 3600} h"
    if seconds >= 60:
        return f"{seconds // 60} min"
    return f"{seconds} s"


def revocable(client: Client | None) -> bool:
    return client is not None and isinstance(client.auth, OAuthAuth)


async def revoke_current_token(owner: Widget, client: Client, profile_name: str) -> Text | None:
    """Ask, then revoke the session's OAuth token; the outcome in words (None when the user said no)."""
    auth = client.auth
    if not isinstance(auth, OAuthAuth):
        return Text("This profile signs in with a user API key: there is no OAuth token to revoke.")
    if auth.token is None:
        return Text("aftui holds no token for this profile yet (it fetches one on the first call): nothing to revoke.")
    confirm = ConfirmScreen(
        "Revoke the current OAuth token?",
        [
            f"the access token aftui holds for OAuth client {auth.client_id} (profile {profile_name})",
            "the service stops accepting it at once",
            "aftui fetches a new token on its next call; the client and its secret stay as they are",
        ],
        action="Revoke",
    )
    if not await owner.app.push_screen_wait(confirm):
        return None
    try:
        await client.revoke()
    except ApiError as error:
        owner.notify(describe_error(error), title=said_by(error), severity="error", markup=False)
        return refused(error)
    owner.notify(
        f"Revoked the OAuth token of profile {visible(profile_name, 40)}: the next call fetches a new one", markup=False
    )
    return Text.assemble(("✓ Revoked", "bold green"), ": the next call fetches a new token.")
