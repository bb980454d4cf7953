"""Secrets: a profile's credential resolved, reading `*_env` variables and running `*_cmd` commands.

A command's stdout is the secret, so only its stderr ever goes into an error
message; a resolved credential is masked in its repr.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from typing import Literal

from .errors import ProfileError, or_list
from .profiles import API_KEY_FIELDS, Profile, mask

__all__ = ["SECRET_COMMAND_TIMEOUT", "Credentials", "resolve_secret"]

SECRET_COMMAND_TIMEOUT = 10  # seconds; a password manager waiting for a PIN should not hang aftui forever
_STDERR_LIMIT = 500  # characters of a failed command's stderr worth quoting


@dataclass(frozen=True, repr=False)
class Credentials:
    """A resolved credential: an API key, or OAuth client credentials."""

    kind: Literal["api_key", "oauth"]
    api_key: str | None = None
    client_id: str | None = None
    client_secret: str | None = None

    def __repr__(self) -> str:
        api_key = None if self.api_key is None else mask(self.api_key)
        secret = None if self.client_secret is None else mask(self.client_secret)
        return (
            f"Credentials(kind={self.kind!r}, api_key={api_key!r}, "
            f"client_id={self.client_id!r}, client_secret={secret!r})"
        )


def resolve_secret(profile: Profile) -> Credentials:
    """The profile's credential, reading `*_env` variables and running `*_cmd` commands."""
    if any(getattr(profile, key) is not None for key in API_KEY_FIELDS):
        return Credentials(kind="api_key", api_key=_resolve(profile, "api_key"))
    if profile.client_id is not None:
        return Credentials(kind="oauth", client_id=profile.client_id, client_secret=_resolve(profile, "client_secret"))
    raise ProfileError(
        profile.name,
        None,
        f"no credential: set one of {or_list(API_KEY_FIELDS)}, or client_id with a client secret"
        " (or set AFTUI_API_KEY)",
    )


def _resolve(profile: Profile, key: Literal["api_key", "client_secret"]) -> str:
    """The value of `key`, given directly, as `key_env` or as `key_cmd`."""
    value: str | None = getattr(profile, key)
    if value is not None:
        return value
    variable: str | None = getattr(profile, f"{key}_env")
    if variable is not None:
        return _from_env(profile.name, f"{key}_env", variable)
    command: str = getattr(profile, f"{key}_cmd")  # validate() saw to it that one of the three is set
    return _from_command(profile.name, f"{key}_cmd", command)


def _from_env(profile: str, key: str, variable: str) -> str:
    value = os.environ.get(variable, "").strip()
    if not value:
        raise ProfileError(profile, key, f"the environment variable {variable} ({key}) is not set")
    return value


def _from_command(profile: str, key: str, command: str) -> str:
    # shell=True on purpose: the command comes from the user's own config file
    # and is typically a pipeline ("pass show x | head -1"). Its stdout is the
    # secret, so only stderr ever goes into an error message.
    try:
        result = subprocess.run(
            command, shell=True, capture_output=True, text=True, errors="replace", timeout=SECRET_COMMAND_TIMEOUT
        )
    except subprocess.TimeoutExpired:
        raise ProfileError(profile, key, f"{key} did not finish within {SECRET_COMMAND_TIMEOUT} s: {command}") from None
    except OSError as error:
        raise ProfileError(profile, key, f"{key} could not be run: {error.strerror or error}") from None
    if result.returncode != 0:
        detail = _tail(result.stderr) or "no message on stderr"
        raise ProfileError(profile, key, f"{key} failed with exit status {result.returncode}: {detail}")
    secret = result.stdout.strip()
    if not secret:
        raise ProfileError(profile, key, f"{key} printed nothing: {command}")
    return secret


def _tail(text: str) -> str:
    text = text.strip()
    return text if len(text) <= _STDERR_LIMIT else "…" + text[-_STDERR_LIMIT:]
