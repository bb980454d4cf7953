"""`aftui serve`: the TUI in a browser, through textual-serve, for a war room or a laptop without a terminal.

Every browser that opens the page gets its own aftui process (textual-serve starts the command
below per connection and speaks to it over a websocket). Safe by default: the served aftui is
read-only unless `--allow-changes` is given (the client refuses every change, the TUI says so at
the key), and the server listens on 127.0.0.1 only unless `--host` opens it to others. What it
serves, where, and whether changes are allowed is said at start.
"""

from __future__ import annotations

import re
import shlex
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ServeOptions", "command_of", "own_templates", "serve", "start_words"]

LOOPBACK = "127.0.0.1"
DEFAULT_PORT = 8000


@dataclass(frozen=True)
class ServeOptions:
    host: str = LOOPBACK
    port: int = DEFAULT_PORT
    allow_changes: bool = False
    profile: str | None = None
    demo: bool = False  # the demo against its own emulator (each browser its own), to try it safely

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def loopback(self) -> bool:
        return self.host in (LOOPBACK, "localhost", "::1")


def command_of(options: ServeOptions) -> str:
    """The command each browser's aftui runs: this Python's aftui, read-only unless changes are allowed."""
    argv = [sys.executable, "-m", "aftui.cli"]
    if options.profile:
        argv += ["--profile", options.profile]
    if not options.allow_changes:
        argv.append("--read-only")
    if options.demo:
        argv.append("demo")
    return shlex.join(argv)


def start_words(options: ServeOptions) -> list[str]:
    """What `aftui serve` says at start: where, what, and how safe."""
    what = "the demo" if options.demo else f"profile {options.profile}" if options.profile else "the default profile"
    lines = [f"aftui serve: {what} at {options.url}"]
    if options.allow_changes:
        lines.append("CHANGES ALLOWED: anyone who opens the page can deploy, delete and replay as this profile.")
    else:
        lines.append("read-only: every change is refused (start with --allow-changes to allow them).")
    if options.loopback:
        lines.append("listening on this machine only (--host opens it to others).")
    else:
        lines.append(
            f"listening on {options.host}: anyone who can reach it can open aftui as this profile; "
            "there is no login of its own."
        )
    lines.append("Ctrl-C stops it.")
    return lines


def serve(options: ServeOptions) -> int:
    """Say what is served, then serve until Ctrl-C."""
    from textual_serve.server import Server

    for line in start_words(options):
        print(line, flush=True)
    with tempfile.TemporaryDirectory(prefix="aftui-serve-") as folder:
        templates = own_templates(Path(folder))
        server = Server(
            command_of(options), host=options.host, port=options.port, title="aftui", templates_path=templates
        )
        server.serve()
    return 0


# textual-serve's page asks Google for a font: a request off this machine from a page said to be served
# from it, which an air-gapped war room's browser waits on. The font is only the loading screen's.
_OUTSIDE_LINK = re.compile(r"<link\b[^>]*href=\"https?://[^\"]*\"[^>]*>\s*", re.IGNORECASE)


def own_templates(folder: Path) -> Path:
    """textual-serve's templates, copied into `folder` without the links to stylesheets elsewhere."""
    import textual_serve

    source = Path(textual_serve.__file__).parent / "templates"
    for template in source.glob("*.html"):
        (folder / template.name).write_text(_OUTSIDE_LINK.sub("", template.read_text()))
    return folder
