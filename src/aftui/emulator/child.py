"""`aftui demo`'s emulator in a process of its own, built on the second core while the TUI imports on the first.

The TUI's process binds the socket (so the URL is known at once, and requests made before the server is up
wait in the listen backlog) and hands it down. The child first writes one JSON line (what `Emulator.describe()`
will say: the demo's key, workspace and project, which the seed alone gives: `identity.py`), then imports the
server, builds the demo data and serves: the TUI makes its client and sends its first requests meanwhile. It
serves until its stdin closes, which happens when the TUI's process ends however it ends, so it never outlives
the TUI.

The parent's side (`EmulatorProcess`) imports nothing of the server: that is the point.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from ..unused import skip_unused_imports
from .sockets import bind

STARTUP_TIMEOUT_S = 60.0


class EmulatorProcess:
    """The demo's emulator, started in a child process; `describe()` waits for its first line, written at once."""

    def __init__(
        self,
        *,
        seed: int = 1,
        activity: bool = True,
        hostile: bool = False,
        log: Path | None = None,
        log_level: int = logging.WARNING,
    ) -> None:
        sock, self.root_url = bind("127.0.0.1", 0)
        command = [sys.executable, "-m", "aftui.emulator.child", "--fd", str(sock.fileno()), "--seed", str(seed)]
        command += ["--activity", "on" if activity else "off", "--log-level", str(log_level)]
        command += ["--hostile"] if hostile else []
        # Whatever the child says outside its logging (a crash before logging is up) goes to the demo's log,
        # never on the terminal the TUI draws on.
        self._stderr: IO[bytes] | None = log.open("ab") if log is not None else None
        try:
            self._process = subprocess.Popen(
                command,
                pass_fds=(sock.fileno(),),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr or subprocess.DEVNULL,
            )
        finally:
            sock.close()  # the child holds it now
        self._info: dict[str, Any] | None = None

    def describe(self) -> dict[str, Any]:
        """What a client needs (URLs, the demo's key, workspace and project): the child says it before it builds."""
        if self._info is None:
            assert self._process.stdout is not None
            line = self._process.stdout.readline()  # the child's first and only line
            if not line:
                self.stop()
                raise RuntimeError("the demo's emulator did not start (its log says why: aftui.log in the demo dir)")
            self._info = json.loads(line)
        return self._info

    def stop(self) -> None:
        """End the child (closing its stdin is the signal) and wait for it."""
        if self._process.stdin is not None and not self._process.stdin.closed:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait(timeout=5)
        if self._stderr is not None:
            self._stderr.close()

    @property
    def running(self) -> bool:
        return self._process.poll() is None


def main(argv: list[str] | None = None) -> int:
    skip_unused_imports()  # the demo waits for this process: it starts as lean as the `aftui` command
    # Nor does it collect garbage until the demo is built, which makes objects by the hundred thousand and
    # little garbage: the collections walked them all again and again (`_serve` freezes them, then collects).
    gc.disable()
    parser = argparse.ArgumentParser(prog="python -m aftui.emulator.child")
    parser.add_argument("--fd", type=int, required=True, help="the listening socket, bound by the parent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--activity", choices=("on", "off"), default="on")
    parser.add_argument("--hostile", action="store_true")
    parser.add_argument("--log-level", type=int, default=logging.WARNING, help="the TUI's level (--debug)")
    args = parser.parse_args(argv)
    _serve(args)
    return 0


def _serve(args: argparse.Namespace) -> None:
    import socket

    from .identity import description, draw_identity
    from .ids import IdFactory
    from .sockets import root_url_of

    sock = socket.socket(fileno=args.fd)
    root_url, activity = root_url_of(sock), args.activity == "on"
    # Said before the server's modules are imported and the demo is built (about 200 ms): the TUI needs only this.
    said = description(draw_identity(IdFactory(args.seed)), root_url, seed=args.seed, activity=activity)
    print(json.dumps(said), flush=True)

    import asyncio
    import threading

    import uvicorn

    from ..logs import configured
    from .server import Emulator, Options, server_config

    host, port = sock.getsockname()[:2]
    options = Options(host=host, port=port, seed=args.seed, activity=activity, hostile=args.hostile)
    with configured(args.log_level, demo=True):
        emulator = Emulator(options, root_url)
        if emulator.describe() != said:  # a draw added before the people's (identity.py): the TUI would be refused
            raise RuntimeError("the demo's emulator built other credentials than it announced")
        server = uvicorn.Server(server_config(emulator, host, port, "warning", own_logging=False))
        threading.Thread(target=_exit_at_eof, args=(server,), name="parent-watch", daemon=True).start()
        gc.freeze()  # the modules and the demo's data live as long as the process: no collection walks them again
        gc.enable()
        asyncio.run(server.serve(sockets=[sock]))


def _exit_at_eof(server: Any) -> None:
    """The parent closed our stdin, or ended: stop serving."""
    sys.stdin.buffer.read()
    server.should_exit = True


if __name__ == "__main__":
    sys.exit(main())
