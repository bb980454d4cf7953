"""`aftui config path|show|add|remove|use|import`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from .. import config as cfg
from ..exitcodes import OK, USAGE
from ..text import visible

__all__ = ["PROFILE_FIELDS", "add_arguments", "run"]

# The text fields of a profile `aftui config add` takes as --options; read_only is a flag of its own.
PROFILE_FIELDS: tuple[str, ...] = (
    "base_url",
    "api_key",
    "api_key_env",
    "api_key_cmd",
    "client_id",
    "client_secret",
    "client_secret_env",
    "client_secret_cmd",
    "org_id",
    "project_id",
    "environment",
)

Handler = Callable[[argparse.Namespace], int]


def run(args: argparse.Namespace) -> int:
    """The action chosen on the command line; a problem with the configuration is a usage error, no traceback."""
    handler: Handler = args.handler
    try:
        return handler(args)
    except cfg.ConfigError as error:
        print(f"aftui: {error}", file=sys.stderr)
        return USAGE
    except BrokenPipeError:  # `aftui config show | head -1`: the reader has what it wanted
        from .common import quiet_stdout  # here: building the parser imports no client (common does)

        quiet_stdout()
        return OK


def _say(message: str) -> None:
    """What was done, for the person: on stderr (stdout carries data only: the path, the profiles shown)."""
    print(f"aftui: {message}", file=sys.stderr)


def path(args: argparse.Namespace) -> int:
    print(cfg.config_path())
    return OK


def show(args: argparse.Namespace) -> int:
    """Every profile (or one), secrets masked; the default marked."""
    config = cfg.load_config()
    chosen: str | None = args.name
    names = [chosen] if chosen else sorted(config.profiles)
    if not names:
        _say(
            f"no profiles in {cfg.config_path()}; add one with `aftui config add NAME --api-key-env VAR` or try `aftui demo`"
        )
        return OK
    for name in names:
        profile = config.get(name)
        mark = " (default)" if name == config.default else ""
        print(f"[{visible(name)}]{mark}")
        for key, value in cfg.show_profile(profile).items():
            if key != "name" and value not in (None, False):
                print(f"  {key:<18} {visible(value)}")
    return OK


CREDENTIAL_FIELDS = ("api_key", "api_key_env", "api_key_cmd", "client_id")


def add(args: argparse.Namespace) -> int:
    config = cfg.load_config()
    name: str = args.name
    read_only: bool = args.read_only
    fields: dict[str, Any] = {
        field: getattr(args, field) for field in PROFILE_FIELDS if getattr(args, field) is not None
    }
    profile = cfg.Profile(name=name, read_only=read_only, production=None, **fields)  # production: set in the file
    force: bool = args.force
    config.add(profile, overwrite=force)
    make_default: bool = args.default
    if make_default or config.default is None:
        config.default = profile.name
    cfg.save_config(config)
    marked = " (default)" if config.default == profile.name else ""
    _say(f"profile {name!r} saved in {cfg.config_path()}{marked}")
    if not any(field in fields for field in CREDENTIAL_FIELDS):
        # Allowed (AFTUI_API_KEY may give the key where it runs), but said now rather than at the first use.
        _say(
            f"note: {name!r} has no credential: each use needs AFTUI_API_KEY; to keep one in it, add it again"
            " with --force and one of --api-key-env, --api-key-cmd, --client-id"
        )
    return OK


def remove(args: argparse.Namespace) -> int:
    config = cfg.load_config()
    name: str = args.name
    config.remove(name)
    cfg.save_config(config)
    _say(f"profile {name!r} removed")
    return OK


def use(args: argparse.Namespace) -> int:
    config = cfg.load_config()
    name: str = args.name
    config.use(name)
    cfg.save_config(config)
    _say(f"default profile is now {name!r}")
    return OK


def import_cli(args: argparse.Namespace) -> int:
    """Copy the official CLI's profiles in; existing names are kept unless --force."""
    found = cfg.import_pipedream_cli()
    if not found:
        _say(f"no profiles found in {cfg.pipedream_cli_path()}")
        return OK
    config = cfg.load_config()
    force: bool = args.force
    added: list[str] = []
    for profile in found:
        if profile.name in config.profiles and not force:
            _say(f"skipped {profile.name!r}: a profile of that name exists (use --force to replace it)")
            continue
        config.add(profile, overwrite=True)
        added.append(profile.name)
    if config.default is None and added:
        config.default = added[0]
    cfg.save_config(config)
    _say(f"imported {len(added)} profile(s): {', '.join(added) or 'none'}")
    return OK


# What each --option of `aftui config add` sets (README, Profiles and headless commands).
FIELD_HELP: dict[str, tuple[str, str]] = {
    "base_url": ("URL", "the service's API address, version included (default: the service's own)"),
    "api_key": ("KEY", "a user API key, stored in the file (prefer --api-key-env or --api-key-cmd)"),
    "api_key_env": ("VAR", "the environment variable that holds the user API key"),
    "api_key_cmd": ("COMMAND", "a command that prints the user API key (a password manager: 'pass show pd/key')"),
    "client_id": ("ID", "an OAuth client id (with one of the --client-secret options)"),
    "client_secret": ("SECRET", "the OAuth client secret, stored in the file (prefer the _env or _cmd forms)"),
    "client_secret_env": ("VAR", "the environment variable that holds the OAuth client secret"),
    "client_secret_cmd": ("COMMAND", "a command that prints the OAuth client secret"),
    "org_id": ("ORG_ID", "the workspace (o_...) to use with a user API key"),
    "project_id": ("PROJECT_ID", "the Connect project (proj_...)"),
    "environment": ("ENV", "the Connect environment: production (default) or development"),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The `aftui config` sub-commands."""
    from .complete import attach, profiles

    sub = parser.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    sub.add_parser(
        "path", help="print where the config file is", description="Print where the config file is."
    ).set_defaults(handler=path)
    p_show = sub.add_parser("show", help="show profiles, secrets masked", description="Show profiles, secrets masked.")
    attach(p_show.add_argument("name", nargs="?", help="only this profile (default: all of them)"), profiles)
    p_show.set_defaults(handler=show)
    p_add = sub.add_parser("add", help="add a profile", description="Add a connection profile (one credential).")
    p_add.add_argument("name", help="the profile's name, used with -p NAME")
    for name in PROFILE_FIELDS:
        metavar, words = FIELD_HELP[name]
        p_add.add_argument("--" + name.replace("_", "-"), dest=name, metavar=metavar, help=words)
    p_add.add_argument("--read-only", action="store_true", help="refuse every change through this profile")
    p_add.add_argument("--default", action="store_true", help="make it the default profile")
    p_add.add_argument("--force", action="store_true", help="replace a profile of the same name")
    p_add.set_defaults(handler=add)
    p_remove = sub.add_parser("remove", help="remove a profile", description="Remove a profile from the config file.")
    attach(p_remove.add_argument("name", help="the profile to remove"), profiles)
    p_remove.set_defaults(handler=remove)
    p_use = sub.add_parser("use", help="make a profile the default", description="Make a profile the default.")
    attach(p_use.add_argument("name", help="the profile to use by default"), profiles)
    p_use.set_defaults(handler=use)
    p_import = sub.add_parser(
        "import",
        help="import the profiles of the official CLI ($XDG_CONFIG_HOME/pipedream/config)",
        description="Import the profiles of the official CLI ($XDG_CONFIG_HOME/pipedream/config).",
    )
    p_import.add_argument("--force", action="store_true", help="replace profiles of the same name")
    p_import.set_defaults(handler=import_cli)
