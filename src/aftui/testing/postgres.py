"""A throwaway PostgreSQL server for tests and benchmarks: initdb in a temporary folder, started on 127.0.0.1.

The system's PostgreSQL binaries (Debian's `postgresql` package: /usr/lib/postgresql/<version>/bin)
are used as they are; nothing is downloaded. The cluster trusts local connections, listens on a
free port of 127.0.0.1 only, keeps its unix socket in its own folder, and skips fsync: it lives for
one test run. PostgreSQL refuses to run as root, so under root (CI, containers) it runs as the
`postgres` user the package made. A server that cannot start raises: the caller fails, never skips.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import stat
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Self

__all__ = ["PostgresServer", "find_bindir"]

USER = "aftui"
_names = itertools.count(1)


def find_bindir() -> Path:
    """The folder of the newest PostgreSQL's `initdb` and `pg_ctl` on this machine."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name.split(".")[0])
    )
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise RuntimeError(
        "no PostgreSQL server binaries (initdb) on this machine: install Debian's postgresql package "
        "(.ci/run does, when they are missing)"
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """`with PostgresServer() as server: server.database()` gives the URL of a fresh, empty database."""

    def __init__(self) -> None:
        self.bindir = find_bindir()
        self.root = Path(tempfile.mkdtemp(prefix="aftui-pg-"))
        self.port = 0
        self._shared = ""  # the database tests' schemas are made in
        self._run_as: dict[str, Any] = {}
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self._run_as = {"user": owner.pw_uid, "group": owner.pw_gid, "extra_groups": []}

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def url(self) -> str:
        """The server's `postgres` database, for administration."""
        return self.url_of("postgres")

    def url_of(self, database: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def start(self) -> Self:
        """initdb and start; a failure leaves nothing behind (the folder goes) and raises."""
        try:
            return self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> Self:
        if not stat.S_ISCHR(os.stat(os.devnull).st_mode):
            # initdb's shell redirects to it; as the postgres user a root-owned regular file there is refused.
            raise RuntimeError(
                f"{os.devnull} is not the null device but a file in its place (something saved over it as root): "
                "PostgreSQL's initdb needs it; restore it with: rm /dev/null && mknod -m 666 /dev/null c 1 3"
            )
        self._run(
            "initdb", "-D", str(self.data), "-A", "trust", "-U", USER, "-E", "UTF8", "--locale=C", "--no-sync"
        )  # fmt: skip
        for attempt in range(3):  # a free port may be taken by another run between the probe and the start
            self.port = _free_port()
            try:
                self._pg_ctl_start()
                return self
            except RuntimeError:
                if attempt == 2:
                    raise
        return self

    def schema(self) -> str:
        """The URL of a fresh, empty schema (first on the search path) in one database of the server's.

        What tests use: a schema costs a few catalogue rows where a database costs 7 MB of files to
        make and, at the end, to delete.
        """
        import psycopg

        if not self._shared:
            self._shared = self.database("aftui_tests")
        name = f"s{os.getpid()}_{next(_names)}"
        with psycopg.connect(self._shared, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{name}"'.encode())
        return f"{self._shared}?options=-csearch_path%3D{name}"

    def stop_server(self) -> None:
        """Stop the server and keep its data, as a server lost under a running aftui (`start_server` brings it back)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def start_server(self) -> None:
        """Start the stopped server again, on the same port."""
        self._pg_ctl_start()

    def _pg_ctl_start(self) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-o", options, "-w", "-t", "60", "start")  # fmt: skip

    def database(self, name: str | None = None) -> str:
        """Create an empty database; its URL."""
        import psycopg

        name = name or f"t{os.getpid()}_{next(_names)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"'.encode())
        return self.url_of(name)

    def stop(self) -> None:
        if self.port:
            try:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
            except RuntimeError:
                pass  # already gone: the folder still goes
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run(
            [str(self.bindir / program), *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            cwd=self.root,
            **self._run_as,
        )
        if done.returncode != 0:
            log = self.root / "log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr.strip()}\n{tail}")
