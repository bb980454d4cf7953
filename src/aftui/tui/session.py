"""What the TUI is connected to: client, profile, user, workspace, known workflows, journal, clock.

`open_session` is the one place a Session is made: on a profile (`aftui`,
the start screen's new profile) or on a running emulator (the demo, tests,
benchmarks). A profile's known workflows and journal are the user's, in the
data dir where `aftui journal` reads them; the demo keeps its own, so trying
the demo never fills the user's journal.

The journal is opened on a thread of its own while the first screen is drawn
(`JournalOpening`: SQLite reads the whole file to check it). What needs it
waits for it: the feeds on their own thread, Health's history in a worker;
`journal`, `journal_problem` and `journal_notice` wait too, the first time,
if the open is still under way.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..api import Client, RetryPolicy
from ..config import data_dir
from ..journal.location import DEFAULT_NAME as JOURNAL_NAME
from ..journal.opening import JournalConfig, JournalOpening, OpenedJournal
from ..known import KnownWorkflows

if TYPE_CHECKING:
    from ..api.models import EventSummary, Org, User
    from ..journal.writer import JournalWriter
    from ..monitor import Monitor

# A person is waiting: a long Retry-After (Connect's minute) is shown at once, not slept through.
TUI_RETRY = RetryPolicy(attempts=3, max_retry_after=5)
KNOWN_NAME = "known_workflows.json"
NO_JOURNAL = OpenedJournal(None, None)  # a session made without one (tests): nothing journaled, nothing to say


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class Session:
    client: Client
    profile_name: str
    known: KnownWorkflows
    demo: bool = False
    user: User | None = None
    now: Callable[[], datetime] = field(default=utc_now)  # fixed in snapshot tests
    data: Path | None = None  # where this session's own files go (the journal, exports); None: the user data dir
    # The journal's open (started by `start_journal`, or by the first who needs it), then what it gave.
    journal_opening: JournalOpening | OpenedJournal | None = field(default=None, repr=False)
    _feeds: Monitor | None = field(default=None, repr=False)
    # The fix last typed on a bulk replay, by workflow and what it replays (a group): esc, esc had thrown away a
    # fix worked out at night. Given back when the same is opened again (`BulkReplayScreen`).
    bulk_fixes: dict[tuple[str, str], str] = field(default_factory=dict, repr=False)

    @property
    def me(self) -> str | None:
        """The name this session's replays are recorded under (replay.who.name_of of its user), once the user is read."""
        if self.user is None:
            return None
        from ..replay.who import name_of  # here: the replay package costs the start 70 ms it does not need

        return name_of(self.user)

    @property
    def opened_journal(self) -> OpenedJournal:
        """The journal's writer, or why there is none; waits for an open still under way."""
        opening = self.journal_opening
        if isinstance(opening, JournalOpening):
            opening = self.journal_opening = opening.result()
        return opening or NO_JOURNAL

    def start_journal(self) -> None:
        """Begin opening the journal, on its own thread (once the first screen is drawn: nothing there needs it)."""
        if isinstance(self.journal_opening, JournalOpening):
            self.journal_opening.start()

    @property
    def journal_ready(self) -> bool:
        """Whether `opened_journal` would answer at once."""
        opening = self.journal_opening
        return not isinstance(opening, JournalOpening) or opening.done

    async def journal_opened(self) -> OpenedJournal:
        """`opened_journal`, waited for off the event loop."""
        if self.journal_ready:
            return self.opened_journal
        return await asyncio.to_thread(lambda: self.opened_journal)

    @property
    def journal(self) -> JournalWriter | None:
        """Every event seen goes here (None: the journal could not be opened)."""
        return self.opened_journal.writer

    @property
    def journal_problem(self) -> str | None:
        """Why there is no journal (a read-only or missing data dir...), in words."""
        return self.opened_journal.problem

    @property
    def journal_notice(self) -> str | None:
        """What opening it did that the user should hear (a damaged file moved aside)."""
        return self.opened_journal.notice

    def feeds(self) -> Monitor:
        """The session's one Monitor: Health and the monitor screen tap it, so each stream is read and
        journaled once. Made on first use, on the client as it is then (again after `close_feeds`)."""
        if self._feeds is None or self._feeds.closed:
            from ..monitor import Monitor  # the feeds' threads and parsers: not on the way to the first screen

            opening = self.journal_opening
            if isinstance(opening, JournalOpening) and not opening.done:
                # Its thread waits for the journal before its feeds start: the UI's does not.
                self._feeds = Monitor(self.client, opening=opening, clock=self._clock)
            else:
                opened = self.opened_journal
                self._feeds = Monitor(
                    self.client, writer=opened.writer, journal_problem=opened.problem, clock=self._clock
                )
        return self._feeds

    def _clock(self) -> float:
        """The rates' clock: the session's, which snapshot tests fix, so no live rate reaches their picture."""
        return self.now().timestamp()

    @property
    def running_feeds(self) -> Monitor | None:
        """The session's Monitor if one runs (`feeds()` makes one)."""
        feeds = self._feeds
        return feeds if feeds is not None and not feeds.closed else None

    def close_feeds(self) -> None:
        """Stop every feed (another client or credential, or the exit); their last events go to the journal writer."""
        feeds, self._feeds = self._feeds, None
        if feeds is not None:
            feeds.close()

    @property
    def journal_message(self) -> str | None:
        """What to say about the journal at start, if anything."""
        if self.journal_problem:
            return f"Not journaling: {self.journal_problem}. The monitor shows events from memory only."
        return self.journal_notice

    def journal_events(self, events: Iterable[EventSummary], emitter_id: str) -> None:
        """Queue listed or streamed events for the journal; never fails the caller, and waits only for a journal
        still being opened (a list shown in the first second of a start)."""
        if self.journal is not None:
            try:
                self.journal.add(events, emitter_id)
            except RuntimeError:
                pass  # the writer is closed: the app is exiting

    def close_journal(self) -> None:
        """Stop the feeds, write what is queued and close the journal (on exit)."""
        self.close_feeds()
        opening = self.journal_opening
        if isinstance(opening, JournalOpening) and opening.forgo():
            self.journal_opening = None  # never begun: nothing needed it, so nothing is opened to be closed
            return
        opened = self.opened_journal  # an open still under way is waited for: what it opens is closed too
        self.journal_opening = None
        opened.close()

    @property
    def org_id(self) -> str | None:
        return self.client.org_id

    @property
    def workspace(self) -> Org | None:
        if self.user is None:
            return None
        return next((o for o in self.user.orgs if o.id == self.client.org_id), None)

    @property
    def workspace_label(self) -> str:
        org = self.workspace
        if org is not None:
            return org.name or org.orgname or org.id
        return self.client.org_id or "no workspace"

    @property
    def read_only(self) -> bool:
        return self.client.read_only

    @property
    def environment(self) -> str:
        return self.client.environment


