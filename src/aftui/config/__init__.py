"""Profiles of connection settings: the config file, its paths, and secrets.

A profile says where the service is (`base_url`), how to authenticate (a user
API key or OAuth client credentials, each given literally, by the name of an
environment variable, or by a command that prints it) and which workspace,
Connect project and environment to use. Profiles live in a TOML file::

    default = "work"

    [profiles.work]
    base_url = "https://api.example.com/v1"
    api_key_env = "WORK_KEY"
    org_id = "o_abc"
    read_only = true

    [ui]                  # what the TUI was last set to (the palette's theme, ctrl+b)
    theme = "nord"
    sidebar = false

Typical use, with or without the TUI::

    config = load_config()
    profile = effective_profile(config)      # AFTUI_* variables applied
    credentials = resolve_secret(profile)    # env vars read, commands run

Every problem with the file is a `ConfigError` whose text names the file, the
line when it can be found, and what is wrong, so callers print it and exit
instead of showing a traceback. Secrets are masked in every repr and in
`show_profile`; the file is written with mode 0600 from the moment it exists.

One module a concern, each importing only those listed before it:

- `paths`: where the config file, the data dir and the official CLI's config are
- `errors`: `ConfigError`, `ProfileError` and the wording their messages share
- `profiles`: `Profile`, `Config` and the TOML file they are read from and written to
- `credentials`: secrets resolved from `*_env` variables and `*_cmd` commands
- `demo`: the running demo as the profile "demo", and its own data dir
- `overrides`: the AFTUI_* variables applied to the chosen profile
- `pipedream_cli`: the official CLI's profiles imported

Only the standard library and tomli-w: this package is imported by the CLI
before anything heavy, and by scripts that never start the TUI.
"""

from __future__ import annotations

from .credentials import SECRET_COMMAND_TIMEOUT, Credentials, resolve_secret
from .errors import ConfigError, ProfileError
from .overrides import effective_profile
from .paths import config_path, data_dir, pipedream_cli_path
from .pipedream_cli import import_pipedream_cli
from .profiles import (
    API_KEY_FIELDS,
    CLIENT_SECRET_FIELDS,
    DEFAULT_BASE_URL,
    ENVIRONMENTS,
    Config,
    Profile,
    UiChoices,
    load_config,
    mask,
    save_config,
    save_ui_choice,
    show_profile,
)

__all__ = [
    "API_KEY_FIELDS",
    "CLIENT_SECRET_FIELDS",
    "DEFAULT_BASE_URL",
    "ENVIRONMENTS",
    "SECRET_COMMAND_TIMEOUT",
    "Config",
    "ConfigError",
    "Credentials",
    "Profile",
    "ProfileError",
    "UiChoices",
    "config_path",
    "data_dir",
    "effective_profile",
    "import_pipedream_cli",
    "load_config",
    "mask",
    "pipedream_cli_path",
    "resolve_secret",
    "save_config",
    "save_ui_choice",
    "show_profile",
]
