# PYTHON_ARGCOMPLETE_OK  (shell completion: headless/complete.py, `aftui completion SHELL`)
"""The `aftui` command line."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
from collections.abc import MutableMapping, Sequence
from typing import TYPE_CHECKING, NoReturn

from .exitcodes import HELP as EXIT_CODES
from .exitcodes import SHARED as SHARED_EXIT_CODES
from .unused import skip_unused_imports

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
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    help: str,
    description: str | None = None,
    epilog: str = EXIT_CODES,
) -> argparse.ArgumentParser:
    return commands.add_parser(
        name,
        help=help,
        description=description or help,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _ids(action: argparse.Action, *kinds: str, names: bool = True) -> argparse.Action:
    """Complete this argument with the ids (and names) of these kinds that aftui has listed."""
    from .headless.complete import Ids, attach

    return attach(action, Ids(*kinds, names=names))


def _list_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], name: str, help: str, kind: str, description: str
) -> argparse.ArgumentParser:
    """A list: a table for people, --json for scripts, --fields for both."""
    from .headless.schemas import SCHEMAS

    parser = _command(commands, name, help, description)
    parser.add_argument(
        "--json",
        action="store_true",
        help=f"one JSON object a line, the {kind.replace('_', ' ')} schema (docs/headless.md)",
    )
    parser.add_argument(
        "--fields",
        metavar="A,B",
        help=f"only these fields, for the table and --json alike: {', '.join(SCHEMAS[kind])}",
    )
    return parser


def _show_secrets(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--show-secrets",
        action="store_true",
        help="webhook URLs whole: their tokens (a Slack URL's path, a ?token=) are masked otherwise",
    )


def _state_filters(parser: argparse.ArgumentParser, what: str) -> None:
    state = parser.add_mutually_exclusive_group()
    state.add_argument("--active", action="store_true", help=f"only active {what}")
    state.add_argument("--inactive", action="store_true", help=f"only inactive {what}")


def _limit(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--limit", type=int, metavar="N", help=f"at most N {what} (default: all)")


def _environment(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--environment",
        choices=["production", "development"],
        help="the Connect environment (default: the profile's)",
    )


def _since(parser: argparse.ArgumentParser, what: str) -> None:
    from .headless.since import parse_since

    parser.add_argument(
        "--since",
        type=parse_since,
        metavar="WHEN",
        help=f"{what}: a duration back from now (90s, 15m, 1h, 2d, 1w) or a time (2026-11-01T08:00Z; UTC)",
    )


def _no_journal(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-journal", action="store_true", help="do not write what is seen to the local journal (aftui journal)"
    )


def _on_call_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from .headless.schemas import SCHEMAS

    health = _command(
        commands,
        "health",
        "what is failing, since when, and is it fixed: one line a workflow and a source",
        "The TUI's Health pane for a script or a terminal: every workflow aftui knows (and finds) and every\n"
        "source, with errors in the last hour and day, the last error, and whether the hour's errors were\n"
        "replayed ok (state failing, fixed, errors or ok); what needs attention first. Counts the journal's\n"
        "day of errors as well as the service's last 100.",
        epilog="exit codes:\n  0  ok (with --failing: nothing is failing)\n  1  with --failing: something is failing\n"
        + SHARED_EXIT_CODES,
    )
    health.add_argument(
        "--failing",
        action="store_true",
        help="only what is failing (errors in the last hour not fixed); exit 1 if anything is",
    )
    health.add_argument(
        "--json", action="store_true", help="one JSON object a line, the health schema (docs/headless.md)"
    )
    health.add_argument("--fields", metavar="A,B", help=f"only these fields: {', '.join(SCHEMAS['health'])}")
    health.add_argument(
        "--no-discover",
        action="store_true",
        help="only the workflows already known: no look at subscriptions or errors",
    )
    health.add_argument(
        "--no-journal",
        action="store_true",
        help="leave the local journal alone: only the service's last 100 errors count, and no replay is known",
    )
    errors = _command(
        commands,
        "errors",
        "print a workflow's errors, or group them by failure",
        "Print a workflow's errors (the service keeps the last 100), oldest first; --group puts together\n"
        "the errors of the same failure: same step, same error, same message once numbers, ids, quoted\n"
        "values and times are set aside.",
    )
    _ids(
        errors.add_argument("workflow", metavar="WORKFLOW", help="the workflow: its id (p_...) or its name"), "workflow"
    )
    _since(errors, "only errors since then")
    errors.add_argument("--group", action="store_true", help="one line a failure: count, first and last, fingerprint")
    errors.add_argument("-n", type=int, default=None, help="only the newest N errors")
    errors.add_argument("--json", action="store_true", help="one JSON object a line: the error (or error_group) schema")
    errors.add_argument(
        "--fields",
        metavar="A,B",
        help=f"only these fields: {', '.join(SCHEMAS['error'])} (with --group: {', '.join(SCHEMAS['error_group'])})",
    )
    _no_journal(errors)
    replay = _command(
        commands,
        "replay",
        "replay workflow errors (as they were, or edited), and wait for their outcomes",
        "Send the requests that started failed runs again, one at a time, oldest first, and wait for each\n"
        "outcome (the workflow ran it through, or failed again). Name errors by id, or a workflow's errors\n"
        "since a time. Asks first on a terminal; --yes for scripts. Every replay is recorded in the journal.",
        epilog="exit codes:\n  0  every replay succeeded (--dry-run: every error would be sent)\n"
        "  1  a replay failed again, was refused, was not sent, could not be replayed, or its outcome\n"
        "     is unknown (--dry-run: an error could not be replayed)\n" + SHARED_EXIT_CODES,
    )
    replay.add_argument(
        "error_ids", nargs="*", metavar="ERROR_ID", help="$errors event ids (aftui errors WORKFLOW shows them)"
    )
    _ids(
        replay.add_argument(
            "--workflow",
            metavar="WORKFLOW",
            help="the workflow (id or name): its errors --since a time, or the one the ERROR_IDs are of",
        ),
        "workflow",
    )
    _since(replay, "with --workflow: its errors since then")
    replay.add_argument(
        "--fingerprint", metavar="FP", help="with --workflow: only the errors of this failure (aftui errors --group)"
    )
    replay.add_argument(
        "--patch",
        metavar="JSON",
        help="a JSON merge patch (RFC 7386) applied to each payload; @FILE reads it from a file",
    )
    replay.add_argument(
        "--set",
        action="append",
        metavar="'PATH = VALUE'",
        help="set one field of each payload (customer.email = ops@example.com; JSON values as JSON); repeatable",
    )
    replay.add_argument(
        "--again",
        action="store_true",
        help="with --since or --fingerprint: also the errors already replayed ok or pending, and those replays led "
        "to; with ERROR_IDs: also those whose replay's outcome is unknown (it may have run)",
    )
    replay.add_argument("--dry-run", action="store_true", help="show what would be sent, send nothing")
    replay.add_argument("-y", "--yes", action="store_true", help="do not ask (for scripts)")
    replay.add_argument(
        "--timeout", type=float, default=20.0, metavar="S", help="seconds to wait for each outcome (default: 20)"
    )
    replay.add_argument(
        "--json", action="store_true", help="one JSON object a line: the replay (or, dry, the replay_plan) schema"
    )
    replay.add_argument(
        "--fields",
        metavar="A,B",
        help=f"only these fields: {', '.join(SCHEMAS['replay'])} (dry: {', '.join(SCHEMAS['replay_plan'])})",
    )


def _yes(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-y", "--yes", action="store_true", help="do not ask (for scripts; off a terminal it is needed)"
    )


def _change_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    deploy = _command(
        commands,
        "deploy",
        "deploy a source from a component file, a registry key or a URL",
        "Deploy a source. COMPONENT is a component file (saved as a component first, as the service reads\n"
        "props only from saved code), a URL of one (likewise), a registry key (github-new-issue) or a saved\n"
        "component (sc_... or its key). Props are typed by the component's props: --prop timer=15m,\n"
        "--prop repo=acme/api, --prop labels=bug --prop labels=p1, --prop github=apn_... (an account).",
    )
    deploy.add_argument("component", metavar="COMPONENT", help="a component file, a URL, a registry key or an sc_ id")
    deploy.add_argument(
        "--prop",
        action="append",
        metavar="NAME=VALUE",
        help="a prop's value, typed by the component (repeat for each prop, and for each item of a list)",
    )
    deploy.add_argument(
        "--name",
        help="the source's name (default: the component's name as a slug); one a source has already is refused",
    )
    deploy.add_argument(
        "--allow-duplicate", action="store_true", help="deploy even when a source has this --name already"
    )
    deploy.add_argument("--json", action="store_true", help="print the new source as one JSON line (source schema)")
    _yes(deploy)
    update = _command(
        commands,
        "update",
        "update a source: its name, props or code",
        "Update a source: --name renames it, --prop changes props (the others keep their values),\n"
        "--component gives it other code (a file, a URL, a registry key or an sc_ id).",
    )
    _ids(update.add_argument("source", metavar="SOURCE", help="the source: its id (dc_...) or its name"), "source")
    update.add_argument("--prop", action="append", metavar="NAME=VALUE", help="a prop's new value (repeatable)")
    update.add_argument("--name", help="a new name")
    update.add_argument(
        "--component", metavar="COMPONENT", help="other code: a file, a URL, a registry key or an sc_ id"
    )
    update.add_argument("--json", action="store_true", help="print the updated source as one JSON line (source schema)")
    _yes(update)
    for verb, words in (
        ("activate", "switch sources or workflows on"),
        ("deactivate", "switch sources or workflows off"),
    ):
        switch = _command(commands, verb, words, f"{words.capitalize()} (nothing is deleted).")
        _ids(
            switch.add_argument(
                "targets", nargs="+", metavar="TARGET", help="sources or workflows: ids (dc_..., p_...) or names"
            ),
            "source",
            "workflow",
        )
        switch.add_argument("--json", action="store_true", help="print each one's record as a JSON line afterwards")
        _yes(switch)
    delete = _command(
        commands,
        "delete",
        "delete sources, webhooks, subscriptions, events, Connect accounts or end users",
        "Delete things. Each asks first on a terminal; --yes for scripts.",
    )
    what = delete.add_subparsers(dest="what", metavar="WHAT", required=True)

    def item(name: str, help: str) -> argparse.ArgumentParser:
        parser = _thing(what, name, help)
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="print what would be deleted, and delete nothing (allowed read-only)",
        )
        return parser

    source = item("source", "delete sources, with their events and subscriptions")
    _ids(source.add_argument("targets", nargs="+", metavar="SOURCE", help="ids (dc_...) or names"), "source")
    webhook = item("webhook", "delete webhooks")
    _ids(webhook.add_argument("targets", nargs="+", metavar="WEBHOOK", help="ids (wh_...) or names"), "webhook")
    subscription = item("subscription", "delete a subscription, by its id or by its ends and channel")
    _ids(
        subscription.add_argument("subscription", nargs="?", metavar="SUB_ID", help="the subscription's id (sub_...)"),
        "subscription",
        names=False,
    )
    _subscription_ends(subscription, required=False)
    subscription.add_argument(
        "--channel", metavar="NAME", help="its channel: default (the default), $errors, $logs or a name"
    )
    events = item("events", "delete a source's events: all, from an id, up to an id, a range, or one")
    _ids(events.add_argument("source", metavar="SOURCE", help="the source: its id (dc_...) or its name"), "source")
    events.add_argument("--all", action="store_true", help="every event of the source")
    events.add_argument(
        "--from", dest="start", metavar="ID", help="this event and every later one (with --to: a range)"
    )
    events.add_argument(
        "--to", dest="end", metavar="ID", help="this event and every earlier one (with --from: a range)"
    )
    events.add_argument("--id", metavar="ID", help="this one event")
    account = item("account", "delete Connect accounts of end users")
    account.add_argument("targets", nargs="+", metavar="ACCOUNT_ID", help="Connect account ids (apn_...)")
    _environment(account)
    end_user = item("end-user", "delete Connect end users and all their accounts")
    end_user.add_argument("targets", nargs="+", metavar="EXTERNAL_ID", help="the end users' ids in your system")
    _environment(end_user)
    app_accounts = item("app-accounts", "delete every Connect account of an app")
    app_accounts.add_argument(
        "app", metavar="APP", help="an OAuth app's id (oa_...) for OAuth apps, the name slug for key-based apps"
    )
    _environment(app_accounts)


def _thing(what: argparse._SubParsersAction[argparse.ArgumentParser], name: str, help: str) -> argparse.ArgumentParser:
    """One kind of thing a change acts on (`delete webhook`, `create token`), with --yes."""
    parser = what.add_parser(
        name,
        help=help,
        description=help[0].upper() + help[1:] + ".",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _yes(parser)
    return parser


def _subscription_ends(parser: argparse.ArgumentParser, *, required: bool) -> None:
    """--emitter and --listener, completed with the ids and names of what each end can be."""
    _ids(
        parser.add_argument(
            "--emitter", required=required, metavar="EMITTER", help="a source or workflow (id or name), p_* or dc_*"
        ),
        "source",
        "workflow",
    )
    _ids(
        parser.add_argument(
            "--listener", required=required, metavar="LISTENER", help="a workflow, source or webhook (id or name)"
        ),
        "workflow",
        "source",
        "webhook",
    )


def _create_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    create = _command(
        commands,
        "create",
        "create webhooks, subscriptions and Connect tokens",
        "Create things. Each asks first on a terminal; --yes for scripts. A workflow's errors to a pager:\n"
        "  aftui create webhook https://pager.example/hook --name pager --yes\n"
        "  aftui create subscription --emitter 'Validate and forward orders' --listener pager --channel '$errors' --yes",
    )
    what = create.add_subparsers(dest="what", metavar="WHAT", required=True)

    def item(name: str, help: str) -> argparse.ArgumentParser:
        parser = _thing(what, name, help)
        parser.add_argument("--json", action="store_true", help=f"print the {name} as one JSON line ({name} schema)")
        return parser

    webhook = item("webhook", "create a webhook: a URL that events subscribed to it are posted to")
    webhook.add_argument("url", metavar="URL", help="http or https, with a hostname")
    webhook.add_argument("--name", help="its name (names address it in other commands)")
    webhook.add_argument("--description", help="what it is for")
    webhook.add_argument(
        "--allow-duplicate", action="store_true", help="create it even if a webhook to this URL exists"
    )
    subscription = item(
        "subscription", "subscribe a listener to an emitter's channel (nothing is sent if it is subscribed already)"
    )
    _subscription_ends(subscription, required=True)
    subscription.add_argument(
        "--channel", metavar="NAME", help="default (the default), $errors, $logs or a custom channel's name"
    )
    token = item("token", "create a Connect token, with which one end user connects an account (it registers them)")
    token.add_argument("external_user_id", metavar="EXTERNAL_USER_ID", help="your own id for the end user")
    token.add_argument("--success-redirect", metavar="URI", help="where the hosted page sends them when connected")
    token.add_argument("--error-redirect", metavar="URI", help="where it sends them when it failed")
    token.add_argument("--webhook", metavar="URL", help="the service posts the outcome to it")
    _environment(token)


def _list_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sources = _list_command(
        commands, "sources", "list the workspace's sources", "source", "List the sources of the profile's workspace."
    )
    _state_filters(sources, "sources")
    _limit(sources, "sources")
    workflows = _list_command(
        commands,
        "workflows",
        "list the workflows aftui knows (and finds)",
        "workflow",
        "List the workflows aftui knows in the workspace. The service cannot list workflows: aftui remembers\n"
        "those it has met and first looks for more in the workspace's subscriptions and the $errors of the\n"
        "workflows it knows (as the TUI's Workflows pane does). The list is shared with the TUI.",
    )
    _state_filters(workflows, "workflows")
    workflows.add_argument(
        "--no-discover",
        action="store_true",
        help="only the workflows already known: no look at subscriptions or errors",
    )
    workflows.add_argument("--no-journal", action="store_true", help="do not journal the $errors read on the way")
    webhooks = _list_command(commands, "webhooks", "list the user's webhooks", "webhook", "List the user's webhooks.")
    _limit(webhooks, "webhooks")
    _show_secrets(webhooks)
    subscriptions = _list_command(
        commands,
        "subscriptions",
        "list the workspace's subscriptions",
        "subscription",
        "List the workspace's subscriptions, with the names of their ends.",
    )
    _ids(
        subscriptions.add_argument(
            "--emitter",
            metavar="EMITTER",
            help="only those of this emitter: a source or workflow (id or name), or p_* / dc_*",
        ),
        "source",
        "workflow",
    )
    _ids(
        subscriptions.add_argument(
            "--listener",
            metavar="LISTENER",
            help="only those of this listener: a workflow, source or webhook (id or name)",
        ),
        "workflow",
        "source",
        "webhook",
    )
    subscriptions.add_argument(
        "--channel", metavar="NAME", help="only those of this channel: default, $errors, $logs or a custom name"
    )
    accounts = _list_command(
        commands,
        "accounts",
        "list connected accounts (the workspace's, or Connect's with --connect)",
        "account",
        "List connected accounts: the workspace's, or with --connect the Connect project's end users' accounts.",
    )
    accounts.add_argument(
        "--app", metavar="APP", help="only accounts of this app (id or name slug; sent to the service)"
    )
    accounts.add_argument(
        "--oauth-app-id", metavar="ID", help="only accounts of this custom OAuth app (sent to the service)"
    )
    accounts.add_argument(
        "--external-user-id", metavar="ID", help="only the accounts of this Connect end user (sent to the service)"
    )
    accounts.add_argument("--connect", action="store_true", help="the Connect project's accounts (of end users)")
    _environment(accounts)
    _limit(accounts, "accounts")
    end_users = _list_command(
        commands,
        "end-users",
        "list the Connect project's end users",
        "end_user",
        "List the Connect project's end users, as their accounts tell them (the API has no list of users).",
    )
    end_users.add_argument(
        "--app", metavar="APP", help="only end users with an account of this app (sent to the service)"
    )
    _environment(end_users)
    components = _list_command(
        commands,
        "components",
        "search the public registry of components",
        "component",
        "Search the public registry in words: sources (default), actions, or both.",
    )
    components.add_argument("query", metavar="WORDS", help="what the component does, in words: 'new github issue'")
    components.add_argument(
        "--app", metavar="SLUG", help="only components of this app (name slug; sent to the service)"
    )
    components.add_argument(
        "--threshold", type=float, metavar="0..1", help="how similar a match must be (sent to the service)"
    )
    kinds = components.add_mutually_exclusive_group()
    kinds.add_argument("--actions", action="store_true", help="actions instead of sources")
    kinds.add_argument("--all", action="store_true", help="sources and actions")
    _limit(components, "components of each kind")
    apps = _list_command(
        commands, "apps", "list the apps of the catalogue", "app", "List the apps that can be connected."
    )
    apps.add_argument(
        "query",
        nargs="?",
        metavar="WORDS",
        help="only apps whose name, slug or description match (sent to the service)",
    )
    _limit(apps, "apps")
    get = _command(
        commands,
        "get",
        "show one thing by id (or a source's, workflow's or webhook's name), a workflow error too",
        "Show one thing: a source (dc_), workflow (p_), workflow template (tch_), webhook (wh_),\n"
        "subscription (sub_), account (apn_), app (app_), component (sc_), workspace (o_) or user (u_),\n"
        "by its id, or a source, workflow or webhook by its name; or a workflow error by its id\n"
        "(<ms>-<seq>, as `aftui errors` prints it), with its stack.",
    )
    _ids(
        get.add_argument("id", metavar="ID", help="an id, an error's id, or the name of a source, workflow or webhook"),
        "source",
        "workflow",
        "webhook",
        "subscription",
        "account",
        "app",
    )
    get.add_argument("--json", action="store_true", help="the record, in its resource's schema (docs/headless.md)")
    get.add_argument(
        "--raw", action="store_true", help="every field the service sent, as read (times in ISO 8601; no stable schema)"
    )
    get.add_argument("--fields", metavar="A,B", help="only these fields of the record")
    _show_secrets(get)
    _environment(get)


GLOBAL_OPTIONS = ("-p", "--profile", "--read-only", "--debug", "--max-time")


class _Parser(argparse.ArgumentParser):
    """aftui's own parser: an option of aftui's given after the command says where it goes."""

    def error(self, message: str) -> NoReturn:
        if message.startswith("unrecognized arguments:"):
            given = [word.partition("=")[0] for word in message.split()[2:]]
            stray = next((option for option in given if option in GLOBAL_OPTIONS), None)
            if stray is not None:
                # `aftui health --failing --max-time 5` said only "unrecognized arguments" to a cron job's log.
                message += f" ({stray} is aftui's own option: it goes before the command, `aftui {stray} … COMMAND`)"
        super().error(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="aftui",
        description="A terminal UI for the workflow automation service, with a local emulator of the service.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _tui_options(parser)
    _commands(parser)
    return parser


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError("give a positive number of seconds")
    return seconds


def tui_only(argv: Sequence[str] | None) -> argparse.Namespace | None:
    """`aftui [-p NAME] [--read-only] [--debug] [demo [--seed N] [--hostile]]` parsed without the 40 parsers of
    the commands (a tenth of the TUI's start, and the demo's emulator is started only once they are built);
    None for anything else (another command, help, a mistake, a shell completing), which `build_parser`
    parses and reports. What this parses, it parses as `build_parser` would."""
    if "_ARGCOMPLETE" in os.environ:
        return None
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv.index("demo") if "demo" in argv else len(argv)
    parser = argparse.ArgumentParser(prog="aftui", add_help=False, exit_on_error=False)
    _tui_options(parser)
    demo = argparse.ArgumentParser(prog="aftui demo", add_help=False, exit_on_error=False)
    _demo_options(demo)
    try:
        args, rest = parser.parse_known_args(argv[:command])
        if command < len(argv):
            demo_args, demo_rest = demo.parse_known_args(argv[command + 1 :])
            rest += demo_rest
            vars(args).update(vars(demo_args))
    except argparse.ArgumentError:
        return None
    if rest:
        return None
    args.command = "demo" if command < len(argv) else None
    return args


def _tui_options(parser: argparse.ArgumentParser) -> None:
    from .headless.complete import attach, usable_profiles

    attach(
        parser.add_argument(
            "-p", "--profile", help="the profile to use (default: AFTUI_PROFILE, then the config's default)"
        ),
        usable_profiles,
    )
    parser.add_argument("--read-only", action="store_true", help="refuse every change, whatever the profile says")
    parser.add_argument(
        "--debug",
        action="store_true",
        help="log everything to aftui.log in the data dir (default: the level AFTUI_LOG_LEVEL names, else warning)",
    )
    parser.add_argument(  # parsed for the TUI too, which refuses it (`_run`) rather than ignore it
        "--max-time",
        type=_seconds,
        metavar="SECONDS",
        help="a command gives up on a request the service has not answered within SECONDS, its retries "
        "included (exit 5); streams (tail) are not cut, and tail's reconnects are each bounded, never refused",
    )


def _demo_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=1, help="seed of the demo data (default: 1)")
    parser.add_argument("--hostile", action="store_true", help="add the hostile data set, to see how aftui holds up")


def _commands(parser: argparse.ArgumentParser) -> None:
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
    _demo_options(demo)

    serve = _command(
        commands,
        "serve",
        "run the TUI in a browser (read-only, on 127.0.0.1, unless told otherwise)",
        "Serve the TUI to a browser through textual-serve: each page opened runs its own aftui on the profile.\n"
        "Read-only unless --allow-changes; listens on 127.0.0.1 unless --host names another address.",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1, this machine)"
    )
    serve.add_argument("--port", type=int, default=8000, help="the port to listen on (default: 8000)")
    serve.add_argument(
        "--allow-changes", action="store_true", help="let the browser deploy, delete and replay (default: read-only)"
    )
    serve.add_argument("--demo", action="store_true", help="serve the demo (its own emulator) instead of a profile")

    from .headless import config_cmd

    config_cmd.add_arguments(_command(commands, "config", "manage connection profiles"))
    whoami = _command(commands, "whoami", "show the user and workspaces of the profile's key")
    whoami.add_argument("--json", action="store_true", help="print the user record as JSON")
    _list_commands(commands)
    events = _command(commands, "events", "print the last events of a source")
    _ids(events.add_argument("source", metavar="SOURCE", help="the source: its id (dc_...) or its name"), "source")
    events.add_argument("-n", type=int, default=None, help="how many, at most 100 (default: 20, or all with --since)")
    events.add_argument("--json", action="store_true", help="one JSON object per line (full events)")
    events.add_argument("--channel", metavar="NAME", help="only events of this channel")
    events.add_argument("--full", action="store_true", help="fetch full events, not summaries cut at 1 KB")
    _since(events, "only events since then")
    _no_journal(events)
    tail = _command(commands, "tail", "print events as they arrive, until Ctrl-C")
    _ids(
        tail.add_argument("source_ids", nargs="*", metavar="SOURCE", help="sources to stream: ids (dc_...) or names"),
        "source",
    )
    _ids(
        tail.add_argument(
            "--errors",
            action="append",
            default=[],
            metavar="WORKFLOW",
            help="also poll this workflow's $errors: an id (p_...) or a name (repeatable)",
        ),
        "workflow",
    )
    tail.add_argument("--channel", metavar="NAME", help="only events of this channel (sources)")
    tail.add_argument("--json", action="store_true", help="NDJSON, one event per line, for pipes")
    _since(tail, "first print what the service still keeps from then on, then follow")
    tail.add_argument(
        "-q", "--quiet", action="store_true", help="no connection messages on stderr (failures are still said)"
    )
    _no_journal(tail)
    _on_call_commands(commands)
    _change_commands(commands)
    _create_commands(commands)
    from .headless import journal_cmd

    journal_cmd.add_arguments(_command(commands, "journal", "search and size up the local journal of events"))
    from .headless.complete import SHELLS

    completion = _command(
        commands,
        "completion",
        "print the lines that make a shell complete aftui's commands, options, profiles and ids",
        "Print the lines that make a shell complete aftui's commands, options, profiles and ids\n"
        "(ids and names of what the last lists printed, and the workflows aftui knows). For bash:\n"
        '  eval "$(aftui completion bash)"      # in ~/.bashrc\n'
        "For zsh the same in ~/.zshrc; for fish: aftui completion fish | source",
    )
    completion.add_argument("shell", choices=SHELLS, help="the shell to complete in")


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
    add = f"aftui config add emulator --base-url {info['base_url']} --api-key {info['api_key']}"
    print(f"  a profile    {add} --org-id {info['org_id']} --project-id {info['project_id']}")
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
    # The emulator starts first, in its own process: it builds the demo while this one imports the TUI.
    from pathlib import Path

    from . import logs
    from .emulator.child import EmulatorProcess

    try:
        log: Path | None = logs.log_file(demo=True)
    except OSError:  # no data dir: said already by the logging setup; the child's stray output goes nowhere
        log = None
    level = logging.getLogger("aftui").level
    emulator = EmulatorProcess(seed=args.seed, hostile=args.hostile, log=log, log_level=level)
    from .tui.run import run_demo

    return run_demo(emulator, read_only=args.read_only)


def _run_serve(args: argparse.Namespace) -> int:
    from .tui.serve import ServeOptions, serve

    if args.read_only and args.allow_changes:
        print("aftui: --read-only and --allow-changes contradict each other", file=sys.stderr)
        return 2
    options = ServeOptions(args.host, args.port, args.allow_changes, args.profile, args.demo)
    try:
        return serve(options)
    except OSError as exc:
        print(f"aftui: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 5


def _run_tui(args: argparse.Namespace) -> int:
    """`aftui`: the TUI on the chosen profile, or the start screen when none is configured."""
    from .config import ConfigError
    from .config.demo import use_demo_files
    from .exitcodes import USAGE
    from .tui.run import make_app, run_app

    use_demo_files(args.profile)
    try:
        app = make_app(args.profile, read_only=args.read_only)
    except ConfigError as error:  # the file, the line and the problem; no traceback
        print(f"aftui: {error}", file=sys.stderr)
        return USAGE
    return run_app(app)


def entry() -> int:
    """The `aftui` command: `main` in a process of its own, which can skip what aftui never uses.

    No garbage collection while the TUI's modules are imported: the collections the imports trigger walk
    every object the imports made, again and again (about 40 ms of a start), to find a few hundred objects
    of garbage (0.3 MB). The TUI freezes what the imports made and collects again before it runs
    (`tui.collector.start_kept`); any other command collects again once chosen (`_run`).
    """
    skip_unused_imports()
    gc.disable()
    return main()


def main(argv: Sequence[str] | None = None) -> int:
    args = tui_only(argv)
    if args is None:
        parser = build_parser()
        from .headless.complete import autocomplete

        autocomplete(parser)  # a shell asking for completions (argcomplete) is answered here, and the process ends
        args = parser.parse_args(argv)
    from . import logs  # here, not above: `aftui --help` need not pay for logging.handlers and the config

    try:
        level = logs.level_from(args.debug, os.environ)
    except logs.LevelError as error:
        build_parser().error(str(error))
    # `aftui` and `aftui demo` draw a TUI: nothing may go to stderr while it is up.
    tui = args.command in (None, "demo")
    with logs.configured(level, demo=args.command == "demo", stderr=not tui):
        log.debug("aftui %s started", args.command or "(the TUI)")
        return _run(args)


# Textual draws a change at its next frame: at 60 a second a key's answer waited 0-17 ms for it, at 120
# 0-8 (in tmux, the key's p95 at idle went from 21 to 11 ms). Frames are drawn only when something changed,
# so an idle screen costs nothing more. TEXTUAL_FPS, if set, is the user's.
FRAMES_PER_S = 120


def frames_per_second(environ: MutableMapping[str, str]) -> None:
    """The TUI's frame rate, unless the environment sets one: before Textual is imported (it reads it then)."""
    environ.setdefault("TEXTUAL_FPS", str(FRAMES_PER_S))


