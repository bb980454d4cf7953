"""Files aftui writes: atomically, and readable by the user alone.

Everything aftui writes may hold secrets (the config) or their neighbours (payloads with personal
data, the workflows a team runs), so every file is created 0600 from its first byte.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

PRIVATE = 0o600
PRIVATE_DIR = 0o700


def write_private(path: Path, data: bytes | str | Iterable[str]) -> None:
    """Write `data` to `path` through a temporary file in the same directory.

    Readers see the old file or the new one, never half of one. The temporary file is created 0600
    by os.open itself, so it is never readable by others, not even for a moment; the fchmod only
    matters under an odd umask that would leave the owner unable to read it. Lines (an iterable of
    str) are streamed, so a large export is never one string in memory.
    """
    # A folder made here is the owner's alone too (exports/ was 0755 beside a 0700 data dir; its names say
    # which events were exported and when).
    path.parent.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    try:
        with os.fdopen(fd, "wb") as file:
            os.fchmod(file.fileno(), PRIVATE)
            if isinstance(data, bytes):
                file.write(data)
            elif isinstance(data, str):
                file.write(data.encode())
            else:
                for chunk in data:
                    file.write(chunk.encode())
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def unused_path(folder: Path, stem: str, suffix: str, now: datetime | None = None) -> Path:
    """`<folder>/<stem>-<UTC time><suffix>`, numbered `-2`, `-3`... past any file already there."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    path = folder / f"{stem}-{stamp}{suffix}"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{stamp}-{n}{suffix}"
    return path


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
