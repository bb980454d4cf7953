"""aftui's SSE reader gives the events httpx-sse gives, however the stream is cut into chunks."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator

import httpx
import pytest
from httpx_sse._decoders import SSEDecoder, SSELineDecoder
from hypothesis import given, settings
from hypothesis import strategies as st

from aftui.api.sse import NotAnEventStream, SseParser, aiter_sse_chunks

FIELDS = ["data", "id", "event", "retry", "", "dat", "data ", "ID"]
ENDINGS = ["\n", "\r", "\r\n"]
VALUE = st.text(alphabet=st.sampled_from([*list('ab :é€😀\x00\t{}"\\'), "\u2028", "\x85", "\x1c"]), max_size=8)


@st.composite
def streams(draw: st.DrawFn) -> str:
    """Lines of fields, comments and blanks, with every kind of line ending."""
    lines = []
    for _ in range(draw(st.integers(0, 30))):
        kind = draw(st.sampled_from(["field", "field", "field", "blank", "comment", "bare"]))
        if kind == "field":
            space = draw(st.sampled_from(["", " ", "  "]))
            line = f"{draw(st.sampled_from(FIELDS))}:{space}{draw(VALUE)}"
        elif kind == "comment":
            line = ":" + draw(VALUE)
        elif kind == "bare":
            line = draw(st.sampled_from(FIELDS))  # a field name without a colon
        else:
            line = ""
        lines.append(line + draw(st.sampled_from(ENDINGS)))
    return "".join(lines)


def cut(text: str, points: list[int]) -> list[str]:
    bounds = sorted({min(p, len(text)) for p in points} | {0, len(text)})
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


def httpx_sse_events(chunks: list[str]) -> list[tuple[str, str, str]]:
    lines, decoder = SSELineDecoder(), SSEDecoder()
    found = []
    for line in [line for chunk in chunks for line in lines.decode(chunk)] + lines.flush():
        sse = decoder.decode(line.rstrip("\n"))
        if sse is not None and sse.data:  # the stream takes only events with data
            found.append((sse.event, sse.data, sse.id))
    return found


def our_events(chunks: list[str]) -> list[tuple[str, str, str]]:
    parser = SseParser()
    return [(e.event, e.data, e.id) for chunk in chunks for e in parser.feed(chunk) if e.data]


@settings(max_examples=400, deadline=None)
@given(streams(), st.lists(st.integers(0, 400), max_size=12))
def test_any_stream_cut_anywhere_gives_httpx_sses_events(text: str, points: list[int]) -> None:
    chunks = [c for c in cut(text, points) if c]
    assert our_events(chunks) == httpx_sse_events(chunks)


def test_line_endings_split_across_chunks() -> None:
    text = "id: 1-1\r\ndata: a\r\n\r\nid: 1-2\rdata: b\r\r"
    for at in range(len(text) + 1):
        assert our_events([text[:at], text[at:]]) == [("message", "a", "1-1"), ("message", "b", "1-2")], at


def test_the_spec_rules_httpx_sse_does_not_keep() -> None:
    assert our_events(["\ufeffdata: after a byte order mark\n\n"]) == [("message", "after a byte order mark", "")]
    assert our_events(["id: 7\n\ndata: x\n\n", "id: bad\0id\ndata: y\n\n"]) == [
        ("message", "x", "7"),
        ("message", "y", "7"),
    ]
    assert our_events(["data: unfinished at the end"]) == []


def respond(body: bytes, content_type: str = "text/event-stream") -> httpx.Response:
    return httpx.Response(200, headers={"content-type": content_type}, stream=httpx.ByteStream(body))


def read(response: httpx.Response) -> list[tuple[str, str, str]]:
    async def run() -> list[tuple[str, str, str]]:
        return [(e.event, e.data, e.id) async for chunk in aiter_sse_chunks(response) for e in chunk]

    return asyncio.run(run())


def test_bytes_are_utf8_whatever_the_charset_says_and_bad_bytes_cost_one_character() -> None:
    body = "data: été\n\n".encode() + b"data: \xff\xfe!\n\n"
    assert read(respond(body, "text/event-stream; charset=latin-1")) == [
        ("message", "été", ""),
        ("message", "\ufffd\ufffd!", ""),
    ]


def test_an_answer_that_is_not_an_event_stream_is_refused() -> None:
    with pytest.raises(NotAnEventStream, match="text/html"):
        read(respond(b"<html>proxy error</html>", "text/html"))


def test_a_long_line_in_many_chunks_is_one_event() -> None:
    line = "data: " + "é" * 300_000 + "\r\n\r\n"
    chunks = [line[i : i + 4096] for i in range(0, len(line), 4096)]
    assert our_events(chunks) == [("message", "é" * 300_000, "")]


class Hold:
    """A Pause the test holds and lets go of; it records what was parsed while it held."""

    def __init__(self) -> None:
        self.until = 0.0
        self.released = asyncio.Event()
        self.waited = 0

    async def passage(self) -> None:
        self.waited += 1
        await self.released.wait()
        self.until = 0.0


def test_a_held_pause_keeps_the_next_chunk_unparsed_until_it_is_let_go() -> None:
    hold = Hold()
    parsed: list[str] = []

    async def chunks() -> AsyncIterator[bytes]:  # the body, a network chunk at a time
        yield b"id: 1-0\ndata: first\n\n"
        hold.until = 1.0  # a key arrived between the two chunks
        yield b"id: 2-0\ndata: second\n\n"

    async def run() -> None:
        response = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=chunks())

        async def read() -> None:
            async for batch in aiter_sse_chunks(response, hold):
                parsed.extend(event.data for event in batch)

        reader = asyncio.create_task(read())
        for _ in range(20):  # the reader runs as far as it may
            await asyncio.sleep(0)
        assert parsed == ["first"]
        assert hold.waited == 1
        hold.released.set()
        await reader

    asyncio.run(run())
    assert parsed == ["first", "second"]


def test_no_pause_or_an_open_one_never_waits() -> None:
    hold = Hold()
    body = b"data: a\n\ndata: b\n\n"
    assert read(respond(body)) == [("message", "a", ""), ("message", "b", "")]

    async def run() -> list[str]:
        response = respond(body)
        return [e.data async for batch in aiter_sse_chunks(response, hold) for e in batch]

    assert asyncio.run(run()) == ["a", "b"]
    assert hold.waited == 0
