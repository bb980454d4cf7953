"""Who is calling: user API keys and OAuth access tokens (signed JWTs)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import jwt
from .errors import ApiProblem, bad_request, unauthorized
from .store import OAuthClient, Store, User

DEFAULT_TOKEN_LIFETIME = 3600


@dataclass(frozen=True)
class Principal:
    kind: str  # "user" or "oauth"
    user: User
    org_ids: tuple[str, ...]
    token: str

    @property
    def is_user_key(self) -> bool:
        return self.kind == "user"

    def can_see(self, org_id: str | None) -> bool:
        return org_id in self.org_ids

    def workspace(self, params: Mapping[str, Any], *, required: bool = False) -> str:
        """The workspace a new resource goes to.

        OAuth tokens carry their workspace and ignore `org_id`; user keys
        name it with `org_id`, falling back to the user's first workspace
        where the spec does not require it.
        """
        if not self.is_user_key:
            return self.org_ids[0]
        org_id = params.get("org_id")
        if not org_id:
            if required:
                raise ApiProblem(
                    400, "org_id is required with a user API key", code="missing_parameter", details={"param": "org_id"}
                )
            return self.org_ids[0]
        if not isinstance(org_id, str) or org_id not in self.org_ids:
            raise bad_request(f"org_id {org_id} is not a workspace of this user", param="org_id")
        return org_id


def bearer(header: str | None) -> str:
    if not header:
        raise unauthorized("missing Authorization header; send Authorization: Bearer <token>")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise unauthorized("Authorization must be Bearer <token>")
    return token.strip()


def authenticate(store: Store, secret: bytes, header: str | None) -> Principal:
    token = bearer(header)
    if token.count(".") == 2:
        return _oauth_principal(store, secret, token)
    user = store.user_by_key(token)
    if user is None:
        if any(token in u.revoked_keys for u in store.users.values()):
            raise unauthorized("this API key has been revoked")
        raise unauthorized("invalid API key")
    return Principal("user", user, tuple(user.org_ids), token)


def _oauth_principal(store: Store, secret: bytes, token: str) -> Principal:
    claims = jwt.verify(token, secret)
    if claims is None:
        raise unauthorized("invalid access token")
    if claims.get("jti") in store.revoked_tokens:
        raise unauthorized("this access token has been revoked")
    if int(claims.get("exp", 0)) <= store.clock.now_s():
        raise unauthorized("this access token has expired")
    client = store.oauth_clients.get(str(claims.get("sub")))
    if client is None:
        raise unauthorized("the OAuth client of this token no longer exists")
    return Principal("oauth", _acting_user(store, client), (client.org_id,), token)


def _acting_user(store: Store, client: OAuthClient) -> User:
    """Resources created with a workspace token are owned by its first member."""
    return next(u for u in store.users.values() if client.org_id in u.org_ids)


def issue_token(store: Store, secret: bytes, client: OAuthClient, lifetime: int) -> dict[str, Any]:
    now = store.clock.now_s()
    claims = {
        "sub": client.client_id,
        "org": client.org_id,
        "iat": now,
        "exp": now + lifetime,
        "jti": store.ids.token("jti_", 16),
    }
    return {
        "access_token": jwt.sign(claims, secret),
        "token_type": "Bearer",
        "expires_in": lifetime,
        "created_at": now,
    }


def revoke_token(store: Store, secret: bytes, token: str) -> bool:
    claims = jwt.verify(token, secret)
    if claims is None or "jti" not in claims:
        return False
    store.revoked_tokens.add(str(claims["jti"]))
    return True
