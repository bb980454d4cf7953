"""What the app writes to the terminal, captured, and what in it would be an attack (tests and benchmarks).

`CapturingDriver` is Textual's headless driver with one change: it says it
is not headless, so the app renders every frame into real terminal bytes,
and it keeps them. `attacks` scans those bytes for what the hostile data set
tries to smuggle through: its escape sequences, window titles, clipboard
writes, hyperlinks and C1 controls.
"""

from __future__ import annotations

import re

from textual.drivers.headless_driver import HeadlessDriver

# Every OSC sequence (ESC ] ... BEL or ST).
_OSC = re.compile(r"\x1b\]([^\x07\x1b]*)(?:\x07|\x1b\\)")
# Sequences of the hostile data set, as they would appear if passed through raw.
_SMUGGLED = [
    "\x1b[31mCSI-RED",
    "\x1b[2J\x1b[1;1HCSI-HOME",
    "\x1b[?1049l",
    "PWNED-TITLE\x07",
    "\x1b]0;PWNED",
    "\x1b]2;PWNED",
    "\x1b]52;c;UFdORUQ",
    "\x1b]8;;https://evil.example",
    "\x07 bs\x08",
    "cr\rCR-OVERWRITE",
    "\u202egpj",
    "\u2067RTL",
    "pay\u200bpal",
]
# C1 controls: some terminals act on them as on ESC sequences (0x9b is CSI).
_C1 = re.compile(r"[\x80-\x9f]")


class CapturingDriver(HeadlessDriver):
    """Headless, but rendering: every byte the app would send to the terminal is kept in `written`."""

    written: list[str]

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        if not hasattr(self, "written"):
            self.written = []
        self.written.append(data)


def output_of(app: object) -> str:
    driver = getattr(app, "_driver", None)
    return "".join(getattr(driver, "written", []))


def attacks(output: str) -> list[str]:
    """What in `output` came from the data and would act on the terminal (empty when safe)."""
    found = [f"raw {s!r}" for s in _SMUGGLED if s in output]
    for match in _OSC.finditer(output):
        body = match.group(1)
        # Textual's own OSC use: none while the user copies nothing; any carrying the data's words is an attack.
        if any(word in body for word in ("PWNED", "evil.example", "UFdORUQ", "MARKUP", "CSI-")):
            found.append(f"OSC {body[:60]!r}")
    found.extend(f"C1 control {c!r}" for c in sorted(set(_C1.findall(output))))
    return found
