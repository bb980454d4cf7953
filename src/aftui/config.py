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

Typical use, with or without the TUI::

    config = load_config()
    profile = effective_profile(config)      # AFTUI_* variables applied
    credentials = resolve_secret(profile)    # env vars read, commands run

Every problem with the file is a `ConfigError` whose text names the file, the
line when it can be found, and what is wrong, so callers print it and exit
instead of showing a traceback. Secrets are masked in every repr and in
`show_profile`; the file is written with mode 0600 from the moment it exists.

Only the standard library and tomli-w: this module is imported by the CLI
before anything heavy, and by scripts that never start the TUI.
"""

from __future__ import annotations

import configparser
import dataclasses
import difflib
import os
import re
import secrets
import subprocess
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import tomli_w

__all__ = [
    "DEFAULT_BASE_URL",
    "ENVIRONMENTS",
    "Config",
    "ConfigError",
    "Credentials",
    "Profile",
    "ProfileError",
    "config_path",
    "data_dir",
    "effective_profile",
    "import_pipedream_cli",
    "load_config",
    "mask",
    "pipedream_cli_path",
    "resolve_secret",
    "save_config",
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
_OPTIONAL_TEXT_FIELDS = (*API_KEY_FIELDS, "client_id", *CLIENT_SECRET_FIELDS, "org_id", "project_id")

SECRET_COMMAND_TIMEOUT = 10  # seconds; a password manager waiting for a PIN should not hang aftui forever
_STDERR_LIMIT = 500  # characters of a failed command's stderr worth quoting

# Secrets shorter than this are masked entirely: showing 6 characters of an
# 8-character secret would give most of it away.
_MASK_MIN_LENGTH = 12

# Environment variables that override single fields of the chosen profile.
_FIELD_OVERRIDES = {
    "base_url": "AFTUI_BASE_URL",
    "org_id": "AFTUI_ORG_ID",
    "project_id": "AFTUI_PROJECT_ID",
    "environment": "AFTUI_ENVIRONMENT",
}
_TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
_FALSE_WORDS = frozenset({"", "0", "false", "no", "off"})


# -- errors -------------------------------------------------------------------


class ConfigError(Exception):
    """A problem with the configuration, meant to be shown to the user as is.

    `str(error)` is ``"<file>, line <n>: <message>"`` when the problem is in
    a file, ``"<file>: <message>"`` when the line is unknown, and just the
    message otherwise (an unknown profile name, a missing variable, ...).
    """

    def __init__(self, message: str, *, path: Path | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        if self.path is None:
            return self.message
        where = _display_path(self.path)
        if self.line is not None:
            where += f", line {self.line}"
        return f"{where}: {self.message}"

    def located(self, path: Path, line: int | None) -> ConfigError:
        """Pin this error to a place in a file, and return it for raising again."""
        self.path, self.line = path, line
        return self


class ProfileError(ConfigError):
    """An invalid profile; `key` is the offending field when there is one.

    Kept apart from `ConfigError` so that the loader can point at the line of
    `key` and environment overrides can name the variable that set it.
    """

    def __init__(self, profile: str, key: str | None, problem: str) -> None:
        super().__init__(f'profile "{profile}": {problem}')
        self.profile = profile
        self.key = key
        self.problem = problem

    def __reduce__(self) -> tuple[Any, ...]:
        # Exceptions are rebuilt from self.args, which holds only the message.
        return (type(self), (self.profile, self.key, self.problem), self.__dict__)


# -- paths --------------------------------------------------------------------


def config_path() -> Path:
    """The config file: $AFTUI_CONFIG, else $XDG_CONFIG_HOME/aftui/config.toml, else ~/.config/aftui/config.toml."""
    return _env_path("AFTUI_CONFIG") or _xdg_dir("XDG_CONFIG_HOME", ".config") / "aftui" / "config.toml"


def data_dir() -> Path:
    """The directory of aftui's own data (the journal, ...), created with mode 0700 when missing.

    $AFTUI_DATA_DIR, else $XDG_DATA_HOME/aftui, else ~/.local/share/aftui.
    """
    directory = _env_path("AFTUI_DATA_DIR") or _xdg_dir("XDG_DATA_HOME", ".local/share") / "aftui"
    _make_private_dir(directory)
    return directory


def pipedream_cli_path() -> Path:
    """The official CLI's config: $XDG_CONFIG_HOME/pipedream/config, else ~/.config/pipedream/config."""
    return _xdg_dir("XDG_CONFIG_HOME", ".config") / "pipedream" / "config"


def _env_path(variable: str) -> Path | None:
    value = os.environ.get(variable)
    return Path(value).expanduser() if value else None


def _xdg_dir(variable: str, fallback: str) -> Path:
    # The XDG spec says to ignore relative paths: they would depend on the
    # directory aftui happens to be started from.
    value = os.environ.get(variable)
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / fallback


