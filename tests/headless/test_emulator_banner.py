"""`aftui emulator` says how to reach it: its banner's profile line, run as it is, makes a working profile."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from aftui import cli
from aftui.emulator.server import ServerHandle


def test_the_banners_profile_line_adds_a_profile_that_works(
    emulator: ServerHandle, config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli._announce(emulator.emulator)
    banner = capsys.readouterr().out
    [line] = [line for line in banner.splitlines() if line.strip().startswith("a profile")]
    words = shlex.split(line.split("a profile", 1)[1])
    assert words[:3] == ["aftui", "config", "add"]
    assert cli.main(words[1:]) == 0
    capsys.readouterr()
    assert cli.main(["whoami"]) == 0, capsys.readouterr().err