def open_session(
    client: Client,
    profile_name: str,
    *,
    demo_data: Path | None = None,
    journal: JournalConfig | None = None,
    journal_afresh: bool = False,
) -> Session:
    """A session on `client`: a profile's with the user's files; the demo's (`demo_data`) with its own, in that folder.

    `journal`: what the profile says of the journal (a team's PostgreSQL, its caps); the demo keeps its own file,
    begun again as it is opened with `journal_afresh`. The journal is not being opened yet: `Session.start_journal`
    begins it.
    """
    if demo_data is None:
        return Session(
            client=client,
            profile_name=profile_name,
            known=KnownWorkflows(data_dir() / KNOWN_NAME),
            journal_opening=JournalOpening(partial(_open_journal, config=journal)),
        )
    return Session(
        client=client,
        profile_name=profile_name,
        known=KnownWorkflows(demo_data / KNOWN_NAME),
        demo=True,
        data=demo_data,
        journal_opening=JournalOpening(partial(_open_journal, demo_data / JOURNAL_NAME, afresh=journal_afresh)),
    )


def _open_journal(
    path: Path | None = None, *, config: JournalConfig | None = None, afresh: bool = False
) -> OpenedJournal:
    """On the opening's thread: `afresh`, the file at `path` and SQLite's beside it are removed first."""
    from ..journal.dbfile import side_paths  # SQLite, the store, the writer: imported on the opening's thread
    from ..journal.retention import open_journal

    if afresh and path is not None:
        for file in side_paths(path):
            file.unlink(missing_ok=True)
    return open_journal(path, config=config)


# Starts the demo's emulator and a session on it; the second item stops the emulator.
DemoStarter = Callable[[], tuple[Session, Callable[[], None]]]
