"""Figures of the TUI, printed as JSON lines.

- startup_to_first_list_ms: median over runs, from launching a process that
  does what `aftui demo` does (in-process emulator, activity on) to the
  Sources list painted with rows (target: at most 1,000 ms).
- first_sources_page_ms: with the emulator at --scale 10000 in another
  process, from the app starting to the first page of Sources painted
  (target: at most 300 ms).
- longest_frame_ms: the longest time the UI's event loop was busy in one go
  (handling a key, loading a page, painting) while paging down through all
  10,000 sources (target: under 100 ms). A ticker on the same loop measures
  it: a busy loop is one that cannot tick. Timing each key press through the
  test pilot would mostly measure the pilot's own waits (about 85 ms even on
  a 26-row list).
- peak_rss_mb: the TUI process's peak resident memory after that scroll
  (target: under 200 MB).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROBE = r"""
import sys, time, tempfile, pathlib
from aftui.emulator.server import Options, serve_in_thread
from aftui.tui.app import AftuiApp
from aftui.tui.run import demo_session

handle = serve_in_thread(Options(port=0, seed=1, activity=True))
session = demo_session(handle.base_url, handle.emulator.describe(), data=pathlib.Path(tempfile.mkdtemp()))
app = AftuiApp(session)

async def until_painted(pilot):
    while True:
        tables = pilot.app.query("#sources DataTable")
        if tables and tables.first().row_count:
            break
        await pilot.pause(0.005)
    await pilot.pause()  # one refresh: the rows are on screen
    print(f"PAINTED {time.time():.6f}", flush=True)
    pilot.app.exit()

app.run(headless=True, size=(120, 36), auto_pilot=until_painted)
handle.stop()
"""


def startup_ms(runs: int) -> dict:
    samples = []
    for _ in range(runs):
        started = time.time()
        out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60).stdout
        painted = next(float(line.split()[1]) for line in out.splitlines() if line.startswith("PAINTED"))
        samples.append((painted - started) * 1000)
    return {
        "figure": "startup_to_first_list_ms",
        "runs": runs,
        "value": round(statistics.median(samples)),
        "samples": [round(s) for s in samples],
        "target": "<= 1000",
    }


async def scale_figures(scale: int) -> list[dict]:
    from aftui.testing.pilot import watch_the_loop
    from aftui.tui.app import AftuiApp
    from aftui.tui.run import demo_session

    emulator = subprocess.Popen(
        [sys.executable, "-m", "aftui.cli", "emulator", "--port", "0", "--scale", str(scale)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert emulator.stdout is not None
        root = next(line.split()[-1] for line in emulator.stdout if line.strip().startswith("root URL"))
        import httpx

        info = httpx.get(f"{root}/_emulator/info", timeout=30).json()
        session = demo_session(info["base_url"], info, data=Path(tempfile.mkdtemp()))
        app = AftuiApp(session)
        stalls: list[float] = []
        first_page_ms = 0.0
        presses = 0
        async with app.run_test(size=(120, 36)) as pilot:
            started = time.perf_counter()
            while not (app.query("#sources DataTable") and app.query_one("#sources DataTable").row_count):
                await pilot.pause(0.002)
            await pilot.pause()
            first_page_ms = (time.perf_counter() - started) * 1000
            table = app.query_one("#sources PagedTable")
            ticker = asyncio.create_task(watch_the_loop(stalls))
            while presses < 20_000:
                await pilot.press("pagedown")
                presses += 1
                if table.pager.done and table.table.cursor_row >= table.table.row_count - 1:
                    break
            ticker.cancel()
            rows = table.table.row_count
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return [
            {"figure": "first_sources_page_ms", "sources": rows, "value": round(first_page_ms), "target": "<= 300"},
            {
                "figure": "longest_frame_ms",
                "key_presses": presses,
                "value": round(max(stalls), 1),
                "p99": round(sorted(stalls)[int(len(stalls) * 0.99)], 1),
                "target": "< 100",
            },
            {"figure": "peak_rss_mb", "value": round(peak_mb, 1), "target": "< 200"},
        ]
    finally:
        emulator.terminate()
        emulator.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scale", type=int, default=10_000)
    args = parser.parse_args()
    print(json.dumps(startup_ms(args.runs)), flush=True)
    for figure in asyncio.run(scale_figures(args.scale)):
        print(json.dumps(figure), flush=True)


if __name__ == "__main__":
    main()
