"""Environment overrides: the profile to connect with, after the AFTUI_* variables."""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from .demo import demo_chosen, running_demo
from .errors import ConfigError, ProfileError
from .profiles import API_KEY_FIELDS, CLIENT_SECRET_FIELDS, Config, Profile

__all__ = ["effective_profile"]

# Environment variables that override single fields of the chosen profile.
_FIELD_OVERRIDES = {
    "base_url": "AFTUI_BASE_URL",
    "org_id": "AFTUI_ORG_ID",
    "project_id": "AFTUI_PROJECT_ID",
    "environment": "AFTUI_ENVIRONMENT",
}
_TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
_FALSE_WORDS = frozenset({"", "0", "false", "no", "off"})


def effective_profile(config: Config, name: str | None = None) -> Profile:
    """The profile to connect with: `config.get(name)` with AFTUI_* variables applied.

    AFTUI_PROFILE picks the profile (when `name` is None). AFTUI_BASE_URL,
    AFTUI_ORG_ID, AFTUI_PROJECT_ID and AFTUI_ENVIRONMENT replace those fields.
    AFTUI_API_KEY, or AFTUI_CLIENT_ID / AFTUI_CLIENT_SECRET, replace the
    profile's credential. AFTUI_READ_ONLY=1/true/yes makes it read-only; it
    cannot make a read-only profile writable, so a stray variable never
    disarms that guard. With no profiles at all but a credential in the
    environment, an ad-hoc profile named "env" is used.
    """
    overrides = _env_overrides()
    base = _base_profile(config, name, overrides)
    if not overrides:
        return base
    try:
        return dataclasses.replace(base, **overrides)
    except ProfileError as error:
        raise _override_error(error, overrides) from None


def _base_profile(config: Config, name: str | None, overrides: dict[str, Any]) -> Profile:
    if name is None and not os.environ.get("AFTUI_PROFILE") and not config.profiles:
        if any(key in overrides for key in ("api_key", "client_id", "client_secret")):
            return Profile(name="env")
        raise ConfigError(
            "no profiles are configured and AFTUI_API_KEY is not set: add one with "
            "`aftui config add NAME --api-key-env VAR --org-id o_...` (aftui config add --help), "
            "or try `aftui demo`"
        )
    if demo_chosen(config, name):
        return running_demo()
    return config.get(name)


def _env_overrides() -> dict[str, Any]:
    """Changes to a profile asked for by AFTUI_* variables; empty ones count as unset."""
    overrides: dict[str, Any] = {
        key: value for key, variable in _FIELD_OVERRIDES.items() if (value := os.environ.get(variable))
    }
    overrides.update(_credential_overrides())
    read_only = os.environ.get("AFTUI_READ_ONLY", "").strip().lower()
    if read_only in _TRUE_WORDS:
        overrides["read_only"] = True
    elif read_only not in _FALSE_WORDS:
        raise ConfigError(
            f"AFTUI_READ_ONLY must be one of {', '.join(sorted(_TRUE_WORDS))} (read-only) or"
            f" {', '.join(sorted(w for w in _FALSE_WORDS if w))} (as the profile says; it never lifts a"
            f' read-only profile), got "{os.environ["AFTUI_READ_ONLY"]}"'
        )
    return overrides


def _credential_overrides() -> dict[str, Any]:
    # A credential from the environment replaces the profile's whole
    # credential: mixing a key from one place with a client from another
    # would be an invalid profile.
    api_key = os.environ.get("AFTUI_API_KEY")
    client_id = os.environ.get("AFTUI_CLIENT_ID")
    client_secret = os.environ.get("AFTUI_CLIENT_SECRET")
    if api_key and (client_id or client_secret):
        raise ConfigError("set either AFTUI_API_KEY or AFTUI_CLIENT_ID and AFTUI_CLIENT_SECRET, not both")
    if api_key:
        cleared = dict.fromkeys((*API_KEY_FIELDS, "client_id", *CLIENT_SECRET_FIELDS))
        return {**cleared, "api_key": api_key}
    if not (client_id or client_secret):
        return {}
    overrides: dict[str, Any] = dict.fromkeys(API_KEY_FIELDS)
    if client_id:
        overrides["client_id"] = client_id
    if client_secret:
        overrides.update(dict.fromkeys(CLIENT_SECRET_FIELDS), client_secret=client_secret)
    return overrides


_OVERRIDE_VARIABLES = {
    **_FIELD_OVERRIDES,
    "api_key": "AFTUI_API_KEY",
    "client_id": "AFTUI_CLIENT_ID",
    "client_secret": "AFTUI_CLIENT_SECRET",
}


def _override_error(error: ProfileError, overrides: dict[str, Any]) -> ConfigError:
    """Blame the variable that set the bad field, not the profile that did not."""
    key = error.key
    if key is not None and overrides.get(key) is not None and key in _OVERRIDE_VARIABLES:
        return ConfigError(f"{_OVERRIDE_VARIABLES[key]}: {error.problem}")
    variables = sorted(
        _OVERRIDE_VARIABLES[key] for key, value in overrides.items() if value is not None and key in _OVERRIDE_VARIABLES
    )
    return ConfigError(f"{error.message} (with {', '.join(variables) or 'AFTUI_READ_ONLY'} from the environment)")
