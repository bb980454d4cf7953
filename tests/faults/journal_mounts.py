"""Real file-system faults for the journal's tests: a tiny tmpfs to fill, a read-only mount.

These need root (CI and the project's machines run as root). A fault that cannot be set up fails
the test: a test that skipped its fault would pass while proving nothing.
"""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), capture_output=True, text=True, check=False)


@contextmanager
def tmpfs(where: Path, size: str = "2m") -> Iterator[Path]:
    """A tmpfs of `size` mounted at `where` for the block; unmounted after, whatever happened."""
    where.mkdir(parents=True, exist_ok=True)
    done = _run("mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where))
    assert done.returncode == 0, f"cannot mount a tmpfs at {where} (these tests need root): {done.stderr.strip()}"
    try:
        yield where
    finally:
        if _run("umount", str(where)).returncode != 0:
            lazy = _run("umount", "-l", str(where))  # something still holds a file: detach it now, freed when closed
            assert lazy.returncode == 0, f"cannot unmount {where}: {lazy.stderr.strip()}"


def remount(where: Path, *, read_only: bool) -> None:
    done = _run("mount", "-o", "remount," + ("ro" if read_only else "rw"), str(where))
    assert done.returncode == 0, f"cannot remount {where}: {done.stderr.strip()}"


def fill(where: Path) -> Path:
    """Write a file until the file system is full; return it (unlink it to give the space back)."""
    filler = where / "filler"
    block = b"\0" * 4096
    with filler.open("wb", buffering=0) as file:
        try:
            while True:
                file.write(block)
        except OSError as error:
            assert error.errno == errno.ENOSPC, error
    # Smaller writes take the last partial block.
    with filler.open("ab", buffering=0) as file:
        try:
            while True:
                file.write(b"\0" * 64)
        except OSError as error:
            assert error.errno == errno.ENOSPC, error
    probe = where / "probe"
    try:
        probe.write_bytes(b"x" * 4096)
    except OSError as error:
        assert error.errno == errno.ENOSPC, error
    else:
        raise AssertionError(f"{where} is not full after filling it")
    finally:
        probe.unlink(missing_ok=True)
    return filler


def free(filler: Path) -> None:
    os.unlink(filler)
