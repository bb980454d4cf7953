"""Fixtures of the headless tests: a profile on a fresh emulator and `aftui ...` run in this process."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from aftui import cli
from aftui.emulator.server import ServerHandle


@dataclass
class Result:
    code: int
    out: str
    err: str

    def records(self) -> list[dict[str, Any]]:
        """stdout as NDJSON: one object a line, nothing else."""
        return [json.loads(line) for line in self.out.splitlines()]


class Terminal(io.StringIO):
    """What a person types at a terminal: stdin that says it is a tty."""

    def isatty(self) -> bool:
        return True


Aftui = Callable[..., Result]


@pytest.fixture
def profile(config_file: Path, emulator: ServerHandle, info: dict, capsys: pytest.CaptureFixture[str]) -> str:
    """A default profile `local` on the emulator, with its workspace and Connect project."""
    code = cli.main(
        [
            "config",
            "add",
            "local",
            "--base-url",
            emulator.base_url,
            "--api-key",
            info["api_key"],
            "--org-id",
            info["org_id"],
            "--project-id",
            info["project_id"],
        ]
    )
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    return "local"


@pytest.fixture
def aftui(profile: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Aftui:
    """`aftui ARGS...` in this process: exit code, stdout, stderr. `stdin=` gives what is typed (as a terminal)."""
    monkeypatch.delenv("COLUMNS", raising=False)  # xdist's workers set 80: lines to a pipe are not cut at all
    monkeypatch.delenv("NO_COLOR", raising=False)

    def run(*args: str, stdin: str | None = None) -> Result:
        capsys.readouterr()
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", Terminal(stdin))
        try:
            code = cli.main(list(args))
        except SystemExit as exit:  # argparse's own usage errors
            code = int(exit.code or 0)
        out, err = capsys.readouterr()
        return Result(code, out, err)

    return run


@pytest.fixture
def data_dir(config_file: Path) -> Path:
    return config_file.parent.parent / "data"


def source_named(emulator: ServerHandle, name: str) -> Any:
    return next(s for s in emulator.emulator.store.sources.values() if s.name == name)


def as_from_a_terminal() -> None:
    """Ctrl-C at its default, as in a shell at a terminal: a shell's background job (a test run with `&`,
    as a CI script may start it) passes SIGINT on ignored, and an ignored SIGINT stops nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Running:
    """`aftui ARGS...` as a process of its own (for what runs until Ctrl-C), its output read as it comes."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "aftui.cli", *args],
            preexec_fn=as_from_a_terminal,
            # faulthandler: a process that will not stop is sent SIGABRT and prints where each thread is.
            env={**os.environ, "PYTHONFAULTHANDLER": "1"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [
            threading.Thread(target=self._read, args=(stream, lines), daemon=True)
            for stream, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))
        ]
        for reader in self.readers:
            reader.start()

    @staticmethod
    def _read(stream: Any, lines: list[str]) -> None:
        for line in stream:
            lines.append(line.rstrip("\n"))

    def wait_for(self, condition: Callable[[], bool], timeout: float = 30) -> bool:
        """Poll for a condition (a line seen, a count reached) until it holds or the time is up."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return True
            if self.proc.poll() is not None:
                self._finish()
                return condition()
            time.sleep(0.05)
        return condition()

    def said(self, words: str) -> bool:
        return any(words in line for line in self.err)

    def stop(self, how: signal.Signals = signal.SIGINT) -> int:
        """Ctrl-C, as a person ends a tail (or SIGTERM, as `kill` or a service manager does)."""
        if self.proc.poll() is None:
            self.proc.send_signal(how)
        try:
            code = self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.send_signal(signal.SIGABRT)
            self.proc.wait(timeout=10)
            self._finish()
            stacks = "\n".join(self.err[-200:])
            raise AssertionError(f"still running 15 s after {how.name}; where it was:\n{stacks}") from None
        self._finish()
        return code

    def _finish(self) -> None:
        """The process has ended: its pipes close, and the readers take the last lines."""
        for reader in self.readers:
            reader.join(timeout=10)


@pytest.fixture
def running(profile: str) -> Iterator[Callable[..., Running]]:
    started: list[Running] = []

    def start(*args: str) -> Running:
        process = Running(*args)
        started.append(process)
        return process

    yield start
    for process in started:
        if process.proc.poll() is None:
            process.proc.kill()
            process.proc.wait(timeout=10)
