"""The journal's SQLite file on disk: opened private, told apart when damaged, moved aside.

Stdlib only and light, so the replay log (replays.py) and the event store (store.py) share it
without one paying for the other's imports.

Private: the journal holds payloads (personal data, the workflows a team runs), so the database
and its `-wal` and `-shm` files are 0600 like every file aftui writes (files.py). The database is
created 0600 by `os.open` before SQLite sees it (an empty file is an empty database); SQLite gives
the `-wal` and `-shm` it creates the database's own mode (os_unix.c copies it with fchmod, past the
umask), and files left by an older aftui, made under the umask, are set to 0600 when opened.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

__all__ = [
    "PRIVATE",
    "SIDE_FILES",
    "connect",
    "is_corrupt",
    "is_disk_full",
    "is_locked",
    "is_read_only",
    "make_private",
    "move_aside",
]

PRIVATE = 0o600
SIDE_FILES = ("-wal", "-shm", "-journal")  # what SQLite keeps beside a database, by suffix


def side_paths(path: Path) -> list[Path]:
    """The database and the files SQLite keeps beside it."""
    return [path, *(path.with_name(path.name + suffix) for suffix in SIDE_FILES)]


def make_private(path: Path) -> None:
    """Create `path` 0600 if it is missing; set it and its side files to 0600 where they are not.

    An existing database is never opened here: closing any descriptor of a file drops every POSIX lock
    the process holds on it, SQLite's of a connection already open among them. The journal's second
    connection (the replay log's) did that to the first, and another aftui closing the same journal
    then took itself for its last user and deleted the `-wal` and `-shm` under this one ("disk I/O
    error" from then on, and the replays it recorded lost).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, PRIVATE)
    except FileExistsError:
        pass
    except OSError as error:
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM) and path.exists():
            return  # a read-only place: SQLite says so when it tries to write, in its words
        raise
    else:
        os.close(fd)  # just made: no connection of this process can hold a lock on it yet
    for file in side_paths(path):
        try:
            if file.stat().st_mode & 0o777 != PRIVATE:
                os.chmod(file, PRIVATE)
        except FileNotFoundError:
            continue
        except OSError:
            continue  # a read-only file system: nothing can be written there either


def connect(path: Path, *, timeout: float = 10.0) -> sqlite3.Connection:
    """A connection to the database at `path`, its files private; autocommit (we open transactions)."""
    make_private(path)
    return sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=timeout)


# --- telling failures apart ----------------------------------------------------------------------------

# sqlite3 errors carry their SQLite code from Python 3.11 on (`sqlite_errorcode`).
_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26
_SQLITE_FULL = 13
_SQLITE_BUSY, _SQLITE_LOCKED = 5, 6
_SQLITE_READONLY, _SQLITE_CANTOPEN, _SQLITE_IOERR, _SQLITE_PERM = 8, 14, 10, 3


def _code(error: BaseException) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def is_corrupt(error: BaseException) -> bool:
    """The file is not a database, or its pages are damaged."""
    if not isinstance(error, sqlite3.DatabaseError):
        return False
    if _code(error) in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return True
    text = str(error).lower()
    return "file is not a database" in text or "malformed" in text


def is_disk_full(error: BaseException) -> bool:
    if isinstance(error, OSError):
        return error.errno in (errno.ENOSPC, errno.EDQUOT)
    return _code(error) == _SQLITE_FULL or "database or disk is full" in str(error).lower()


def is_locked(error: BaseException) -> bool:
    """Another connection (another aftui) held the write lock past the busy timeout."""
    return _code(error) in (_SQLITE_BUSY, _SQLITE_LOCKED) or "database is locked" in str(error).lower()


def is_read_only(error: BaseException) -> bool:
    if isinstance(error, OSError):
        return error.errno in (errno.EROFS, errno.EACCES, errno.EPERM)
    if _code(error) in (_SQLITE_READONLY, _SQLITE_PERM):
        return True
    return "readonly database" in str(error).lower() or "read-only" in str(error).lower()


def why(error: BaseException) -> str:
    """A failure in the user's words."""
    if is_disk_full(error):
        return "disk full"
    if is_corrupt(error):
        return f"the journal file is damaged ({error})"
    if is_locked(error):
        return "another aftui holds the journal (database is locked)"
    if is_read_only(error):
        return f"the data dir is read-only ({error})"
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error) or type(error).__name__


# --- moving a damaged journal aside ---------------------------------------------------------------------


def move_aside(path: Path, now: datetime | None = None) -> Path:
    """Rename `path` (and its side files, keeping their suffixes) to `<name>.corrupt-<UTC stamp>`; return the new path.

    The side files keep SQLite's naming, so the moved database opens with its WAL for whoever
    wants to rescue rows from it.
    """
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while any(p.exists() for p in side_paths(target)):
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    for old, new in zip(side_paths(path), side_paths(target), strict=True):
        try:
            os.replace(old, new)
        except FileNotFoundError:
            continue
    return target
