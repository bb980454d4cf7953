"""What every headless command shares: exit codes, the client, errors in plain words, asking first."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
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
from ..config.errors import DemoNotRunning
from ..exitcodes import AUTH, NETWORK, NOT_FOUND, OK, USAGE
from ..text import visible
from .names import NoSuchName

__all__ = [
    "AUTH",
    "FAILED",
    "NETWORK",
    "NOT_FOUND",
    "OK",
    "USAGE",
    "Refused",
    "confirm",
    "describe",
    "exit_code",
    "make_client",
    "refuse_read_only",
    "run",
]

FAILED = 1  # `aftui replay`: a replay failed again, was refused, or its outcome is unknown


class Refused(Exception):
    """The person said no, or a script did not say --yes: nothing was changed (exit 2)."""


class DryRun(Exception):
    """`--dry-run` reached the question a change asks: what it would do is printed, nothing is changed (exit 0)."""


def exit_code(error: BaseException) -> int:
    if isinstance(error, AuthError):
        return AUTH
    if isinstance(error, (NotFoundError, NoSuchName)):
        return NOT_FOUND
    if isinstance(error, (NetworkError, ServerError, RateLimitError, DemoNotRunning)):
        return NETWORK
    if isinstance(error, (ValidationError, ConfigError, ReadOnlyError, ValueError, Refused)):
        return USAGE
    return NETWORK


def describe(error: BaseException) -> str:
    """One line for stderr (a few for an ambiguous name): the server's message in plain words, never a traceback."""
    if isinstance(error, AuthError):
        return f"authentication failed: {error.message} (check the profile's key; `aftui config show`)"
    if isinstance(error, ApiError):
        return str(error)
    if isinstance(error, NoSuchName):
        return str(error.args[0]) if error.args else "not found"
    return str(error) or type(error).__name__


def make_client(args: argparse.Namespace) -> Client:
    profile = effective_profile(load_config(), getattr(args, "profile", None))
    if getattr(args, "read_only", False):
        profile.read_only = True
    environment = getattr(args, "environment", None)
    if environment:
        profile.environment = environment
    from .journaling import use_profile

    use_profile(profile)  # the journal this command keeps: the profile's team journal, if it names one
    client = Client.from_profile(profile)
    client.deadline = getattr(args, "max_time", None)
    _made.append(client)
    return client


SILENT_S = 5.0  # a request unanswered this long is said on stderr
SAY_AGAIN_S = 60.0  # and again this often while it waits
_made: list[Client] = []  # the clients of the command running (`make_client`): their requests are watched


async def _watched(command: Coroutine[Any, Any, int], err: TextIO) -> int:
    """`command`, saying when its requests go unanswered: against a service that hung, `aftui whoami` was
    silent for two minutes (four attempts of 30 s) before "timed out". Off a terminal too: a cron job's
    `health --failing` ran past five minutes with nothing in its log."""
    watcher = asyncio.create_task(_say_when_silent(err, _is_terminal(err)))
    try:
        return await command
    finally:
        watcher.cancel()


async def _say_when_silent(err: TextIO, terminal: bool) -> None:
    """A wait said at SILENT_S, and again every SAY_AGAIN_S while it lasts, with the command's whole wait: a
    hang said "no answer … for 5 s" three times in six minutes (each request waited anew) and never the total."""
    began = time.monotonic()
    said_at: float | None = None
    way_out = "ctrl+c stops" if terminal else "--max-time SECONDS gives up sooner"
    while True:
        await asyncio.sleep(1.0)
        waiting = [(client.waiting_for(), client) for client in _made]
        waited, client = max(waiting, key=lambda pair: pair[0], default=(0.0, None))
        now = time.monotonic()
        if client is not None and waited >= SILENT_S:
            if said_at is None or now - said_at >= SAY_AGAIN_S:
                where = visible(client.base_url.split("://", 1)[-1], 80)
                total = f"; {_duration(now - began)} since the command began" if now - began >= waited + 1 else ""
                print(f"aftui: no answer from {where} for {waited:.0f} s{total}; still waiting ({way_out})", file=err)
                said_at = now
        else:
            said_at = None  # answered: a later wait is said again


def _duration(seconds: float) -> str:
    """`42 s`, `3 min 10 s`."""
    whole = int(seconds)
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60} s"


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def refuse_read_only(client: Client, action: str, args: argparse.Namespace | None = None) -> None:
    """Refuse a change before anything is asked or sent (the client refuses too; this says it first); a dry
    run, which sends nothing, goes on."""
    if client.read_only and not getattr(args, "dry_run", False):
        raise ReadOnlyError(action)


def confirm(question: str, args: argparse.Namespace, *, stdin: TextIO | None = None) -> None:
    """Ask on a terminal; `--yes` answers for scripts. Anything but yes raises `Refused`.

    Off a terminal, without --yes, nothing is changed: a script must say what it means.
    """
    if getattr(args, "dry_run", False):
        raise DryRun(question)
    if getattr(args, "yes", False):
        return
    stream = stdin or sys.stdin
    if not _is_terminal(stream):
        raise Refused(f"{question} Not a terminal, so not asked: add --yes to do it in a script.")
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    answer = stream.readline().strip().lower()
    if answer not in ("y", "yes"):
        raise Refused("nothing was changed")


def quiet_stdout() -> None:
    """stdout to /dev/null, so that the interpreter's own flush at exit does not raise BrokenPipeError again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _statement(question: str) -> str:
    """The confirmation's question said as what a run would do: "Delete X? Its events go." -> "Delete X: its events go."."""
    head, mark, rest = question.partition("? ")
    if mark:
        return f"{head}: {rest[:1].lower()}{rest[1:]}"
    return question.rstrip("?")


def run(
    command: Callable[[argparse.Namespace], Coroutine[Any, Any, int]],
    args: argparse.Namespace,
    err: TextIO | None = None,
) -> int:
    """Run an async command, turning every expected failure into a message and an exit code."""
    _made.clear()
    try:
        code = asyncio.run(_watched(command(args), err or sys.stderr))
    except KeyboardInterrupt:
        return OK
    except DryRun as dry:
        print(f"would: {_statement(str(dry))}")
        print("aftui: dry run: nothing was changed", file=err or sys.stderr)
        return OK
    except BrokenPipeError:
        # The reader went away (`aftui sources | head`): not an error. stdout is pointed at /dev/null so
        # that the interpreter's own flush at exit does not raise again.
        quiet_stdout()
        return OK
    except (ApiError, ConfigError, ReadOnlyError, ValueError, NoSuchName, Refused) as error:
        # "Not found" among what a refused key could see was a 4: the key is the news.
        told = _refused_key() or error
        print(f"aftui: {describe(told)}", file=err or sys.stderr)
        return exit_code(told)
    refused = _refused_key()
    if refused is not None:
        # `health` read the journal and exited 1 ("failing") or 5 with "invalid API key" among its problems: a
        # revoked key read as a failing workflow, or a service down, for as long as it lasted.
        print(f"aftui: {describe(refused)}", file=err or sys.stderr)
        return AUTH
    return code


def _refused_key() -> AuthError | None:
    """The service's refusal of the key itself (a 401), if a request of this command had one."""
    return next((c.key_refused for c in _made if c.key_refused is not None), None)
