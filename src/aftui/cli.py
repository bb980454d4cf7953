"""The `aftui` command line."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .exitcodes import HELP as EXIT_CODES

if TYPE_CHECKING:
    from .emulator.server import Emulator

log = logging.getLogger(__name__)


def _emulator_args(parser: argparse.ArgumentParser, *, activity_default: str) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8787, help="port to bind, 0 for any free one (default: 8787)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the demo data and ids (default: 1)")
    parser.add_argument(
        "--data",
        choices=["demo", "empty"],
        default="demo",
        help="demo workspace, or only the catalogue (default: demo)",
    )
    parser.add_argument("--scale", type=int, default=0, metavar="N", help="add N sources for load tests")
    parser.add_argument(
        "--activity",
        choices=["on", "off"],
        default=activity_default,
        help=f"timers fire and demo traffic flows (default: {activity_default}); off freezes the clock",
    )
    parser.add_argument(
        "--hostile",
        action="store_true",
        help="add the hostile data set (escape sequences, markup, 10 MB and 10,000-deep payloads)",
    )


def _command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], name: str, help: str, description: str | None = None
) -> argparse.ArgumentParser:
    return commands.add_parser(
        name,
        help=help,
        description=description or help,
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="aftui",
        description="A terminal UI for the workflow automation service, with a local emulator of the service.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "-p", "--profile", help="the profile to use (default: AFTUI_PROFILE, then the config's default)"
    )
    parser.add_argument("--read-only", action="store_true", help="refuse every change, whatever the profile says")
    parser.add_argument(
        "--debug",
        action="store_true",
        help="log everything to aftui.log in the data dir (default: the level AFTUI_LOG_LEVEL names, else warning)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    emulator = _command(
        commands,
        "emulator",
        "run the local emulator of the service",
        "Run the local emulator of the service until Ctrl-C.",
    )
    _emulator_args(emulator, activity_default="off")
    demo = _command(
        commands,
        "demo",
        "start the emulator with demo data and activity",
        "Start the emulator on a free loopback port with demo data and activity on.",
    )
    demo.add_argument("--seed", type=int, default=1, help="seed of the demo data (default: 1)")
    demo.add_argument("--hostile", action="store_true", help="add the hostile data set, to see how aftui holds up")

    from .headless import config_cmd

    config_cmd.add_arguments(_command(commands, "config", "manage connection profiles"))
    whoami = _command(commands, "whoami", "show the user and workspaces of the profile's key")
    whoami.add_argument("--json", action="store_true", help="print the user record as JSON")
    events = _command(commands, "events", "print the last events of a source")
    events.add_argument("source_id")
    events.add_argument("-n", type=int, default=20, help="how many, at most 100 (default: 20)")
    events.add_argument("--json", action="store_true", help="one JSON object per line (full events)")
    events.add_argument("--full", action="store_true", help="fetch full events, not summaries cut at 1 KB")
    tail = _command(commands, "tail", "print events as they arrive, until Ctrl-C")
    tail.add_argument("source_ids", nargs="*", metavar="SOURCE_ID", help="sources to stream")
    tail.add_argument(
        "--errors",
        action="append",
        default=[],
        metavar="WORKFLOW_ID",
        help="also poll this workflow's $errors (repeatable)",
    )
    tail.add_argument("--channel", help="only events of this channel (sources)")
    tail.add_argument("--json", action="store_true", help="NDJSON, one event per line, for pipes")
    from .headless import journal_cmd

    journal_cmd.add_arguments(_command(commands, "journal", "search and size up the local journal of events"))
    return parser


def _announce(em: Emulator) -> None:
    info = em.describe()
    print(f"aftui emulator (seed {info['seed']}, activity {'on' if info['activity'] else 'off'})")
    print(f"  base URL     {info['base_url']}")
    print(f"  root URL     {info['root_url']}")
    print(f"  API key      {info['api_key']}   (free plan user; paid plan: {info['paid_api_key']})")
    print(f"  OAuth client {info['oauth_client_id']}")
    print(f"  OAuth secret {info['oauth_client_secret']}")
    print(f"  workspace    {info['org_id']}   Connect project {info['project_id']}")
    print(f"  controls     {info['root_url']}/_emulator/info")
    print("Press Ctrl-C to stop.", flush=True)


def _run_emulator(args: argparse.Namespace) -> int:
    from .emulator.server import Options, serve

    options = Options(
        host=args.host,
        port=args.port,
        seed=args.seed,
        data=args.data,
        scale=args.scale,
        activity=args.activity == "on",
        hostile=args.hostile,
    )
    try:
        serve(options, announce=_announce)
    except OSError as exc:
        print(f"aftui: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 5
    print("emulator stopped")
    return 0


def _run_demo(args: argparse.Namespace) -> int:
    from .tui.run import run_demo

    return run_demo(seed=args.seed, read_only=args.read_only, hostile=args.hostile)


def _run_tui(args: argparse.Namespace) -> int:
    """`aftui`: the TUI on the chosen profile, or the start screen when none is configured."""
    from .config import ConfigError
    from .exitcodes import USAGE
    from .tui.run import make_app, run_app

    try:
        app = make_app(args.profile, read_only=args.read_only)
    except ConfigError as error:  # the file, the line and the problem; no traceback
        print(f"aftui: {error}", file=sys.stderr)
        return USAGE
    return run_app(app)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from . import logs  # here, not above: `aftui --help` need not pay for logging.handlers and the config

    try:
        level = logs.level_from(args.debug, os.environ)
    except logs.LevelError as error:
        parser.error(str(error))
    # `aftui` and `aftui demo` draw a TUI: nothing may go to stderr while it is up.
    tui = args.command in (None, "demo")
    with logs.configured(level, demo=args.command == "demo", stderr=not tui):
        log.debug("aftui %s started", args.command or "(the TUI)")
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    if args.command == "emulator":
        return _run_emulator(args)
    if args.command == "demo":
        return _run_demo(args)
    if args.command is None:
        return _run_tui(args)
    return _run_headless(args)


def _run_headless(args: argparse.Namespace) -> int:
    from .headless import common, inspect, tail

    if args.command == "journal":
        from .headless import journal_cmd

        return journal_cmd.run(args)
    if args.command == "config":
        from .headless import config_cmd

        return config_cmd.run(args)
    commands = {"whoami": inspect.whoami, "events": inspect.events, "tail": tail.tail}
    return common.run(commands[args.command], args)


if __name__ == "__main__":
    # `python -m aftui.cli` runs this file as __main__; the module proper logs as aftui.cli, in the tree.
    from aftui.cli import main as cli_main

    sys.exit(cli_main())
