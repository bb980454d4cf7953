"""What every headless command shares: exit codes, the client, errors in plain words."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Coroutine
from typing import Any, TextIO

from ..api import (
    ApiError,
    AuthError,
    Client,
    NetworkError,
    NotFoundError,
    RateLimitError,
    ReadOnlyError,
    ServerError,
    ValidationError,
)
from ..config import ConfigError, effective_profile, load_config
from ..exitcodes import AUTH, NETWORK, NOT_FOUND, OK, USAGE

__all__ = ["AUTH", "NETWORK", "NOT_FOUND", "OK", "USAGE", "describe", "exit_code", "make_client", "run"]


def exit_code(error: BaseException) -> int:
    if isinstance(error, AuthError):
        return AUTH
    if isinstance(error, NotFoundError):
        return NOT_FOUND
    if isinstance(error, (NetworkError, ServerError, RateLimitError)):
        return NETWORK
    if isinstance(error, (ValidationError, ConfigError, ReadOnlyError, ValueError)):
        return USAGE
    if isinstance(error, ApiError):
        return NETWORK
    return NETWORK


def describe(error: BaseException) -> str:
    """One line for stderr: the server's message in plain words, never a traceback."""
    if isinstance(error, AuthError):
        return f"authentication failed: {error.message} (check the profile's key; `aftui config show`)"
    if isinstance(error, ApiError):
        return str(error)
    return str(error) or type(error).__name__


def make_client(args: argparse.Namespace) -> Client:
    profile = effective_profile(load_config(), getattr(args, "profile", None))
    if getattr(args, "read_only", False):
        profile.read_only = True
    return Client.from_profile(profile)


def run(
    command: Callable[[argparse.Namespace], Coroutine[Any, Any, int]],
    args: argparse.Namespace,
    err: TextIO = sys.stderr,
) -> int:
    """Run an async command, turning every expected failure into a message and an exit code."""
    try:
        return asyncio.run(command(args))
    except KeyboardInterrupt:
        return OK
    except (ApiError, ConfigError, ReadOnlyError, ValueError) as error:
        print(f"aftui: {describe(error)}", file=err)
        return exit_code(error)
