"""Figures of aftui as a user sees them: in a real terminal (tmux, 120x36), against references in the same run.

    .venv/bin/python benchmarks/terminal.py [--rounds 8] [--before OTHER/src]

Each figure is the median of `--rounds` launches, the programs interleaved
round by round (floor, aftui, aftui demo, floor, ...) so that whatever else
the machine does weighs on all of them alike, and each is printed as a ratio
to the floor measured in the same run:

- floor: a bare Textual app (Header, Static, Footer), to its text on screen.
  Nothing that shows a screen with Textual can start faster.
- toolong: Toolong opening a 200-line log, to its last line on screen (only
  when `tl` is installed: `pip install toolong`).
- aftui: `aftui` with a profile on an emulator in a process of its own, to the
  first list on screen with its rows (a demo source's name in the pane).
- aftui demo: `aftui demo`, emulator included, to the same.
- aftui, journal of N MB: `aftui` as above, its journal filled beforehand
  with N MB of events (`--journal-mb`, 200 by default; the default caps
  keep up to 500 MB), as an on-call user's is after a few weeks: opening
  it reads every page of it.

A launch is timed from the moment the command's Enter is sent to a shell
already waiting in the pane (the shell's own start is not counted) to the
first capture of the pane that shows the marker. Captures are taken every
10 ms, the figures' grain: each is a tmux process, and taken every 2 ms they
kept most of a core busy, which on two cores slowed what they measured (the
demo, two processes, most of all).

Prints one JSON object per figure: the median in ms, the samples, the ratio
to the floor's median and the issue's target.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

WIDTH, HEIGHT = 120, 36
POLL_S = 0.01  # between two captures of a pane
BIN = Path(sys.executable).parent
FLOOR_APP = """
from textual.app import App
from textual.widgets import Footer, Header, Static


class Floor(App):
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self):
        yield Header()
        yield Static("the floor is painted")
        yield Footer()


Floor().run()
"""


class Pane:
    """A tmux session with a shell waiting: a command typed into it, its screen read back."""

    def __init__(self, name: str, env: dict[str, str]) -> None:
        self.name = name
        exports = " ".join(f"-e {shlex.quote(f'{k}={v}')}" for k, v in env.items())
        command = f"tmux new-session -d -s {name} -x {WIDTH} -y {HEIGHT} {exports} 'bash --norc --noprofile'"
        subprocess.run(command, shell=True, check=True)
        self.wait_for(_only_a_prompt, 10)

    def screen(self) -> str:
        done = subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return done.stdout

    def send(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, seen: Callable[[str], bool], timeout: float, what: str = "what was awaited") -> str:
        """The first capture of the pane that satisfies `seen`; a timeout says what was awaited and shows the screen."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if seen(screen):
                return screen
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: not seen in {timeout:g} s: {what}; the screen was:\n{screen}")
            time.sleep(POLL_S)

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


def _only_a_prompt(screen: str) -> bool:
    lines = [line for line in screen.splitlines() if line.strip()]
    return len(lines) == 1 and lines[0].rstrip().endswith(("$", "#"))


@dataclass
class Launch:
    """A program to start in a pane, and what on its screen says it is ready."""

    name: str
    command: str
    marker: str
    env: dict[str, str] = field(default_factory=dict)
    samples: list[float] = field(default_factory=list)

    def once(self, round_: int) -> None:
        pane = Pane(f"bench-{self.name.replace(' ', '-')}-{round_}-{os.getpid()}", self.env)
        try:
            pane.send("clear", "Enter")
            pane.wait_for(_only_a_prompt, 10)
            started = time.perf_counter()
            pane.send(self.command, "Enter")
            pane.wait_for(lambda screen: self.marker in screen, 60)
            self.samples.append((time.perf_counter() - started) * 1000)
        finally:
            pane.close()


