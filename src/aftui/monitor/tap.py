"""`Tap`: one reader of a shared `Monitor`, with the targets it wants and what arrived for them.

The Health board and the monitor screen watch mostly the same sources and
workflows. Each reading its own streams read and journaled every event twice
(and in a burst, twice the work competed with the UI for the GIL). A Monitor
now runs one feed per target, whoever wants it, and hands each tap only the
records of its own targets: its inbox, its rate, its problems to tell.

Everything here but the methods the UI calls runs under the Monitor's lock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..api import StreamState
from ..journal.store import Gap
from ..journal.writer import JournalStatus
from .feeds import Gate
from .rate import WINDOW, RateCounter
from .records import Record, Target


@dataclass
class Batch:
    records: list[Record]
    states: dict[str, tuple[Target, StreamState]]
    rates: list[int]  # events per second over the last minute, oldest first
    total: int  # records delivered since the monitor started
    overflow: int  # records dropped before the UI took them (it fell behind); they are in the journal
    errors: list[str] = field(default_factory=list)  # problems the user should hear about (journal, history)
    # The journal's state now: ok, failing (since, why, waiting, not kept) or off (why); None: no journal wanted.
    journal: JournalStatus | None = None
    # Runs of events the journal could not keep and the service no longer has, since the last take:
    # the timeline marks them, with their size (they are in the journal's gaps table too).
    gaps: list[Gap] = field(default_factory=list)
    watched_s: int = WINDOW  # whole seconds `rates` has counted (a tap just made: fewer than its length)


class Hub(Protocol):
    """What a tap asks of its Monitor (hub.py), which makes it."""

    gate: Gate

    @property
    def fetching_back(self) -> int: ...

    def journal_status(self) -> JournalStatus: ...

    def retarget(self, tap: Tap, wanted: list[Target]) -> None: ...

    def take_for(self, tap: Tap) -> Batch: ...

    def search_for(self, targets: list[Target], query: str, limit: int) -> list[Record]: ...

    def drop(self, tap: Tap) -> None: ...


class Tap:
    """What one reader (a screen, the Health board) watches of a Monitor; make one with `Monitor.tap()`."""

    def __init__(self, hub: Hub, *, history: int, clock: Callable[[], float], poll_interval_s: float | None) -> None:
        self._hub = hub
        self.history = history  # events per target read from the journal when it joins a feed already running
        self.poll_interval_s = poll_interval_s  # how often it wants workflows polled (None: the Monitor's own)
        self.wanted: list[Target] = []
        self.keys: frozenset[str] = frozenset()
        self.inbox: list[Record] = []
        self.rate = RateCounter(clock)
        self.total = 0
        self.overflow = 0
        self.errors: list[str] = []
        self.gaps: list[Gap] = []
        # Targets it joined while their feeds were already running, until their history is read: the ids
        # handed to it meanwhile, so that what the journal wrote of them is not shown twice.
        self.joining: set[str] = set()
        self.joined_ids: set[str | None] = set()
        self.closed = False

    # --- what the UI calls ------------------------------------------------------------------------

    @property
    def targets(self) -> list[Target]:
        return list(self.wanted)

    @property
    def gate(self) -> Gate:
        """The Monitor's gate: held while the UI answers a key, it holds every feed back, whoever reads them."""
        return self._hub.gate

    @property
    def fetching_back(self) -> int:
        return self._hub.fetching_back

    def journal_status(self) -> JournalStatus:
        return self._hub.journal_status()

    def watch(self, targets: Sequence[Target]) -> None:
        """Watch exactly `targets`: feeds no other tap wants stop, new ones start (or are joined)."""
        self._hub.retarget(self, list(dict.fromkeys(targets)))

    def take(self) -> Batch:
        """What arrived for this tap's targets since its last take."""
        return self._hub.take_for(self)

    def search(self, query: str, limit: int = 500) -> list[Record]:
        """The journal's events of this tap's targets matching `query`, oldest first. Blocking: call off the UI loop."""
        return self._hub.search_for(self.targets, query, limit)

    def close(self) -> None:
        """Stop reading: feeds that no other tap wants stop."""
        self._hub.drop(self)

    # --- what the Monitor's hand-over calls (under its lock) -----------------------------------------------

    def receive(self, arrived: list[Record], everything: bool, live: int, cap: int) -> None:
        """Keep the records of this tap's targets (`everything`: all of them are), at most `cap` in the inbox."""
        mine = arrived if everything else [r for r in arrived if r.target.key in self.keys]
        if not self.history:  # it asked for none (its reader has them already)
            mine = [r for r in mine if not r.history]
        if mine is not arrived:
            live = sum(1 for r in mine if not (r.history or r.backlog))
        if self.joining:
            self.joined_ids.update(r.id for r in mine if r.target.key in self.joining)
        self.rate.add(live)
        if not mine:
            return
        inbox = self.inbox
        inbox.extend(mine)
        self.total += len(mine)
        if len(inbox) > cap:
            drop = len(inbox) - cap // 2  # in chunks, not one by one
            del inbox[:drop]
            self.overflow += drop

    def wants_emitter(self, emitter_id: str) -> bool:
        return any(t.emitter_id == emitter_id for t in self.wanted)
