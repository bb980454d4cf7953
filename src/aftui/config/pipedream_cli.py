"""Import of the official CLI's profiles, from its INI file."""

from __future__ import annotations

from pathlib import Path

from .errors import ConfigError, ProfileError
from .paths import pipedream_cli_path
from .profiles import Profile

__all__ = ["import_pipedream_cli"]

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
    import configparser  # here: only `aftui config import` reads the CLI's file, and a start has no use for it

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
