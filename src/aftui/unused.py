"""Modules aftui never uses, which its dependencies import at every start when they happen to be installed.

httpx's own command-line client (click, rich.progress, pygments; uvicorn brings click) and trio, which
httpcore probes for (selenium, in the test extra, brings it): about a sixth of a start, for nothing.
Both importers fall back when the import fails, as they do where these are not installed. Called first
thing by the processes aftui starts: the `aftui` command and the demo's emulator.
"""

from __future__ import annotations

import sys

UNUSED_IMPORTS = {"httpx._main": "httpx", "trio": "trio"}


def skip_unused_imports() -> None:
    for module, package in UNUSED_IMPORTS.items():
        if package not in sys.modules:  # in a process that already has them (tests), nothing changes
            # None in sys.modules is the import system's documented "not found" mark; typeshed allows modules only
            sys.modules.setdefault(module, None)  # type: ignore[arg-type]
