"""`aftui journal search QUERY` and `aftui journal stats`: the journal without the TUI."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ..exitcodes import NETWORK, OK, USAGE
from ..text import visible

if TYPE_CHECKING:
    from ..journal.backend import EventJournal

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from .since import parse_since

    sub = parser.add_subparsers(dest="journal_command", metavar="ACTION", required=True)
    p_search = sub.add_parser("search", help="full-text search over journaled events (newest N, printed oldest first)")
    p_search.add_argument(
        "query", help='FTS5 query: words, "a phrase", OR, NOT, prefix*; anything else is searched as a phrase'
    )
    p_search.add_argument("-n", type=int, default=20, help="how many, the newest (default: 20); printed oldest first")
    p_search.add_argument("--emitter", help="only events of this emitter: a source or workflow, by id or name")
    p_search.add_argument("--channel", help="only events of this channel")
    p_search.add_argument(
        "--since",
        type=parse_since,
        metavar="WHEN",
        help="only events since then: a duration back from now (90s, 15m, 1h, 2d, 1w) or a time (2026-11-01T08:00Z; UTC)",
    )
    p_search.add_argument("--json", action="store_true", help="NDJSON, one event per line")
    p_search.set_defaults(journal_handler=search)
    p_stats = sub.add_parser("stats", help="size, time span and emitters of the journal")
    p_stats.add_argument("--json", action="store_true", help="one JSON object (emitter_names: the names found)")
    p_stats.add_argument(
        "--offline", action="store_true", help="name emitters only from what aftui keeps locally: no request"
    )
    p_stats.set_defaults(journal_handler=stats)


def run(args: argparse.Namespace) -> int:
    # Imported here, not above: `aftui --help` builds this parser and should not pay for pydantic and sqlite.
    from ..journal.store import Journal
    from .common import describe, exit_code, quiet_stdout
    from .names import Ambiguous, NoSuchName

    url = _team_journal(args)
    errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError, ValueError)
    unreachable: tuple[type[BaseException], ...] = ()
    try:
        if url is not None:
            from ..journal.pgstore import PgJournal

            errors, unreachable = (*errors, *PgJournal.errors), PgJournal.unreachable
            journal: EventJournal = PgJournal(url)
        else:
            journal = Journal()
        with journal:
            handler: Callable[[EventJournal, argparse.Namespace], int] = args.journal_handler
            return handler(journal, args)
    except (NoSuchName, Ambiguous) as error:  # --emitter's name
        print(f"aftui: {describe(error)}", file=sys.stderr)
        return exit_code(error)
    except BrokenPipeError:
        # The reader went away (`aftui journal stats | head`): not the journal's problem, nor an error.
        quiet_stdout()
        return OK
    except errors as error:
        print(f"aftui: journal: {error}", file=sys.stderr)
        # A team's server that does not answer is the network's code, as a service that does not (a script
        # retries a 5, not a 2); the user's own file that cannot be read is the setup's.
        return NETWORK if isinstance(error, unreachable) else USAGE


def _team_journal(args: argparse.Namespace) -> str | None:
    """AFTUI_JOURNAL_URL, else the profile's `journal` when a profile is configured; None: the user's file."""
    from ..config import ConfigError, effective_profile, load_config
    from ..journal.opening import JournalConfig

    try:
        profile: object = effective_profile(load_config(), getattr(args, "profile", None))
    except (ConfigError, ValueError, OSError):
        profile = None  # no profile: only the environment can name a team journal
    return JournalConfig.of_profile(profile).chosen_url


def search(journal: EventJournal, args: argparse.Namespace) -> int:
    from ..export import event_record, ndjson
    from .output import event_line, terminal_width

    if args.n < 1:
        raise ValueError("-n must be at least 1")
    emitter = _emitter_id(journal, args.emitter) if args.emitter else None
    since_ms = args.since.ms if args.since is not None else None
    found = journal.search(args.query, emitter_id=emitter, channel=args.channel, limit=args.n, since_ms=since_ms)
    width = terminal_width()
    # Named as `tail` and `events` name them, from what aftui keeps locally (a search asks the service nothing).
    emitters = list(dict.fromkeys(e.metadata.emitter_id for e in found if e.metadata.emitter_id))
    names = {} if args.json else local_emitter_names(journal, emitters)
    for event in reversed(found):  # oldest first, as a log reads
        if args.json:
            print(ndjson(event_record(event)))
        else:
            print(event_line(event, width=width, who=names.get(event.metadata.emitter_id or "")))
    if not found and not args.json:
        print(f"aftui: no events match {visible(args.query, 60)!s}", file=sys.stderr)
    return OK


def stats(journal: EventJournal, args: argparse.Namespace) -> int:
    from ..export import ndjson

    info = journal.stats()
    names = emitter_names(journal, list(info["emitters"]), args)
    if args.json:
        print(ndjson({**info, "emitter_names": names}))
        return OK
    print(f"journal   {visible(info['path'])}")
    print(f"events    {info['rows']}")
    print(f"on disk   {_size(info['bytes'])} ({_size(info['used_bytes'])} in use)")
    print(f"oldest    {_when(info['oldest_ms'])}")
    print(f"newest    {_when(info['newest_ms'])}")
    print(f"search    {info['search']}")
    print(f"emitters  {len(info['emitters'])}")
    width = max((len(visible(e, 40)) for e in info["emitters"]), default=0)
    for emitter, rows in info["emitters"].items():
        name = names.get(emitter)
        print(f"  {visible(emitter, 40):<{width}}  {rows:>9}  {visible(name, 60) if name else '-'}".rstrip())
    return OK


NAMED_FROM_JOURNAL = 2000  # newest `$errors` rows read for the names of the workflows they are about


def _emitter_id(journal: EventJournal, text: str) -> str:
    """`--emitter` as given when it is an id; a name is looked up among what aftui keeps locally (the last
    lists, the known workflows, the journal's errors), never asking the service: a name it did not know
    filtered by itself and found nothing, which read as nothing having happened."""
    from .names import Ambiguous, Candidate, NoSuchName, kind_of, match, near
    from .seen import every_name

    if kind_of(text) is not None:
        return text
    local = every_name()
    for workflow_id, name in _journal_workflow_names(journal).items():
        local.setdefault(workflow_id, name)
    pool = [Candidate("source" if i.startswith("dc_") else "workflow", i, n) for i, n in local.items()]
    found = match(text, pool)
    if len(found) > 1:
        raise Ambiguous(text, found)
    if not found:
        where = " among the names aftui keeps (`aftui sources` or `aftui workflows` run once names them)"
        raise NoSuchName(text, ["source", "workflow"], near(text, pool), where)
    return found[0].id


def emitter_names(journal: EventJournal, emitters: list[str], args: argparse.Namespace) -> dict[str, str]:
    """Names of the journal's emitters: what aftui keeps locally (the last lists, the known workflows, the
    `workflow_name` of journaled errors), then, unless --offline, the service for the rest (a few requests,
    no retries; a profile that cannot connect only leaves ids unnamed)."""
    names = local_emitter_names(journal, emitters)
    rest = [e for e in emitters if e not in names and e.startswith(("dc_", "p_"))]
    if rest and not args.offline:
        names.update(_ask_service(rest, args))
    return names


def local_emitter_names(journal: EventJournal, emitters: list[str]) -> dict[str, str]:
    """Names of `emitters` from what aftui keeps locally: the last lists, the known workflows, and the
    `workflow_name` of journaled errors. No request."""
    from .seen import every_name

    local = every_name()
    names = {e: local[e] for e in emitters if local.get(e)}
    if any(e.startswith("p_") and e not in names for e in emitters):
        for workflow_id, name in _journal_workflow_names(journal).items():
            if workflow_id in emitters:
                names.setdefault(workflow_id, name)
    return names


def _journal_workflow_names(journal: EventJournal) -> dict[str, str]:
    """workflow id -> the `workflow_name` its newest journaled errors carry (the newest NAMED_FROM_JOURNAL)."""
    from .names import workflow_names_in

    names: dict[str, str] = {}
    for workflow_id, name in workflow_names_in(journal.search("", channel="$errors", limit=NAMED_FROM_JOURNAL)):
        names.setdefault(workflow_id, name)
    return names


def _ask_service(ids: list[str], args: argparse.Namespace) -> dict[str, str]:
    import asyncio

    from ..api import Client, RetryPolicy, Timeouts
    from ..config import ConfigError, effective_profile, load_config
    from ..subscriptions import lookup_names

    try:
        profile = effective_profile(load_config(), getattr(args, "profile", None))
        client = Client.from_profile(
            profile, retry=RetryPolicy(attempts=1), timeouts=Timeouts(connect=3, read=5, total=8)
        )
    except (ConfigError, ValueError, OSError):
        return {}  # no profile to ask with: the ids stay as they are

    async def ask() -> dict[str, str]:
        async with client:
            return await lookup_names(client, ids)

    try:
        return asyncio.run(ask())
    except Exception:  # noqa: BLE001 - a name is a nicety: the ids still show
        return {}


def _when(ms: int | None) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%d %H:%M:%S UTC") if ms else "-"


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    size = n / 1024
    for unit in ("KB", "MB"):
        if size < 1024:
            return f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"
