"""`aftui -p demo COMMAND`: a command on the running demo's emulator, with the demo's own files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from aftui import cli
from aftui.config.demo import RUNNING_NAME, record_running_demo
from aftui.emulator.server import ServerHandle

from .conftest import Aftui


@pytest.fixture
def demo_folder(config_file: Path) -> Path:
    return config_file.parent.parent / "data" / "demo"


def test_a_command_on_the_running_demo_uses_its_emulator_and_its_files(
    aftui: Aftui, emulator: ServerHandle, info: dict, demo_folder: Path, config_file: Path
) -> None:
    forget = record_running_demo({**info, "base_url": emulator.base_url})
    assert (demo_folder / RUNNING_NAME).stat().st_mode & 0o777 == 0o600
    done = aftui("-p", "demo", "workflows", "--json")
    assert done.code == 0, done.err
    assert "Validate and forward orders" in {r["name"] for r in done.records()}
    # The demo's known workflows and journal, not the user's (nor the team's the default profile names).
    assert (demo_folder / "known_workflows.json").exists()
    assert not (config_file.parent.parent / "data" / "known_workflows.json").exists()
    stats = aftui("-p", "demo", "journal", "stats", "--json")
    assert stats.records()[0]["path"] == str(demo_folder / "journal.sqlite3")
    forget()
    assert not (demo_folder / RUNNING_NAME).exists()


def test_without_a_running_demo_it_says_how_to_start_one(aftui: Aftui, demo_folder: Path) -> None:
    """Exit 5, as when the service cannot be reached: a script talking to a demo that ended got 5 from the
    command running as it ended and 2 ("usage") from the next one."""
    done = aftui("-p", "demo", "health")
    assert done.code == 5 and done.out == ""
    assert "no demo is running: start `aftui demo`, then `aftui -p demo COMMAND`" in done.err
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    demo_folder.mkdir(parents=True, exist_ok=True)
    record = {"pid": int(ended.stdout), "base_url": "http://127.0.0.1:9/v1", "api_key": "k"}
    (demo_folder / RUNNING_NAME).write_text(json.dumps(record))  # a demo that ended without forgetting itself
    assert aftui("-p", "demo", "health").code == 5


def test_a_newer_demos_connection_is_not_forgotten_by_an_older_one(
    config_file: Path, demo_folder: Path, info: dict
) -> None:
    forget_old = record_running_demo(info)
    (demo_folder / RUNNING_NAME).write_text(json.dumps({"pid": 1, "base_url": "x", "api_key": "y"}))
    forget_old()
    assert (demo_folder / RUNNING_NAME).exists()


def test_a_profile_the_config_names_demo_is_that_profile(
    aftui: Aftui, emulator: ServerHandle, info: dict, demo_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record_running_demo({**info, "base_url": "http://127.0.0.1:9/v1"})  # nothing listens there
    added = cli.main(["config", "add", "demo", "--base-url", emulator.base_url, "--api-key", info["api_key"]])
    assert added == 0, capsys.readouterr().err
    done = aftui("-p", "demo", "whoami", "--json")
    assert done.code == 0, done.err
    me = done.records()[0]
    assert me["kind"] == "user" and me["base_url"] == emulator.base_url and me["read_only"] is False
