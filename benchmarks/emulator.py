"""Figures of the emulator, printed as JSON lines.

- sse_events_per_second: events one SSE subscriber receives per second while
  the emulator injects a burst into a source as fast as it can
  (target: at least 20,000 on the project's 2-core machine).
- sources_page_median_ms: median round trip of a 100-item page of sources
  with the emulator at --scale 10000 (target: under 5 ms).

The emulator runs in a subprocess, as `aftui emulator`, so the client does
not share its interpreter.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import httpx
from httpx_sse import connect_sse


@contextlib.contextmanager
def emulator(*args: str) -> Iterator[dict]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "aftui.cli", "emulator", "--port", "0", *args],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        root = None
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.strip().startswith("root URL"):
                root = line.split()[-1]
                break
        if root is None:
            raise RuntimeError("the emulator did not start")
        info = httpx.get(f"{root}/_emulator/info").json()
        yield info
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def sse_rate(count: int) -> dict:
    with emulator() as info:
        headers = {"Authorization": f"Bearer {info['api_key']}"}
        with httpx.Client(base_url=info["base_url"], headers=headers, timeout=30) as api:
            source = api.get("/users/me/sources", params={"limit": 1}).json()["data"][0]["id"]
        received = 0
        first = last = 0.0
        ready = threading.Event()

        def inject() -> None:
            ready.wait(10)
            httpx.post(
                f"{info['root_url']}/_emulator/sources/{source}/inject",
                json={"count": count, "wait": True},
                timeout=120,
            )

        injector = threading.Thread(target=inject)
        injector.start()
        with httpx.Client(headers=headers, timeout=httpx.Timeout(30, read=30)) as client:
            with connect_sse(client, "GET", f"{info['root_url']}/sources/{source}/sse") as events:
                ready.set()
                for sse in events.iter_sse():
                    if not sse.id:
                        continue
                    received += 1
                    if received == 1:
                        first = time.perf_counter()
                    if received >= count:
                        last = time.perf_counter()
                        break
        injector.join()
        elapsed = last - first
        return {
            "figure": "sse_events_per_second",
            "events": received,
            "seconds": round(elapsed, 3),
            "value": round(received / elapsed) if elapsed else None,
            "target": ">= 20000",
        }


def page_time(scale: int, rounds: int) -> dict:
    with emulator("--scale", str(scale)) as info:
        headers = {"Authorization": f"Bearer {info['api_key']}"}
        with httpx.Client(base_url=info["base_url"], headers=headers, timeout=30) as api:
            page = api.get("/users/me/sources", params={"limit": 100}).json()
            total = page["page_info"]["total_count"]
            samples = []
            cursor = ""
            for _ in range(rounds):
                params = {"limit": 100, **({"after": cursor} if cursor else {})}
                start = time.perf_counter()
                response = api.get("/users/me/sources", params=params)
                samples.append((time.perf_counter() - start) * 1000)
                cursor = response.json()["page_info"]["end_cursor"]
        return {
            "figure": "sources_page_median_ms",
            "sources": total,
            "rounds": rounds,
            "value": round(statistics.median(samples), 3),
            "p95": round(sorted(samples)[int(rounds * 0.95) - 1], 3),
            "target": "< 5",
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=50_000)
    parser.add_argument("--scale", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    print(json.dumps(sse_rate(args.events)), flush=True)
    print(json.dumps(page_time(args.scale, args.rounds)), flush=True)


if __name__ == "__main__":
    main()
