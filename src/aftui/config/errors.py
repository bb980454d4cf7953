"""The errors of the configuration, and the wording their messages share.

Every module of the package raises these, so they sit below all of them: a
`ConfigError` is meant to be printed as is, naming the file, the line when it
can be found, and what is wrong.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from .paths import display_path

__all__ = ["ConfigError", "ProfileError", "and_list", "did_you_mean", "or_list", "toml_type"]


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
        where = display_path(self.path)
        if self.line is not None:
            where += f", line {self.line}"
        return f"{where}: {self.message}"

    def located(self, path: Path, line: int | None) -> ConfigError:
        """Pin this error to a place in a file, and return it for raising again."""
        self.path, self.line = path, line
        return self


class DemoNotRunning(ConfigError):
    """`-p demo` with no demo running (none started, or it ended). To a script the service is down, as when it
    cannot be reached: a command exits 5 (network), not 2, which said "my usage is wrong" the moment a demo
    that a script had been talking to ended."""


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


def toml_type(value: object) -> str:
    """How the TOML user would call the type of `value` (never the value: it may be a secret)."""
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "an array", dict: "a table"}
    return names.get(type(value), f"a {type(value).__name__}")


def did_you_mean(word: str, choices: tuple[str, ...]) -> str:
    """' (did you mean "x"?)' for the closest of `choices`, or "" when none is close."""
    close = difflib.get_close_matches(word, choices, n=1)
    return f' (did you mean "{close[0]}"?)' if close else ""


def or_list(words: tuple[str, ...] | list[str]) -> str:
    return ", ".join(words[:-1]) + " or " + words[-1]


def and_list(words: tuple[str, ...] | list[str]) -> str:
    return ", ".join(words[:-1]) + " and " + words[-1]
