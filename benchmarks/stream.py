"""Figures of the live monitor under a burst, printed as one JSON line.

The emulator (a subprocess, as `aftui emulator`) injects 50,000 events as
fast as it can into two fresh sources, 25,000 each, two injections at once.
Each round reads such a burst twice, alternating:

- bare: two httpx-sse loops (`aconnect_sse` + `aiter_sse` + `json.loads`)
  on one event loop, the floor any consumer of the stream pays;
- monitor: the TUI as a headless App (`run_test`, 120x36, painting as
  usual) with the monitor screen watching both sources: SSE through the
  client, parsing and journaling off the UI's loop, the timeline taking
  batches. It has taken an event in when the journal has stored it (the
  search index may trail: it is written once the stream quiets, and every
  search brings it up to date first). The key presses below pause the
  feeds until their frame is painted (monitor.feeds.Gate): the rate pays
  for that.

Figures (median over rounds, every sample beside it):

- monitor_events_per_second: 50,000 over the time from the first event the
  monitor saw to the journal's 50,000th row (target: at least 10,000, and
  at least 0.8 of bare's rate in the same run);
- key_p95_ms: during the monitor's bursts, a key press (`f`, follow on/off)
  is posted every 50 ms; the time from posting it to the screen having
  handled it and painted the next frame, 95th percentile over all presses
  (target: at most 50). The event loop's longest stall is printed too, as
  startup.py measures it: a ticker that cannot tick is a busy loop;
- peak_rss_mb: this process's peak resident memory (target: under 250).

The machine has 2 cores shared with the emulator (and with whatever else
runs): run it several times and read the spread.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from httpx_sse import aconnect_sse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from aftui.monitor import Target
from aftui.testing.pilot import watch_the_loop
from emulator import emulator

PER_SOURCE = 25_000
KEY_EVERY_S = 0.05


def deploy(info: dict, name: str) -> str:
    headers = {"Authorization": f"Bearer {info['api_key']}"}
    body = {"component_id": "http-new-requests", "name": name, "org_id": info["org_id"]}
    response = httpx.post(f"{info['base_url']}/sources", headers=headers, json=body, timeout=30)
    response.raise_for_status()
    return response.json()["data"]["id"]


def inject_all(info: dict, sources: list[str], count: int) -> threading.Thread:
    """Inject `count` into each source at once (one request each, as fast as the emulator can); returns a joinable thread."""

    def one(source_id: str) -> None:
        url = f"{info['root_url']}/_emulator/sources/{source_id}/inject"
        httpx.post(url, json={"count": count, "rate": 0, "wait": True}, timeout=600).raise_for_status()

    threads = [threading.Thread(target=one, args=(s,)) for s in sources]

    def run() -> None:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    runner = threading.Thread(target=run)
    runner.start()
    return runner


# --- bare httpx-sse ---------------------------------------------------------------------------------


async def bare(info: dict, count: int) -> float:
    sources = [deploy(info, "bench bare a"), deploy(info, "bench bare b")]
    headers = {"Authorization": f"Bearer {info['api_key']}"}
    received = 0
    first = last = 0.0
    opened = asyncio.Event()
    open_count = 0
    done = asyncio.Event()

    async def read(http: httpx.AsyncClient, source_id: str) -> None:
        nonlocal received, first, last, open_count
        async with aconnect_sse(http, "GET", f"{info['root_url']}/sources/{source_id}/sse") as stream:
            open_count += 1
            if open_count == len(sources):
                opened.set()
            async for sse in stream.aiter_sse():
                if not sse.data:
                    continue
                json.loads(sse.data)
                received += 1
                if received == 1:
                    first = time.perf_counter()
                if received >= count:
                    last = time.perf_counter()
                    done.set()
                if done.is_set():
                    return

    async with httpx.AsyncClient(headers=headers, timeout=httpx.Timeout(60)) as http:
        readers = [asyncio.create_task(read(http, s)) for s in sources]
        await asyncio.wait_for(opened.wait(), 30)
        injector = inject_all(info, sources, count // len(sources))
        await asyncio.wait_for(done.wait(), 600)
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    await asyncio.to_thread(injector.join)
    return count / (last - first)


# --- the monitor as a headless app ------------------------------------------------------------------


async def monitor(info: dict, count: int) -> dict:
    from aftui.tui.app import AftuiApp
    from aftui.tui.run import demo_session
    from aftui.tui.screens.monitor import MonitorScreen, open_monitor

    sources = [deploy(info, "bench monitor a"), deploy(info, "bench monitor b")]
    session = demo_session(info["base_url"], info, data=Path(tempfile.mkdtemp(prefix="aftui-bench-")))
    writer = session.journal
    assert writer is not None, "the journal could not be opened"
    app = AftuiApp(session)
    latencies: list[float] = []
    to_handler: list[float] = []
    stalls: list[float] = []
    async with app.run_test(size=(120, 36)) as pilot:
        open_monitor(app, [Target("source", s, f"bench {n}") for n, s in enumerate(sources)])
        while not (
            isinstance(app.screen, MonitorScreen)
            and app.screen.last
            and len(app.screen.last.states) == 2
            and all(state.phase == "live" for _, state in app.screen.last.states.values())
        ):
            await pilot.pause(0.02)
        screen: MonitorScreen = app.screen  # type: ignore[assignment]
        handled: list[float] = []
        follow = screen.action_follow

        def timed_follow() -> None:  # the key's action, timed: handled, then painted
            follow()
            started = handled.pop() if handled else None
            if started is not None:
                to_handler.append((time.perf_counter() - started) * 1000)
                screen.call_after_refresh(lambda: latencies.append((time.perf_counter() - started) * 1000))

        screen.action_follow = timed_follow  # type: ignore[method-assign]
        base_written = writer.written
        injector = inject_all(info, sources, count // len(sources))
        ticker = asyncio.create_task(watch_the_loop(stalls))
        first = 0.0
        next_key = time.perf_counter()
        while writer.written - base_written < count:
            now = time.perf_counter()
            if not first and screen.records:
                first = min(r.seen for r in screen.records)  # wall clock, when the monitor's thread got it
            if first and now >= next_key:
                handled.append(time.perf_counter())
                app.post_message(_key("f"))
                next_key = now + KEY_EVERY_S
            await asyncio.sleep(0.01)
        done = time.time()
        ticker.cancel()
        taken = screen.last.total if screen.last else 0
        await pilot.pause(0.3)
        taken = screen.last.total if screen.last else taken
        journaled = writer.journal.count(sources[0]) + writer.journal.count(sources[1])
    await asyncio.to_thread(injector.join)
    return {
        "rate": count / (done - first),
        "journaled": journaled,
        "taken_by_ui": taken,
        "latencies": latencies,
        "to_handler": to_handler,
        "stalls": stalls,
    }


def _key(key: str):
    from textual import events

    return events.Key(key, key)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=2 * PER_SOURCE)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    bare_rates: list[float] = []
    runs: list[dict] = []
    with emulator("--data", "demo") as info:
        for _ in range(args.rounds):  # alternate, so drift (a warm emulator, a busy machine) hits both alike
            bare_rates.append(asyncio.run(bare(info, args.events)))
            runs.append(asyncio.run(monitor(info, args.events)))
    rates = [r["rate"] for r in runs]
    latencies = [ms for r in runs for ms in r["latencies"]]
    stalls = [ms for r in runs for ms in r["stalls"]]
    monitor_rate, bare_rate = statistics.median(rates), statistics.median(bare_rates)
    figures = {
        "figure": "monitor_stream",
        "events": args.events,
        "rounds": args.rounds,
        "monitor_events_per_second": round(monitor_rate),
        "monitor_samples": [round(r) for r in rates],
        "bare_httpx_sse_events_per_second": round(bare_rate),
        "bare_samples": [round(r) for r in bare_rates],
        "ratio": round(monitor_rate / bare_rate, 3),
        "journaled": [r["journaled"] for r in runs],
        "taken_by_ui": [r["taken_by_ui"] for r in runs],
        "key_presses": len(latencies),
        "key_p95_ms": round(percentile(latencies, 0.95), 1),
        "key_max_ms": round(max(latencies), 1) if latencies else None,
        "key_handled_p95_ms": round(percentile([ms for r in runs for ms in r["to_handler"]], 0.95), 1),
        "loop_stall_p95_ms": round(percentile(stalls, 0.95), 1),
        "loop_stall_max_ms": round(max(stalls), 1) if stalls else None,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "targets": {
            "monitor_events_per_second": ">= 10000",
            "ratio": ">= 0.8",
            "journaled": f"== {args.events}",
            "key_p95_ms": "<= 50",
            "peak_rss_mb": "< 250",
        },
    }
    print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
