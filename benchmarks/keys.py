"""Keys counted in a real terminal: `aftui demo` in tmux at 120x36, driven as a person would.

Each route is a list of steps: the keys of a step are sent with `tmux
send-keys`, then the screen is read (`capture-pane`) until it shows what the
step expects, so a count is only printed for a route that really got there.
Keys are counted one per key press; text typed into a box is counted apart
(`typed_chars`), as the targets count "keys plus typing". Prints one JSON
line per route:

- `to_newest_stack`: from `aftui demo` starting to the full stack of the
  newest error of the failing workflow on screen (target: at most 4).
- `to_stack_in_viewer`: the same, then the stack in the value viewer, where
  it can be searched and copied.
- `to_edited_replay_succeeded`: from that error to a replay of it with the
  payload edited (the missing field added), seen succeeded (target: at most
  10 keys plus typing).

- `to_group_replayed_with_the_fix`: from that succeeded replay to the rest of
  its group (the same failure) replayed with the same fix, as path = value,
  outcomes seen (target: at most 6 keys plus typing).

    python benchmarks/keys.py [--route NAME] [--timeout 30]

Needs tmux. The demo runs with its own data dir (a temporary one), so no
journal of an earlier run changes what the Health pane shows first.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZE = (120, 36)
ORDERS = "Validate and forward orders"
STACK_END = "at null.executeComponent"  # the last line of a demo error's stack
FIX = '"customer_email": "ops@example.com",'
GROUP_FIX = "customer_email = ops@example.com"

Screen = Callable[[str], bool]

# After a screen shows what a step expects, a person reads it before the next key; the app meanwhile
# finishes what it does after painting (focus moves to the new screen's editor or list).
SETTLE_S = 0.5


@dataclass(frozen=True)
class Step:
    """Keys to press (each one counted), text to type (counted apart), and what the screen then shows."""

    what: str
    keys: tuple[str, ...] = ()
    expect: Screen = lambda screen: True
    typed: str = ""
    counted: bool = True  # False: a wait or a check, not the user's doing (the app starting)


def shows(*texts: str) -> Screen:
    return lambda screen: all(t in screen for t in texts)


def _health_ready(screen: str) -> bool:
    """The Health pane lists the failing workflow with its errors, under the cursor (the first row)."""
    rows = [line for line in screen.splitlines() if "│" in line and (" wf " in line or " src " in line)]
    return bool(rows) and "✖" in rows[0] and ORDERS[:20] in rows[0]


def _errors_tab(screen: str) -> bool:
    return f"Health › {ORDERS}" in screen and "ValidationError: Missing required field" in screen


def _newest_stack(screen: str) -> bool:
    return "› error " in screen and "Stack" in screen and STACK_END in screen


def _all_succeeded(screen: str) -> bool:
    """The bulk replay's summary: done, some succeeded, none failed again."""
    done = re.search(r"Done: (\d+) succeeded", screen)
    return done is not None and "failed again" not in screen.split("Done: ", 1)[1].splitlines()[0]


ROUTES: dict[str, list[Step]] = {
    "to_newest_stack": [
        Step("aftui demo opens on Health, the failing workflow first", expect=_health_ready, counted=False),
        Step("enter: the workflow's Errors tab, newest first", ("Enter",), _errors_tab),
        Step("enter: the newest error, its stack in full", ("Enter",), _newest_stack),
    ],
}
# Routes that go on from where another ends: their keys are also counted from there, as the targets are.
GOES_ON_FROM = {
    "to_stack_in_viewer": "to_newest_stack",
    "to_edited_replay_succeeded": "to_newest_stack",
    "to_group_replayed_with_the_fix": "to_edited_replay_succeeded",
}
ROUTES["to_stack_in_viewer"] = [
    *ROUTES["to_newest_stack"],
    Step("v: the stack in the value viewer", ("v",), shows("› stack", STACK_END, "3 lines")),
]
ROUTES["to_edited_replay_succeeded"] = [
    *ROUTES["to_newest_stack"],
    Step("e: the replay editor with the original payload", ("e",), shows("Edit the payload", '"order_id"')),
    Step("end: after the payload's opening brace (the editor opens at its start)", ("End",), shows("Edit the payload")),
    Step("type the missing field", ("Enter",), shows("customer_email"), typed=FIX),
    Step("ctrl+s: sent, and its outcome seen", ("C-s",), shows("✔ succeeded", "the workflow ran it through")),
]

