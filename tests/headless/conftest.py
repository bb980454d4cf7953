"""Fixtures of the headless tests: a profile on a fresh emulator and `aftui ...` run in this process."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
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

    def run(*args: str, stdin: str | None = None) -> Result:
        capsys.readouterr()
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", Terminal(stdin))
        code = cli.main(list(args))
        out, err = capsys.readouterr()
        return Result(code, out, err)

    return run


@pytest.fixture
def data_dir(config_file: Path) -> Path:
    return config_file.parent.parent / "data"


def source_named(emulator: ServerHandle, name: str) -> Any:
    return next(s for s in emulator.emulator.store.sources.values() if s.name == name)
