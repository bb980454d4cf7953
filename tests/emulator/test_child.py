"""The demo's emulator in a process of its own: it serves what the in-thread one serves, and never outlives the TUI."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from aftui.emulator.child import EmulatorProcess
from aftui.emulator.identity import description, draw_identity
from aftui.emulator.ids import IdFactory
from aftui.emulator.server import Emulator, Options


def _gone(pid: int, within: float = 15.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:  # a process whose parent has not reaped it yet lingers as a zombie: that is gone too
            if Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z":
                return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def test_the_child_serves_the_demo_on_the_parents_socket_and_stops(tmp_path: Path) -> None:
    emulator = EmulatorProcess(seed=1, activity=False, log=tmp_path / "aftui.log")
    try:
        info = emulator.describe()
        assert info["root_url"] == emulator.root_url  # the port the parent bound, known before the child was up
        me = httpx.get(f"{info['base_url']}/users/me", headers={"Authorization": f"Bearer {info['api_key']}"})
        assert me.status_code == 200 and me.json()["data"]["id"]
        refused = httpx.get(f"{info['base_url']}/users/me", headers={"Authorization": "Bearer wrong"})
        assert refused.status_code == 401
    finally:
        emulator.stop()
    assert not emulator.running


@pytest.mark.parametrize(
    "options",
    [Options(seed=1), Options(seed=7, activity=True), Options(seed=42, hostile=True), Options(seed=3, data="empty")],
    ids=["demo", "activity", "hostile", "empty"],
)
def test_what_the_child_says_before_it_builds_is_what_the_built_emulator_says(options: Options) -> None:
    """The child announces the demo's key, workspace and project from the seed alone, then builds: any id drawn
    before the people's would give the built emulator other credentials than the TUI was told."""
    root = "http://127.0.0.1:9"
    said = description(draw_identity(IdFactory(options.seed)), root, seed=options.seed, activity=options.activity)
    assert said == Emulator(options, root).describe()


PARENT = """
import sys, time
from aftui.emulator.child import EmulatorProcess
emulator = EmulatorProcess(seed=1, activity=False)
emulator.describe()
print(emulator._process.pid, flush=True)
time.sleep(60)
"""


def test_the_child_ends_when_the_tui_is_killed() -> None:
    """kill -9 of the TUI's process runs no cleanup: the child sees its stdin close and stops serving."""
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        assert _gone(child), "the emulator outlived the TUI"
    finally:
        if parent.poll() is None:
            parent.kill()
