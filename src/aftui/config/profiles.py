"""Profiles and the TOML file they live in.

A profile says where the service is, how to authenticate and which
workspace, Connect project and environment to use; `Config` is the file's
contents, profiles by name and the default one. `load_config` and
`save_config` read and write the file: every problem with it is a
`ConfigError` naming the file and, when it can be found, the line. Secrets are
masked in every repr and in `show_profile`.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..files import write_private
from ..masking import mask, url_masked
from .errors import ConfigError, ProfileError, and_list, did_you_mean, or_list, toml_type
from .paths import config_path, make_private_dir

__all__ = [
    "API_KEY_FIELDS",
    "CLIENT_SECRET_FIELDS",
    "DEFAULT_BASE_URL",
    "ENVIRONMENTS",
    "Config",
    "Profile",
    "UiChoices",
    "load_config",
    "mask",
    "save_config",
    "save_ui_choice",
    "show_profile",
]

DEFAULT_BASE_URL = "https://api.pipedream.com/v1"
ENVIRONMENTS = ("production", "development")

# Where a credential may come from: the value itself, an environment variable
# holding it, or a shell command printing it (pass, op, security, ...).
API_KEY_FIELDS = ("api_key", "api_key_env", "api_key_cmd")
CLIENT_SECRET_FIELDS = ("client_secret", "client_secret_env", "client_secret_cmd")
_SECRET_FIELDS = ("api_key", "client_secret")

# Optional text fields of a profile; the rest are name/base_url/environment
# (text, always set) and read_only (bool).
_OPTIONAL_TEXT_FIELDS = (*API_KEY_FIELDS, "client_id", *CLIENT_SECRET_FIELDS, "org_id", "project_id", "journal")


# -- profiles -----------------------------------------------------------------


@dataclass(repr=False)
class Profile:
    """Connection settings for one service account. Validated on creation.

    Exactly one credential is expected: an API key (`api_key`, `api_key_env`
    or `api_key_cmd`) or OAuth client credentials (`client_id` with one of
    `client_secret`, `client_secret_env`, `client_secret_cmd`). A profile
    without any is allowed: the credential may come from AFTUI_API_KEY.
    """

    name: str
    base_url: str = DEFAULT_BASE_URL
    api_key: str | None = None
    api_key_env: str | None = None
    api_key_cmd: str | None = None
    client_id: str | None = None
    client_secret: str | None = None
    client_secret_env: str | None = None
    client_secret_cmd: str | None = None
    org_id: str | None = None
    project_id: str | None = None
    environment: str = "production"
    read_only: bool = False
    production: bool | None = None  # true: the TUI's header marks this profile PRODUCTION (None: unsaid, not written)
    # A team's shared journal: a postgresql:// URL (None: the SQLite file in the data dir), and the caps
    # everyone sharing it prunes to (None: the defaults). AFTUI_JOURNAL_URL and AFTUI_JOURNAL_MAX_* win.
    journal: str | None = None
    journal_max_rows: int | None = None
    journal_max_days: float | None = None

    def __post_init__(self) -> None:
        self.validate()

    def __repr__(self) -> str:
        # Profiles end up in logs, tracebacks and pytest diffs: mask secrets there too.
        shown = ", ".join(f"{key}={value!r}" for key, value in show_profile(self).items() if value is not None)
        return f"Profile({shown})"

    @classmethod
    def from_dict(cls, name: str, table: Mapping[str, Any]) -> Profile:
        """A profile from its TOML table (without the name); unknown keys are errors."""
        if not isinstance(table, Mapping):
            raise ProfileError(name, None, f"must be a table, got {toml_type(table)}")
        for key in table:
            if key not in _TABLE_KEYS:
                raise ProfileError(name, key, f'unknown key "{key}"{did_you_mean(key, _TABLE_KEYS)}')
        return cls(name=name, **table)

    def to_dict(self) -> dict[str, Any]:
        """The TOML table of this profile: every field that is set, except the name."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name != "name" and getattr(self, f.name) is not None
        }

    def validate(self) -> None:
        """Raise `ProfileError` for the first problem found. Called on creation."""
        self._check_types()
        if self.environment not in ENVIRONMENTS:
            raise ProfileError(
                self.name, "environment", f'environment must be "production" or "development", got "{self.environment}"'
            )
        if not _is_http_url(self.base_url):
            raise ProfileError(
                self.name, "base_url", f'base_url must be an http:// or https:// URL, got "{self.base_url}"'
            )
        self._check_journal()
        self._check_credentials()

    def _check_journal(self) -> None:
        if self.journal is not None and not self.journal.lower().startswith(("postgresql://", "postgres://")):
            raise ProfileError(self.name, "journal", "journal must be a postgresql:// URL")
        for key in ("journal_max_rows", "journal_max_days"):
            value: object = getattr(self, key)
            kinds: tuple[type, ...] = (int,) if key == "journal_max_rows" else (int, float)
            if value is not None and (isinstance(value, bool) or not isinstance(value, kinds) or float(value) < 0):  # type: ignore[arg-type]
                raise ProfileError(self.name, key, f"{key} must be a number of 0 or more, got {toml_type(value)}")

    def _check_types(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ProfileError(str(self.name), None, "the profile name must be a non-empty string")
        for key in ("base_url", "environment", *_OPTIONAL_TEXT_FIELDS):
            value = getattr(self, key)
            if value is None and key in _OPTIONAL_TEXT_FIELDS:
                continue
            # The value itself is not quoted: it could be a secret.
            if not isinstance(value, str):
                raise ProfileError(self.name, key, f"{key} must be a string, got {toml_type(value)}")
            if not value.strip():
                raise ProfileError(self.name, key, f"{key} must not be empty (leave the key out instead)")
        if self.production is not None and not isinstance(self.production, bool):
            raise ProfileError(
                self.name, "production", f"production must be true or false, got {toml_type(self.production)}"
            )
        if not isinstance(self.read_only, bool):
            raise ProfileError(
                self.name, "read_only", f"read_only must be true or false, got {toml_type(self.read_only)}"
            )

    def _check_credentials(self) -> None:
        api_key = [key for key in API_KEY_FIELDS if getattr(self, key) is not None]
        secret = [key for key in CLIENT_SECRET_FIELDS if getattr(self, key) is not None]
        if len(api_key) > 1:
            raise ProfileError(
                self.name, api_key[1], f"give only one of {or_list(API_KEY_FIELDS)}, not {and_list(api_key)}"
            )
        if api_key and (self.client_id is not None or secret):
            other = "client_id" if self.client_id is not None else secret[0]
            raise ProfileError(
                self.name, other, f"give either an API key ({api_key[0]}) or client credentials ({other}), not both"
            )
        if len(secret) > 1:
            raise ProfileError(
                self.name, secret[1], f"give only one of {or_list(CLIENT_SECRET_FIELDS)}, not {and_list(secret)}"
            )
        if secret and self.client_id is None:
            raise ProfileError(self.name, secret[0], f"{secret[0]} is given without client_id")
        if self.client_id is not None and not secret:
            raise ProfileError(self.name, "client_id", f"client_id needs one of {or_list(CLIENT_SECRET_FIELDS)}")


_TABLE_KEYS = tuple(f.name for f in dataclasses.fields(Profile) if f.name != "name")


def _is_http_url(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def show_profile(profile: Profile) -> dict[str, Any]:
    """Every field of `profile` for display, with `api_key` and `client_secret` masked.

    `*_env` and `*_cmd` are shown as they are: they say where the secret is,
    not what it is.
    """
    shown = {f.name: getattr(profile, f.name) for f in dataclasses.fields(profile)}
    if shown["production"] is None:
        del shown["production"]  # unsaid: nothing to show (`production = true` in the file marks the header)
    for key in _SECRET_FIELDS:
        if shown[key] is not None:
            shown[key] = mask(shown[key])
    if shown["journal"]:
        shown["journal"] = url_masked(shown["journal"])
    return shown


# -- the config file ----------------------------------------------------------


@dataclass
class UiChoices:
    """What the user chose in the TUI and finds again next time (`[ui]` in the file); None: not chosen."""

    theme: str | None = None  # a Textual theme's name (the palette's "theme")
    sidebar: bool | None = None  # ctrl+b: shown or hidden; None follows the terminal's width
    bell: bool | None = None  # ring the terminal's bell on a new error group or a spike (set by hand)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}


_UI_TYPES: dict[str, type] = {"theme": str, "sidebar": bool, "bell": bool}


@dataclass
class Config:
    """The contents of the config file: profiles by name, the default one, and the TUI's choices."""

    default: str | None = None
    profiles: dict[str, Profile] = field(default_factory=dict)
    ui: UiChoices = field(default_factory=UiChoices)

    def add(self, profile: Profile, *, overwrite: bool = False) -> None:
        """Add `profile`; replacing one of the same name only with `overwrite`."""
        if profile.name in self.profiles and not overwrite:
            raise ConfigError(f'profile "{profile.name}" already exists')
        self.profiles[profile.name] = profile

    def remove(self, name: str) -> Profile:
        """Remove a profile and return it; the default is cleared if it was this one."""
        profile = self._known(name)
        del self.profiles[name]
        if self.default == name:
            self.default = None
        return profile

    def use(self, name: str) -> None:
        """Make `name` the default profile."""
        self._known(name)
        self.default = name

    def get(self, name: str | None = None) -> Profile:
        """The profile called `name`, or when None the one the user means.

        That is the one named by $AFTUI_PROFILE, else the default, else the
        only profile when there is exactly one.
        """
        if name is not None:
            return self._known(name)
        if chosen := os.environ.get("AFTUI_PROFILE"):
            return self._known(chosen, " (from AFTUI_PROFILE)")
        if self.default is not None:
            return self._known(self.default, " (the default)")
        if len(self.profiles) == 1:
            return next(iter(self.profiles.values()))
        if not self.profiles:
            raise ConfigError("no profiles are configured")
        raise ConfigError(
            f"{len(self.profiles)} profiles and no default: choose one with AFTUI_PROFILE or set a default"
            f" ({self._names()})"
        )

    def _known(self, name: str, source: str = "") -> Profile:
        try:
            return self.profiles[name]
        except KeyError:
            raise ConfigError(f'unknown profile "{name}"{source}; {self._names()}') from None

    def _names(self) -> str:
        if not self.profiles:
            return "no profiles are configured"
        return "known profiles: " + ", ".join(sorted(self.profiles))


def load_config(path: Path | None = None) -> Config:
    """Read the config file; a missing file is an empty `Config`.

    Any problem with the file, from bad bytes to a bad value, is a
    `ConfigError` naming the file and, when it can be found, the line.
    """
    path = path or config_path()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Config()
    except OSError as error:
        raise ConfigError(f"cannot read: {error.strerror or error}", path=path) from None
    source = _Source(path, _decode(path, data))
    try:
        document = tomllib.loads(source.text)
    except tomllib.TOMLDecodeError as error:
        raise _syntax_error(path, source, error) from None
    return _config_from_document(document, source)


def save_config(config: Config, path: Path | None = None) -> None:
    """Write `config` atomically, readable by the owner only.

    The file is replaced as a whole, so comments in it are not kept. A
    symlinked config file (dotfile managers) is written through the link.
    """
    import tomli_w  # here: a start reads the config, only a change writes it

    path = path or config_path()
    data = tomli_w.dumps(_document(config)).encode()
    if path.is_symlink():
        path = path.resolve()
    try:
        make_private_dir(path.parent)
        write_private(path, data)
    except OSError as error:
        raise ConfigError(f"cannot write: {error.strerror or error}", path=path) from None


def _document(config: Config) -> dict[str, Any]:
    """The TOML document of `config`, after checking it would load again."""
    for name, profile in config.profiles.items():
        if name != profile.name:
            raise ConfigError(f'profile "{profile.name}" is stored under the name "{name}"')
        profile.validate()  # fields may have been assigned since creation
    if config.default is not None and config.default not in config.profiles:
        raise ConfigError(f'the default profile "{config.default}" does not exist; {config._names()}')
    document: dict[str, Any] = {}
    if config.default is not None:
        document["default"] = config.default
    document["profiles"] = {name: profile.to_dict() for name, profile in config.profiles.items()}
    if ui := config.ui.to_dict():
        document["ui"] = ui
    return document


def _decode(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ConfigError("the file is not UTF-8 text", path=path, line=line) from None


def _syntax_error(path: Path, source: _Source, error: tomllib.TOMLDecodeError) -> ConfigError:
    # tomllib puts the place at the end of its message; move it to the front
    # where every other error of this module has it.
    message = str(error)
    if match := re.search(r" \(at line (\d+), column (\d+)\)$", message):
        return ConfigError(
            f"invalid TOML: {message[: match.start()]} (column {match[2]})", path=path, line=int(match[1])
        )
    if message.endswith(" (at end of document)"):
        message = message.removesuffix(" (at end of document)")
        return ConfigError(f"invalid TOML: {message} at the end of the file", path=path, line=source.line_count)
    return ConfigError(f"invalid TOML: {message}", path=path)


def _config_from_document(document: dict[str, Any], source: _Source) -> Config:
    for key in document:
        if key not in ("default", "profiles", "ui"):
            hint = did_you_mean(key, ("default", "profiles", "ui"))
            raise source.error(f'unknown top-level key "{key}"{hint}', key=key)
    table = document.get("profiles", {})
    if not isinstance(table, dict):
        raise source.error(f"profiles must be a table of profiles, got {toml_type(table)}", key="profiles")
    profiles = {name: _load_profile(name, value, source) for name, value in table.items()}
    default = document.get("default")
    if default is not None and not isinstance(default, str):
        raise source.error(f"default must be a string, got {toml_type(default)}", key="default")
    config = Config(default=default, profiles=profiles, ui=_load_ui(document.get("ui", {}), source))
    if default is not None and default not in profiles:
        raise source.error(
            f'default names the profile "{default}", which is not defined; {config._names()}', key="default"
        )
    return config


def _load_ui(table: Any, source: _Source) -> UiChoices:
    if not isinstance(table, dict):
        raise source.error(f"ui must be a table, got {toml_type(table)}", key="ui")
    for key, value in table.items():
        if key not in _UI_TYPES:
            raise source.error(f'unknown key "{key}" in ui{did_you_mean(key, tuple(_UI_TYPES))}', key=key)
        if not isinstance(value, _UI_TYPES[key]):
            raise source.error(f"ui.{key} must be {toml_type(_UI_TYPES[key]())}, got {toml_type(value)}", key=key)
    return UiChoices(**table)


def save_ui_choice(path: Path | None = None, **choices: Any) -> None:
    """Record TUI choices (`theme=`, `sidebar=`) in the config file, leaving everything else as it is."""
    config = load_config(path)
    config.ui = dataclasses.replace(config.ui, **choices)
    save_config(config, path)


def _load_profile(name: str, table: Any, source: _Source) -> Profile:
    try:
        return Profile.from_dict(name, table)
    except ProfileError as error:
        raise error.located(source.path, source.profile_line(name, error.key)) from None


class _Source:
    """The text of a config file, to find the line a problem is on.

    tomllib gives values, not positions, so lines are found by looking for
    `[profiles.NAME]` headers and `key =` lines. That covers files written by
    hand in the usual layout and every file `save_config` writes; for inline
    tables or dotted keys the line may stay unknown and only the file is named.
    """

    _KEY = r"""("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)"""  # basic, literal or bare key
    _HEADER = re.compile(rf"^\s*\[\s*profiles\s*(?:\.\s*{_KEY}\s*)?\]")
    _SUBTABLE = re.compile(rf"^\s*\[\s*profiles\s*\.\s*{_KEY}\s*\.\s*{_KEY}\s*[.\]]")
    _KEY_VALUE = re.compile(rf"^\s*{_KEY}\s*=")

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text
        self.lines = text.splitlines()

    @property
    def line_count(self) -> int:
        return max(len(self.lines), 1)

    def error(self, message: str, *, key: str) -> ConfigError:
        """An error about a top-level key, at its line."""
        return ConfigError(message, path=self.path, line=self._key_line(key, self._top_level()))

    def profile_line(self, name: str, key: str | None) -> int | None:
        """The line of `key` in the profile's section, else of the section header.

        `key` may also be a sub-table, `[profiles.NAME.KEY]`. A profile written
        as `NAME = {...}` under `[profiles]` has no section of its own; its
        line is the one `NAME` is on.
        """
        header = self._header_line(name)
        if key is not None:
            if header is not None and (line := self._key_line(key, self._section(header))) is not None:
                return line
            if (line := self._subtable_line(name, key)) is not None:
                return line
        if header is not None:
            return header
        profiles = self._header_line(None)
        return None if profiles is None else self._key_line(name, self._section(profiles))

    def _header_line(self, name: str | None) -> int | None:
        """The line of `[profiles.NAME]`, or of `[profiles]` itself when `name` is None."""
        for number, line in enumerate(self.lines, 1):
            match = self._HEADER.match(line)
            if match and (None if match[1] is None else _unquote(match[1])) == name:
                return number
        return None

    def _subtable_line(self, name: str, key: str) -> int | None:
        for number, line in enumerate(self.lines, 1):
            match = self._SUBTABLE.match(line)
            if match and (_unquote(match[1]), _unquote(match[2])) == (name, key):
                return number
        return None

    def _top_level(self) -> Iterator[tuple[int, str]]:
        """Numbered lines before the first table header."""
        for number, line in enumerate(self.lines, 1):
            if line.lstrip().startswith("["):
                return
            yield number, line

    def _section(self, header: int) -> Iterator[tuple[int, str]]:
        """Numbered lines after the header on line `header`, up to the next header."""
        for number, line in enumerate(self.lines[header:], header + 1):
            if line.lstrip().startswith("["):
                return
            yield number, line

    def _key_line(self, key: str, lines: Iterator[tuple[int, str]]) -> int | None:
        for number, line in lines:
            if (match := self._KEY_VALUE.match(line)) and _unquote(match[1]) == key:
                return number
        return None


def _unquote(key: str) -> str:
    """The name a header's key stands for: TOML's basic strings escape like Python's."""
    if key[:1] == '"':
        return key[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
    if key[:1] == "'":
        return key[1:-1]
    return key
