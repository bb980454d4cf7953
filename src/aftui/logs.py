"""aftui's log: the `aftui` logger tree, written to one rotating file in the data dir, with no secret in it.

Every module logs to `logging.getLogger(__name__)`; `cli.main` sets the tree up once with `configured()`
for the length of the command: `<data dir>/aftui.log` (`<data dir>/demo/aftui.log` for `aftui demo`),
rotated at 1 MB with 3 old files kept, created 0600. The level is WARNING unless `--debug` or
AFTUI_LOG_LEVEL says otherwise. The headless commands also print warnings on stderr, as Python did
before the tree had a handler; the TUI never does: a line on stderr would be drawn over the screen.

The root logger is left alone: the libraries' own logs (httpx, uvicorn) are theirs to configure, and
records still propagate to it, so pytest's caplog sees them.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from io import TextIOWrapper
from logging.handlers import RotatingFileHandler
from pathlib import Path

from .config.paths import data_dir, make_private_dir
from .files import PRIVATE

__all__ = [
    "BACKUPS",
    "FILE_FORMAT",
    "LEVELS",
    "LEVEL_VARIABLE",
    "LOG_FILE",
    "MASK",
    "MAX_BYTES",
    "LevelError",
    "PrivateRotatingFileHandler",
    "SecretFilter",
    "configured",
    "level_from",
    "log_file",
    "redact",
]

LOG_FILE = "aftui.log"
MAX_BYTES = 1_000_000
BACKUPS = 3
LEVEL_VARIABLE = "AFTUI_LOG_LEVEL"
LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
}
# The process id tells apart an `aftui` and an `aftui tail` appending to the same file.
FILE_FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"

MASK = "****"
_ROOT = "aftui"
_SERVER = "uvicorn"


class LevelError(ValueError):
    """AFTUI_LOG_LEVEL names no level; the message says which ones there are."""


def level_from(debug: bool, environ: Mapping[str, str]) -> int:
    """DEBUG with `--debug`, else the level AFTUI_LOG_LEVEL names (any case), else WARNING.

    A bad AFTUI_LOG_LEVEL is an error even with `--debug`: a typo in the environment should be heard
    the first time, not the day `--debug` is dropped.
    """
    text = environ.get(LEVEL_VARIABLE, "").strip()
    level = LEVELS.get(text.lower()) if text else logging.WARNING
    if level is None:
        raise LevelError(f'{LEVEL_VARIABLE} must be one of {", ".join(LEVELS)}, got "{text}"')
    return logging.DEBUG if debug else level


def log_file(demo: bool = False) -> Path:
    """`<data dir>/aftui.log`, or the demo's beside its other data; the directories created 0700.

    The demo's folder is the one `tui.run.demo_session` keeps its journal and known workflows in.
    """
    directory = data_dir() / "demo" if demo else data_dir()
    make_private_dir(directory)
    return directory / LOG_FILE


@contextmanager
def configured(level: int, *, demo: bool = False, stderr: bool = False) -> Iterator[Path | None]:
    """The `aftui` tree logging at `level` to the log file while the block runs; yields the file.

    When the file cannot be opened, the block runs with logging going nowhere (said once on stderr) and
    yields None. `stderr` adds warnings on stderr: never while a TUI is up. The tree's level and handlers
    are put back afterwards, so a test calling `cli.main` leaves the process as it found it.
    """
    tree = logging.getLogger(_ROOT)
    # The emulator in the demo runs uvicorn on a thread of this process (without uvicorn's own logging
    # setup): its warnings and tracebacks belong in the same file, never on stderr under the TUI.
    server = logging.getLogger(_SERVER)
    saved = (tree.level, server.level, server.propagate)
    path, handlers = _handlers(demo, stderr)
    tree.setLevel(level)
    server.setLevel(max(level, logging.WARNING))  # uvicorn's info lines are for a server's console
    server.propagate = False
    for handler in handlers:
        tree.addHandler(handler)
        server.addHandler(handler)
    try:
        yield path
    finally:
        for handler in handlers:
            tree.removeHandler(handler)
            server.removeHandler(handler)
            handler.close()
        tree.setLevel(saved[0])
        server.setLevel(saved[1])
        server.propagate = saved[2]


def _handlers(demo: bool, stderr: bool) -> tuple[Path | None, list[logging.Handler]]:
    handlers: list[logging.Handler] = []
    path = _open_file(demo, handlers)
    if stderr:
        # Warnings and worse, as every message of a command on stderr reads: `aftui: …`.
        console = logging.StreamHandler(sys.stderr)
        console.setLevel(logging.WARNING)
        console.setFormatter(logging.Formatter("aftui: %(message)s"))
        handlers.append(console)
    if not handlers:
        # Without any handler on the tree, Python would print warnings on stderr over the TUI.
        handlers.append(logging.NullHandler())
    secrets = SecretFilter()
    for handler in handlers:
        handler.addFilter(secrets)
    return path, handlers


def _open_file(demo: bool, handlers: list[logging.Handler]) -> Path | None:
    path: Path | None = None
    try:
        path = log_file(demo)
        handler = PrivateRotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")
    except OSError as error:
        where = error.filename or path or "the data dir"
        print(f"aftui: not logging: cannot write {where}: {error.strerror or error}", file=sys.stderr)
        return None
    handler.setFormatter(logging.Formatter(FILE_FORMAT))
    handlers.append(handler)
    return path


class PrivateRotatingFileHandler(RotatingFileHandler):
    """A rotating log file created 0600, like every file aftui writes, and silent when it fails."""

    def _open(self) -> TextIOWrapper:
        # Called for the first file, after each rotation, and after a reset of logging (uvicorn's
        # dictConfig closes every handler) reopens it: each new file must be private from its first byte.
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, PRIVATE)
        try:
            os.fchmod(fd, PRIVATE)  # an older file, or an odd umask, may have left it readable by others
            return open(fd, "a", encoding=self.encoding, errors=self.errors)
        except BaseException:
            os.close(fd)
            raise

    def handleError(self, record: logging.LogRecord) -> None:
        # The default prints a traceback on stderr, over the TUI, for every record a full disk refuses.
        # The record is lost either way; the user was told at start when the file could not be opened.
        return


# What a credential looks like in a message, a traceback or a repr.
_SCHEME = re.compile(r"(?i)\b(bearer|basic)(\s+)[\w.~+/=-]+")
_NAMED = re.compile(
    r"""(?ix)
    (?P<name> \b [\w-]{0,40}? (?:api[_-]?key|secret|token|password|passwd|authorization|credentials?)
       ["']? \s* [:=] \s* )
    (?: (?P<quote>["']) [^"'\n]* (?P=quote) | (?:(?:bearer|basic)\s+)? [^\s"',;&)}\]]+ )
    """
)
_URL_PASSWORD = re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://[^/\s:@]+:)[^/\s@]+@")
_JWT = re.compile(r"\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*")
# Keys and client secrets are long runs of letters and digits (the service's are 32 characters);
# words, ids such as dc_abc1234 and numbers are shorter or lack one or the other.
_OPAQUE = re.compile(r"(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{24,}(?![\w-])")


def redact(text: str) -> str:
    """`text` with everything that looks like a bearer token, an API key or a client secret masked."""
    text = _SCHEME.sub(rf"\1\2{MASK}", text)
    text = _NAMED.sub(_masked_value, text)
    text = _URL_PASSWORD.sub(rf"\1{MASK}@", text)
    text = _JWT.sub(MASK, text)
    return _OPAQUE.sub(MASK, text)


def _masked_value(match: re.Match[str]) -> str:
    quote = match["quote"] or ""
    return f"{match['name']}{quote}{MASK}{quote}"


class SecretFilter(logging.Filter):
    """Masks secrets in a record's message, traceback and stack before any handler writes it.

    On the handlers rather than the `aftui` logger: a logger's filters see only the records logged on
    that very logger, not those of `aftui.journal.writer` and the rest of the tree.
    """

    _tracebacks = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError, KeyError):
            return True  # arguments that do not fit the message: the handler reports it as its own error
        masked = redact(message)
        if masked != message:
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._tracebacks.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True