ROUTES["to_group_replayed_with_the_fix"] = [
    *ROUTES["to_edited_replay_succeeded"],
    Step("esc: back to the error", ("Escape",), shows("› error ", "Replays")),
    Step("esc: back to the Errors tab", ("Escape",), lambda screen: _errors_tab(screen)),
    Step(
        "g: the errors grouped by failure, still failing first",
        ("g",),
        shows("Missing required field", "replayed ok", "Replay group"),
    ),
    Step("R: the group's errors not yet fixed, in a bulk replay", ("R",), shows("Replay all", "Fix")),
    Step("f: the fix, typed once for all", ("f",), shows("ctrl+s")),
    Step("type the fix", (), shows("assignments: changes"), typed=GROUP_FIX),
    Step("ctrl+s: every one sent with the fix, outcomes seen", ("C-s",), lambda screen: _all_succeeded(screen)),
]


class Terminal:
    """`aftui demo` in a tmux session of its own."""

    def __init__(self, timeout: float) -> None:
        self.name = f"aftui-keys-{os.getpid()}"
        self.timeout = timeout
        self.data = Path(tempfile.mkdtemp(prefix="aftui-keys-"))

    def __enter__(self) -> Terminal:
        aftui = Path(sys.executable).with_name("aftui")
        command = f"cd {shlex.quote(str(ROOT))} && AFTUI_DATA_DIR={shlex.quote(str(self.data))} {shlex.quote(str(aftui))} demo"
        width, height = SIZE
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), command], check=True
        )
        return self

    def __exit__(self, *exc: object) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], check=False, capture_output=True)
        shutil.rmtree(self.data, ignore_errors=True)

    def screen(self) -> str:
        done = subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return done.stdout

    def send(self, *keys: str, literal: bool = False) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *(["-l"] if literal else []), *keys], check=True)

    def wait(self, expect: Screen, what: str) -> str:
        deadline = time.monotonic() + self.timeout
        while True:
            screen = self.screen()
            if expect(screen):
                return screen
            if time.monotonic() > deadline:
                raise TimeoutError(f"the screen never showed: {what}\n{screen}")
            time.sleep(0.1)


def _newest_id(screen: str) -> str | None:
    """The id of the first error row of the Errors tab (newest first)."""
    for line in screen.splitlines():
        # The ID column may be cut to its first digits at 120 columns: a prefix of the id is enough.
        found = re.search(r"ValidationError: .*?\s(\d{6,}(?:-\d+)?)\s*$", line)
        if found:
            return found.group(1)
    return None


def run_route(name: str, timeout: float) -> dict[str, object]:
    keys = typed = 0
    newest: str | None = None
    started = time.monotonic()
    with Terminal(timeout) as terminal:
        for step in ROUTES[name]:
            for key in step.keys:
                if step.typed and key == "Enter":
                    terminal.send("Enter")
                    terminal.send(step.typed, literal=True)
                else:
                    terminal.send(key)
                keys += step.counted
            if step.typed and not step.keys:
                terminal.send(step.typed, literal=True)
            typed += len(step.typed)
            screen = terminal.wait(step.expect, step.what)
            time.sleep(SETTLE_S)
            if step.expect is _errors_tab:
                newest = _newest_id(screen)
                if newest is None:
                    raise AssertionError(f"no error id in the Errors tab\n{screen}")
            if step.expect is _newest_stack and newest is not None and f"error {newest}" not in screen:
                raise AssertionError(f"the error opened is not the newest ({newest})\n{screen}")
    figures: dict[str, object] = {"route": name, "keys": keys}
    base = GOES_ON_FROM.get(name)
    if base is not None:
        figures["from"] = base
        figures["keys_from_there"] = keys - sum(len(s.keys) for s in ROUTES[base] if s.counted)
    return {
        **figures,
        "typed_chars": typed,
        "seconds": round(time.monotonic() - started, 1),
        "steps": [s.what for s in ROUTES[name]],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--route", choices=sorted(ROUTES), action="append", help="only these routes (default: all)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds a step may take to show its screen")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        sys.exit("tmux is needed: the keys are counted in a real terminal")
    for name in args.route or list(ROUTES):
        print(json.dumps(run_route(name, args.timeout)), flush=True)


if __name__ == "__main__":
    main()