def _display_path(path: Path) -> str:
    """The path as the user would type it: ~/... under the home directory."""
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except (ValueError, RuntimeError):  # outside home, or no home to speak of
        return str(path)


def _make_private_dir(directory: Path) -> None:
    """Create `directory` with mode 0700 if it is missing; never touch an existing one."""
    if directory.is_dir():
        return
    directory.parent.mkdir(parents=True, exist_ok=True)
    try:
        directory.mkdir(mode=0o700)
    except FileExistsError:
        return  # another process made it first; its mode is its business
    os.chmod(directory, 0o700)  # mkdir's mode is filtered through the umask


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
            raise ProfileError(name, None, f"must be a table, got {_toml_type(table)}")
        for key in table:
            if key not in _TABLE_KEYS:
                raise ProfileError(name, key, f'unknown key "{key}"{_did_you_mean(key, _TABLE_KEYS)}')
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
        self._check_credentials()

    def _check_types(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ProfileError(str(self.name), None, "the profile name must be a non-empty string")
        for key in ("base_url", "environment", *_OPTIONAL_TEXT_FIELDS):
            value = getattr(self, key)
            if value is None and key in _OPTIONAL_TEXT_FIELDS:
                continue
            # The value itself is not quoted: it could be a secret.
            if not isinstance(value, str):
                raise ProfileError(self.name, key, f"{key} must be a string, got {_toml_type(value)}")
            if not value.strip():
                raise ProfileError(self.name, key, f"{key} must not be empty (leave the key out instead)")
        if not isinstance(self.read_only, bool):
            raise ProfileError(
                self.name, "read_only", f"read_only must be true or false, got {_toml_type(self.read_only)}"
            )

    def _check_credentials(self) -> None:
        api_key = [key for key in API_KEY_FIELDS if getattr(self, key) is not None]
        secret = [key for key in CLIENT_SECRET_FIELDS if getattr(self, key) is not None]
        if len(api_key) > 1:
            raise ProfileError(
                self.name, api_key[1], f"give only one of {_or_list(API_KEY_FIELDS)}, not {_and_list(api_key)}"
            )
        if api_key and (self.client_id is not None or secret):
            other = "client_id" if self.client_id is not None else secret[0]
            raise ProfileError(
                self.name, other, f"give either an API key ({api_key[0]}) or client credentials ({other}), not both"
            )
        if len(secret) > 1:
            raise ProfileError(
                self.name, secret[1], f"give only one of {_or_list(CLIENT_SECRET_FIELDS)}, not {_and_list(secret)}"
            )
        if secret and self.client_id is None:
            raise ProfileError(self.name, secret[0], f"{secret[0]} is given without client_id")
        if self.client_id is not None and not secret:
            raise ProfileError(self.name, "client_id", f"client_id needs one of {_or_list(CLIENT_SECRET_FIELDS)}")


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
    for key in _SECRET_FIELDS:
        if shown[key] is not None:
            shown[key] = mask(shown[key])
    return shown


# -- the config file ----------------------------------------------------------


@dataclass
class Config:
    """The contents of the config file: profiles by name and the default one."""

    default: str | None = None
    profiles: dict[str, Profile] = field(default_factory=dict)

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
    path = path or config_path()
    data = tomli_w.dumps(_document(config)).encode()
    if path.is_symlink():
        path = path.resolve()
    try:
        _make_private_dir(path.parent)
        _write_private_atomically(path, data)
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
    return document


def _write_private_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same directory.

    Readers see the old file or the new one, never half of one. The temporary
    file is created with mode 0600 by os.open itself, so the secrets in it are
    never readable by others, not even for a moment; the fchmod only matters
    under an odd umask that would leave the owner unable to read it.
    """
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as file:
            os.fchmod(file.fileno(), 0o600)
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    # Makes the rename itself durable; not every platform lets a directory be opened.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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
        if key not in ("default", "profiles"):
            hint = _did_you_mean(key, ("default", "profiles"))
            raise source.error(f'unknown top-level key "{key}"{hint}', key=key)
    table = document.get("profiles", {})
    if not isinstance(table, dict):
        raise source.error(f"profiles must be a table of profiles, got {_toml_type(table)}", key="profiles")
    profiles = {name: _load_profile(name, value, source) for name, value in table.items()}
    default = document.get("default")
    if default is not None and not isinstance(default, str):
        raise source.error(f"default must be a string, got {_toml_type(default)}", key="default")
    config = Config(default=default, profiles=profiles)
    if default is not None and default not in profiles:
        raise source.error(
            f'default names the profile "{default}", which is not defined; {config._names()}', key="default"
        )
    return config


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


def _toml_type(value: object) -> str:
    """How the TOML user would call the type of `value` (never the value: it may be a secret)."""
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "an array", dict: "a table"}
    return names.get(type(value), f"a {type(value).__name__}")


def _did_you_mean(word: str, choices: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f' (did you mean "{close[0]}"?)' if close else ""


def _or_list(words: tuple[str, ...] | list[str]) -> str:
    return ", ".join(words[:-1]) + " or " + words[-1]


def _and_list(words: tuple[str, ...] | list[str]) -> str:
    return ", ".join(words[:-1]) + " and " + words[-1]


# -- secrets ------------------------------------------------------------------


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


def mask(secret: str) -> str:
    """`secret` shortened to be recognisable but not usable: "pd_a…9f", or "****" when short."""
    if len(secret) < _MASK_MIN_LENGTH:
        return "****"
    return f"{secret[:4]}…{secret[-2:]}"


def resolve_secret(profile: Profile) -> Credentials:
    """The profile's credential, reading `*_env` variables and running `*_cmd` commands."""
    if any(getattr(profile, key) is not None for key in API_KEY_FIELDS):
        return Credentials(kind="api_key", api_key=_resolve(profile, "api_key"))
    if profile.client_id is not None:
        return Credentials(kind="oauth", client_id=profile.client_id, client_secret=_resolve(profile, "client_secret"))
    raise ProfileError(
        profile.name,
        None,
        f"no credential: set one of {_or_list(API_KEY_FIELDS)}, or client_id with a client secret"
        " (or set AFTUI_API_KEY)",
    )


def _resolve(profile: Profile, key: Literal["api_key", "client_secret"]) -> str:
    """The value of `key`, given directly, as `key_env` or as `key_cmd`."""
    if (value := getattr(profile, key)) is not None:
        return value
    if (variable := getattr(profile, f"{key}_env")) is not None:
        return _from_env(profile.name, f"{key}_env", variable)
    return _from_command(profile.name, f"{key}_cmd", getattr(profile, f"{key}_cmd"))


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


# -- environment overrides ----------------------------------------------------


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
        raise ConfigError("no profiles are configured and AFTUI_API_KEY is not set")
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
        raise ConfigError(f'AFTUI_READ_ONLY must be 1, true or yes, got "{os.environ["AFTUI_READ_ONLY"]}"')
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
    if overrides.get(error.key) is not None and error.key in _OVERRIDE_VARIABLES:
        return ConfigError(f"{_OVERRIDE_VARIABLES[error.key]}: {error.problem}")
    variables = sorted(
        _OVERRIDE_VARIABLES[key] for key, value in overrides.items() if value is not None and key in _OVERRIDE_VARIABLES
    )
    return ConfigError(f"{error.message} (with {', '.join(variables) or 'AFTUI_READ_ONLY'} from the environment)")


# -- the official CLI ---------------------------------------------------------

_TOP_SECTION = "\0top"  # a section name no real file can contain


def import_pipedream_cli(path: Path | None = None) -> list[Profile]:
    """Profiles from the official CLI's config file; [] when there is none.

    The file is INI: the keys before any section are the profile "default",
    each `[name]` section is another. Only `api_key` and `org_id` are taken.
    """
    path = path or pipedream_cli_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read: {getattr(error, 'strerror', None) or error}", path=path) from None
    sections = _parse_ini(path, text)
    profiles = []
    for name, values in sections.items():
        try:
            profiles.append(Profile(name=name, api_key=values.get("api_key"), org_id=values.get("org_id")))
        except ProfileError as error:
            raise error.located(path, None) from None
    return profiles


def _parse_ini(path: Path, text: str) -> dict[str, dict[str, str]]:
    """Sections of the INI `text` by profile name, top-level keys as "default"."""
    # The CLI's file has keys before any section, which configparser refuses;
    # a made-up first section holds them. default_section is moved away so a
    # [DEFAULT] section is a profile like any other instead of leaking into all
    # of them, and interpolation is off because keys may contain "%".
    parser = configparser.ConfigParser(default_section="\0none", interpolation=None, strict=False)
    try:
        parser.read_string(f"[{_TOP_SECTION}]\n{text}", source=str(path))
    except configparser.ParsingError as error:
        line = error.errors[0][0] - 1 if error.errors else None  # minus the made-up header
        raise ConfigError("not a valid INI file", path=path, line=line) from None
    except configparser.Error as error:
        raise ConfigError(f"not a valid INI file: {error.message}", path=path) from None
    sections: dict[str, dict[str, str]] = {}
    for section in parser.sections():
        name = "default" if section == _TOP_SECTION else section
        values = {key: _strip_quotes(value) for key, value in parser.items(section) if value}
        sections.setdefault(name, {}).update(values)  # a [default] section adds to the top-level keys
    return {name: values for name, values in sections.items() if values or name != "default"}


def _strip_quotes(value: str) -> str:
    # The CLI writes bare values, but hand-edited files often quote them.
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value
