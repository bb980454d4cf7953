"""Starting the TUI: against a profile, or against an in-process emulator for the demo."""

from __future__ import annotations

from pathlib import Path

from ..api import Client
from ..config import data_dir
from ..known import KnownWorkflows
from .app import AftuiApp
from .session import Session


def known_workflows(demo: bool = False) -> KnownWorkflows:
    return KnownWorkflows(data_dir() / ("demo" if demo else "") / "known_workflows.json")


def run_demo(seed: int = 1) -> int:
    """`aftui demo`: the emulator on a free loopback port, activity on, and the TUI against it."""
    from ..emulator.server import Options, serve_in_thread

    handle = serve_in_thread(Options(port=0, seed=seed, activity=True))
    try:
        info = handle.emulator.describe()
        client = Client(info["base_url"], api_key=info["api_key"], org_id=info["org_id"], project_id=info["project_id"])
        session = Session(client=client, profile_name="demo", known=known_workflows(demo=True), demo=True)
        AftuiApp(session).run()
    finally:
        handle.stop()
    return 0


def demo_session(base_url: str, info: dict, *, data: Path | None = None) -> Session:
    """A session against a running emulator (tests, benchmarks, screenshots)."""
    client = Client(base_url, api_key=info["api_key"], org_id=info["org_id"], project_id=info["project_id"])
    known = KnownWorkflows((data or data_dir() / "demo") / "known_workflows.json")
    return Session(client=client, profile_name="demo", known=known, demo=True)