def _run(args: argparse.Namespace) -> int:
    if args.command in (None, "demo"):
        if args.max_time is not None:
            print("aftui: --max-time bounds a command's requests; the TUI retries and says so itself", file=sys.stderr)
            return 2
        frames_per_second(os.environ)
    else:
        gc.enable()  # paused by `entry` for the TUI's imports; a command may run for hours (`tail`)
    if args.command == "completion":
        from .headless.complete import shell_code

        try:
            print(shell_code(args.shell), flush=True)
        except BrokenPipeError:
            pass  # `aftui completion bash | head`: the reader has what it wanted
        return 0
    if args.command == "emulator":
        return _run_emulator(args)
    if args.command == "demo":
        return _run_demo(args)
    if args.command == "serve":
        return _run_serve(args)
    if args.command is None:
        return _run_tui(args)
    return _run_headless(args)


CHANGES = ("deploy", "update", "activate", "deactivate", "delete")
LISTS = {
    "sources": "sources",
    "workflows": "workflows",
    "webhooks": "webhooks",
    "subscriptions": "subscriptions",
    "accounts": "accounts",
    "end-users": "end_users",
    "components": "components",
    "apps": "apps",
    "get": "get",
}


def _run_headless(args: argparse.Namespace) -> int:
    from .config.demo import use_demo_files
    from .headless import common, inspect, tail

    use_demo_files(args.profile)  # `-p demo`: the running demo's journal and known workflows, not the user's

    if args.command == "errors":
        from .headless import errors_cmd

        return common.run(errors_cmd.errors, args)
    if args.command == "health":
        from .headless import health_cmd

        return common.run(health_cmd.health, args)
    if args.command == "replay":
        from .headless import replay_cmd

        return common.run(replay_cmd.replay, args)
    if args.command == "create":
        from .headless import creates

        return common.run(creates.create, args)
    if args.command in CHANGES:
        from .headless import changes

        return common.run(getattr(changes, args.command), args)
    if args.command in LISTS:
        from .headless import lists

        return common.run(getattr(lists, LISTS[args.command]), args)

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
    from aftui.cli import entry

    sys.exit(entry())
