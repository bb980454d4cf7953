"""Figures of the client's SSE stream, printed as JSON lines.

- stream_events_per_second: events per second through `Client.stream_source`
  (reconnect, resume, dedupe and an `EventSummary` per event), beside a bare
  httpx-sse loop (`aconnect_sse` + `aiter_sse`, `json.loads` of each `data:`)
  reading the same kind of stream, and the ratio of the two
  (target: at least 0.8).

Each consumer gets a fresh source and its own burst of events, injected as
fast as the emulator can; the time runs from the first event to the last.
Two modes:

- live: the burst is injected while the consumer reads, as in real use; the
  emulator and the consumer run at once, so the slower of the two sets the pace.
- buffered: the burst is injected while the consumer holds off reading (the
  emulator queues it), then read at full speed: the consumer's own ceiling.

The emulator runs in a subprocess, as `aftui emulator` (see benchmarks/emulator.py),
so the client does not share its interpreter. `--profile` prints a cProfile of
`Client.stream_source` in buffered mode to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import pstats
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
from httpx_sse import aconnect_sse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from aftui.api.client import Client
from aftui.api.stream import StreamState
from emulator import emulator

Consumer = Callable[[dict, str, int, Callable[[], None]], Awaitable[float]]


def deploy(info: dict) -> str:
    headers = {"Authorization": f"Bearer {info['api_key']}"}
    response = httpx.post(
        f"{info['base_url']}/sources", headers=headers, json={"component_id": "http-new-requests", "name": "bench"}
    )
    response.raise_for_status()
    return response.json()["data"]["id"]


def injector(
    info: dict, source_id: str, count: int, buffered: bool
) -> tuple[Callable[[], None], Callable[[], Awaitable[None]]]:
    """`on_open`: called once the stream is open; `done`: awaits the end of the injection.

    Buffered: `on_open` injects the whole burst with a blocking request, so the consumer's event
    loop cannot read until the emulator has queued every event. Live: it starts the injection in
    a thread and returns at once.
    """
    url = f"{info['root_url']}/_emulator/sources/{source_id}/inject"
    body = {"count": count, "wait": True}
    task: list[asyncio.Future[None]] = []

    def post() -> None:
        httpx.post(url, json=body, timeout=300).raise_for_status()

    def on_open() -> None:
        if task:
            return
        if buffered:
            post()
            task.append(asyncio.get_running_loop().create_future())
            task[0].set_result(None)
        else:
            task.append(asyncio.ensure_future(asyncio.to_thread(post)))

    async def done() -> None:
        await task[0]

    return on_open, done


async def bare(info: dict, source_id: str, count: int, on_open: Callable[[], None]) -> float:
    """The floor: httpx-sse's own loop, counting events and decoding their JSON."""
    received, first, last = 0, 0.0, 0.0
    headers = {"Authorization": f"Bearer {info['api_key']}"}
    async with httpx.AsyncClient(headers=headers, timeout=httpx.Timeout(30)) as http:
        async with aconnect_sse(http, "GET", f"{info['root_url']}/sources/{source_id}/sse") as source:
            on_open()
            async for sse in source.aiter_sse():
                json.loads(sse.data)
                received += 1
                if received == 1:
                    first = time.perf_counter()
                if received >= count:
                    last = time.perf_counter()
                    break
    return last - first


async def client(info: dict, source_id: str, count: int, on_open: Callable[[], None]) -> float:
    """`Client.stream_source`, the way the TUI reads a source."""
    received, first, last = 0, 0.0, 0.0

    def on_state(state: StreamState) -> None:
        if state.phase == "live":
            on_open()
        elif state.phase == "reconnecting":
            raise RuntimeError(f"the benchmark's stream reconnected: {state}")

    async with Client(info["base_url"], api_key=info["api_key"]) as api:
        async for _event in api.stream_source(source_id, on_state=on_state):
            received += 1
            if received == 1:
                first = time.perf_counter()
            if received >= count:
                last = time.perf_counter()
                break
    return last - first


async def measure(info: dict, consumer: Consumer, count: int, buffered: bool) -> float:
    source_id = deploy(info)
    on_open, done = injector(info, source_id, count, buffered)
    seconds = await asyncio.wait_for(consumer(info, source_id, count, on_open), 300)
    await done()
    return count / seconds


def figure(info: dict, count: int, rounds: int, buffered: bool) -> dict:
    rates: dict[str, list[float]] = {"bare": [], "client": []}
    for _ in range(rounds):  # alternate, so drift (a warm emulator, a busy machine) hits both alike
        for name, consumer in (("bare", bare), ("client", client)):
            rates[name].append(asyncio.run(measure(info, consumer, count, buffered)))
    bare_rate, client_rate = statistics.median(rates["bare"]), statistics.median(rates["client"])
    return {
        "figure": "stream_events_per_second",
        "mode": "buffered" if buffered else "live",
        "events": count,
        "rounds": rounds,
        "client": round(client_rate),
        "bare_httpx_sse": round(bare_rate),
        "ratio": round(client_rate / bare_rate, 3),
        "target": "ratio >= 0.8",
    }


def profile(info: dict, count: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    asyncio.run(measure(info, client, count, buffered=True))
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
    print(out.getvalue(), file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--mode", choices=["live", "buffered", "both"], default="both")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the client's stream to stderr")
    args = parser.parse_args()
    with emulator("--data", "demo") as info:
        if args.profile:
            profile(info, args.events)
            return
        for buffered in {"live": [False], "buffered": [True], "both": [False, True]}[args.mode]:
            print(json.dumps(figure(info, args.events, args.rounds, buffered)), flush=True)


if __name__ == "__main__":
    main()