class Emulator:
    """`aftui emulator` in a process of its own, and a config whose default profile points at it."""

    def __init__(self, home: Path, *options: str) -> None:
        """`options`: more of `aftui emulator`'s (`--data empty`, `--scale N`)."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "aftui.cli", "emulator", "--port", "0", *options], stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None
        root = next(line.split()[-1] for line in self.process.stdout if line.strip().startswith("root URL"))
        info = httpx.get(f"{root}/_emulator/info", timeout=30).json()
        self.info: dict[str, str] = info  # base_url, root_url, api_key, org_id...: what the control API says
        self.env = {"AFTUI_CONFIG": str(home / "config.toml"), "AFTUI_DATA_DIR": str(home / "data")}
        add = ["config", "add", "bench", "--base-url", info["base_url"], "--api-key", info["api_key"]]
        add += ["--org-id", info["org_id"], "--project-id", info["project_id"]]
        subprocess.run([sys.executable, "-m", "aftui.cli", *add], env={**os.environ, **self.env}, check=True)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def fill_journal(path: Path, mb: float) -> None:
    """A journal of about `mb` MB at `path`: events of a few sources, 400-byte payloads, indexed for search."""
    from aftui.api.rawevent import RawEvent
    from aftui.journal.store import Journal

    path.parent.mkdir(parents=True, exist_ok=True)
    first_ms, pad = 1_790_000_000_000, "x" * 400
    with Journal(path) as journal:
        n = 0
        while path.stat().st_size < mb * 1e6:
            events = []
            for i in range(n, n + 5000):
                event_id, emitter = f"{first_ms + i * 60}-0", f"dc_old{i % 7}"
                data = '{"id":"%s","event":{"n":%d,"pad":"%s"},"metadata":{"emitter_id":"%s"}}' % (  # noqa: UP031
                    event_id,
                    i,
                    pad,
                    emitter,
                )
                events.append(RawEvent(event_id, (first_ms + i * 60, 0), data, "message", emitter))
            journal.add(events)
            n += 5000


def launches(home: Path, emulator: Emulator, marker: str, before: Path | None, journal_mb: float) -> list[Launch]:
    floor = home / "floor.py"
    floor.write_text(FLOOR_APP)
    found = [
        Launch("floor", f"{shlex.quote(sys.executable)} {floor}", "the floor is painted"),
        Launch("aftui", f"{BIN / 'aftui'}", marker, emulator.env),
        Launch("aftui demo", f"{BIN / 'aftui'} demo", marker, {"AFTUI_DATA_DIR": str(home / "demo-data")}),
    ]
    big = f"aftui, journal of {journal_mb:g} MB"
    if journal_mb > 0:
        fill_journal(home / "big-data" / "journal.sqlite3", journal_mb)
        found.append(
            Launch(big, f"{BIN / 'aftui'}", marker, {**emulator.env, "AFTUI_DATA_DIR": str(home / "big-data")})
        )
    if before is not None:  # the same commands on another checkout's package: PYTHONPATH comes before the install's
        other = {"PYTHONPATH": str(before)}
        found.append(Launch("aftui before", f"{BIN / 'aftui'}", marker, {**emulator.env, **other}))
        demo_env = {"AFTUI_DATA_DIR": str(home / "demo-data-before"), **other}
        found.append(Launch("aftui demo before", f"{BIN / 'aftui'} demo", marker, demo_env))
        if journal_mb > 0:  # the same file: each launch adds a few events, both alike
            big_env = {**emulator.env, "AFTUI_DATA_DIR": str(home / "big-data"), **other}
            found.append(Launch(f"{big} before", f"{BIN / 'aftui'}", marker, big_env))
    toolong = shutil.which("tl") or (str(BIN / "tl") if (BIN / "tl").exists() else None)
    if toolong:
        log = home / "app.log"
        log.write_text("".join(f"2026-11-23 09:00:{n % 60:02d} INFO line {n} of the log\n" for n in range(1, 201)))
        found.append(Launch("toolong", f"{toolong} {log}", "line 200 of the log"))
    return found


TARGETS = {"aftui": "<= 1.8x the floor", "aftui demo": "<= 2.2x the floor"}
TARGETS |= {f"{name} before": target for name, target in TARGETS.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--marker", default="Order webhooks", help="text that says the first list is on screen")
    parser.add_argument(
        "--journal-mb", type=float, default=200.0, help="also time aftui with a journal this big (0: not)"
    )
    parser.add_argument(
        "--before",
        type=Path,
        metavar="SRC",
        help="also time aftui from another checkout's src/ (a git worktree of an older commit), interleaved",
    )
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        sys.exit("tmux is needed: the figures are taken in a real terminal")
    # aftui's bytecode, as an install writes it: an editable install under PYTHONDONTWRITEBYTECODE would
    # otherwise compile aftui's source at every start, while Textual's (installed) never is.
    import aftui

    compileall.compile_dir(Path(aftui.__file__).parent, quiet=1)
    if args.before is not None:
        compileall.compile_dir(args.before / "aftui", quiet=1)
    # A session that outlives every launch's: tmux's server exits with its last session, and a launch's
    # new session raced that exit ("server exited unexpectedly").
    keeper = Pane(f"bench-keeper-{os.getpid()}", {})
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        emulator = Emulator(home)
        try:
            programs = launches(home, emulator, args.marker, args.before, args.journal_mb)
            for round_ in range(args.rounds):
                for program in programs:
                    program.once(round_)
        finally:
            emulator.stop()
            keeper.close()
    floor = statistics.median(programs[0].samples)
    for program in programs:
        median = statistics.median(program.samples)
        figure = {
            "figure": f"{program.name}: to the first screen, in tmux {WIDTH}x{HEIGHT}",
            "median_ms": round(median),
            "samples_ms": [round(s) for s in program.samples],
            "ratio_to_floor": round(median / floor, 2),
        }
        if program.name in TARGETS:
            figure["target"] = TARGETS[program.name]
        print(json.dumps(figure), flush=True)


if __name__ == "__main__":
    main()
