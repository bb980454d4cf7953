"""Identifiers: resource ids drawn from a seeded generator, and event ids.

Resource ids come from one `random.Random(seed)`, so the same seed and the
same sequence of creations give the same ids run after run.
"""

from __future__ import annotations

import random
import string

_ALPHABET = string.ascii_letters + string.digits


class IdFactory:
    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._issued: set[str] = set()

    def new(self, prefix: str, length: int = 7) -> str:
        while True:
            ident = prefix + "".join(self._rng.choices(_ALPHABET, k=length))
            if ident not in self._issued:
                self._issued.add(ident)
                return ident

    def token(self, prefix: str = "", length: int = 32) -> str:
        """A secret-looking string (API keys, client secrets)."""
        return prefix + "".join(self._rng.choices(_ALPHABET, k=length))


def parse_uint(text: str) -> int | None:
    """A plain ASCII decimal number (no sign, spaces or `_`, at most 30 digits), or None.

    `str.isdigit()` alone is not enough: it accepts "²", which `int()` refuses.
    """
    if not (0 < len(text) <= 30 and text.isascii() and text.isdigit()):
        return None
    return int(text)


def parse_event_id(event_id: str) -> tuple[int, int] | None:
    """`<epoch-ms>-<seq>` as a sortable pair; None when it is not of that form.

    Ids must be compared as pairs, not strings: "-10" sorts before "-2".
    """
    ms, sep, seq = event_id.partition("-")
    ms_n, seq_n = parse_uint(ms), parse_uint(seq)
    if not sep or ms_n is None or seq_n is None:
        return None
    return ms_n, seq_n


def format_event_id(key: tuple[int, int]) -> str:
    return f"{key[0]}-{key[1]}"


class EventIdClock:
    """Hands out strictly increasing event ids for one emitter.

    The id is tied to the emission time; when the clock stands still or is
    set back, the sequence part keeps ids increasing.
    """

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: tuple[int, int] = (0, -1)

    def next(self, now_ms: int) -> tuple[int, int]:
        ms, seq = self.last
        self.last = (now_ms, 0) if now_ms > ms else (ms, seq + 1)
        return self.last
