"""The header tells the truth: the connection as it is (with the URL), who said what, production marked."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tui_helpers import wait_for

from aftui.config import Profile
from aftui.emulator.server import Options, serve_in_thread
from aftui.tui.app import AftuiApp
from aftui.tui.run import demo_session
from aftui.tui.screens.workspaces import WorkspacesPane
from aftui.tui.widgets.status import StatusHeader


def header(app) -> str:
    return app.screen.query_one(StatusHeader).render().plain


def said(app) -> list[tuple[str, str]]:
    return [(n.title, n.message) for n in app._notifications]


async def test_started_while_the_service_is_down_then_back(tmp_path: Path) -> None:
    handle = serve_in_thread(Options(port=0, seed=1))
    info, base_url = handle.emulator.describe(), handle.base_url
    port = urlsplit(base_url).port
    handle.stop()
    session = demo_session(base_url, info, data=tmp_path / "data")
    app = AftuiApp(session)
    back = None
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await wait_for(pilot, lambda: "unreachable since" in header(app), timeout=20)
            shown = header(app)
            assert "● connected" not in shown and urlsplit(base_url).netloc in shown
            assert re.search(r"unreachable since \d\d:\d\d UTC", shown), "in UTC, as every time aftui shows"
            # /users/me and the first pane's lists ask at once: the header hears the first to fail, and the
            # notification of the one that says it (who we are) may come a moment later.
            await wait_for(pilot, lambda: any(m.startswith(f"Could not reach {base_url}") for _, m in said(app)), 10)
            assert not [m for t, m in said(app) if t == "The service said"]
            await pilot.press("1")
            await wait_for(pilot, lambda: bool(app.query(WorkspacesPane)))
            note = str(app.query_one("WorkspacesPane #note").render())
            assert "OAuth" not in note and "could not be read" in note

            back = serve_in_thread(Options(port=port, seed=1))
            await pilot.press("2")  # the Sources list tries again by itself; its answer brings who we are back
            await wait_for(pilot, lambda: "● connected" in header(app) and "Acme Ops" in header(app), timeout=30)
            assert "no workspace" not in header(app)
            note = str(app.query_one("WorkspacesPane #note").render())
            assert "could not be read" not in note
    finally:
        if back is not None:
            back.stop()


async def monitor_live(app, pilot) -> None:
    """The header ok, then the monitor open on the workspace with its streams live."""
    await wait_for(pilot, lambda: "● connected" in header(app), timeout=10)
    await pilot.press("m")
    await wait_for(pilot, lambda: "live" in str(app.screen.query_one("#monitor-streams").render()), timeout=15)


async def test_the_header_says_reconnecting_while_the_monitor_cannot_reach_the_service(make_app, emulator) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await monitor_live(app, pilot)
        emulator.stop()
        await wait_for(
            pilot, lambda: "reconnecting" in str(app.screen.query_one("#monitor-streams").render()), timeout=20
        )
        # Feeds that have not noticed yet make it "some feeds failing" first.
        await wait_for(pilot, lambda: "reconnecting" in header(app), timeout=10)


async def test_the_monitor_says_reconnecting_over_ok_never_over_unreachable(make_app, emulator) -> None:
    """The header's "unreachable since 14:02" (a request that got no answer) says more than the monitor's
    "reconnecting": the monitor's feeds, still down at every take, leave it as it is."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await monitor_live(app, pilot)
        emulator.stop()
        await wait_for(pilot, lambda: "reconnecting" in header(app), timeout=20)
        app.connection("offline")  # as the session's client says when a request gets no answer
        assert app.connection_phase == "offline" and "unreachable since" in header(app)
        takes = app.screen._took_at
        await wait_for(pilot, lambda: app.screen._took_at > takes + 0.2, timeout=5)  # takes made since
        assert "unreachable since" in header(app)


async def test_unreachable_since_is_when_the_first_unanswered_request_was_sent(make_app) -> None:
    """The header said "unreachable since" the time aftui gave up (a timeout, after the retries), not when the
    service stopped answering, half a minute earlier."""
    from datetime import UTC, datetime, timedelta

    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: "● connected" in header(app), timeout=10)
        in_flight = app.session.client.in_flight
        ticket = in_flight.sent()
        in_flight._sent[ticket] -= 600  # sent ten minutes ago, unanswered since
        app.connection("offline")
        began = datetime.now(UTC) - timedelta(seconds=600)
        shown = re.search(r"unreachable since (\d\d:\d\d) UTC", header(app))
        assert shown is not None, header(app)
        assert shown[1] in {f"{began - timedelta(seconds=5):%H:%M}", f"{began:%H:%M}"}, (shown[1], began)
        in_flight.answered(ticket)


async def test_waiting_counts_from_the_first_request_of_a_hang_not_back_from_the_next_one(make_app) -> None:
    """In a hang the header read "waiting 89 s", then "waiting 52 s": the oldest request timed out, and the next
    oldest had waited less. While some request waits past SLOW_ANSWER_S, the wait counts from the first."""

    def sent_ago(seconds: float) -> object:
        ticket = in_flight.sent()
        in_flight._sent[ticket] -= seconds
        return ticket

    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: "● connected" in header(app), timeout=10)
        in_flight = app.session.client.in_flight
        newer_answered = False  # the start's requests were answered after these tickets' backdated sending
        app.session.client.answered_since_oldest_wait = lambda: newer_answered
        first = sent_ago(89)
        app._watch_answers()
        assert app.connection_state == "waiting 89 s for an answer"
        second = sent_ago(52)
        in_flight.answered(first)  # timed out: no answer
        app._watch_answers()
        assert app.connection_state == "waiting 89 s for an answer"
        in_flight.answered(second)
        app._watch_answers()
        assert "waiting" not in app.connection_state
        third = sent_ago(6)  # a new spell
        app._watch_answers()
        assert app.connection_state == "waiting 6 s for an answer"
        # A request sent after it was answered: the service is there, that one is held ("waiting 55 s" after a
        # hang was cleared, over screens that had their answers).
        newer_answered = True
        app._watch_answers()
        assert app.connection_state == "waiting 6 s, newer requests answered"
        in_flight.answered(third)


async def test_a_production_profile_is_marked_in_the_header(make_app, tmp_path: Path) -> None:
    profile = Profile(name="live", api_key="k" * 20, production=True)
    app = make_app(profile=profile)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot, lambda: "● connected" in header(app) and bool(app.query("#sources PagedTable")), timeout=10
        )
        assert header(app).lstrip().startswith("aftui  ▲ PRODUCTION")
    assert Profile.from_dict("live", {"production": True}).production is True
    other = make_app(profile=Profile(name="staging", api_key="k" * 20))
    async with other.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot, lambda: "● connected" in header(other) and bool(other.query("#sources PagedTable")), timeout=10
        )
        assert "PRODUCTION" not in header(other)


async def test_a_change_that_reaches_no_one_says_so_with_the_url(make_app, emulator) -> None:
    inactive = next(s for s in emulator.emulator.store.sources.values() if s.active is False)
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.query("#sources PagedTable")))
        table = app.query_one("#sources PagedTable")
        await wait_for(pilot, lambda: any(s.id == inactive.id for s in table.rows), timeout=10)
        table.table.move_cursor(row=next(n for n, s in enumerate(table.rows) if s.id == inactive.id))
        emulator.stop()
        await pilot.press("t")  # activating asks nothing: the request goes at once, and nothing answers
        await wait_for(pilot, lambda: any(t == "No answer" for t, _ in said(app)), timeout=30)
        assert any(m.startswith(f"Could not reach {emulator.base_url}/") for t, m in said(app) if t == "No answer")
        assert not [m for t, m in said(app) if t == "The service said"]


async def test_after_the_monitor_the_header_hears_the_next_answer(make_app, emulator) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await monitor_live(app, pilot)
        port = urlsplit(emulator.base_url).port
        emulator.stop()
        await wait_for(pilot, lambda: "reconnecting" in header(app), timeout=20)
        await pilot.press("escape")
        await wait_for(pilot, lambda: bool(app.query("#sources PagedTable")))
        assert "reconnecting" in header(app)  # nothing said otherwise yet: the monitor's word stands
        back = serve_in_thread(Options(port=port, seed=1))
        try:
            await pilot.press("r")  # the Sources list asks again; its answer is the header's news
            await wait_for(
                pilot,
                lambda: "● connected" in header(app),
                timeout=20,
                says=lambda: (app.focused, app.screen, header(app)),
            )
        finally:
            back.stop()


async def test_at_80_columns_a_long_workspace_name_gives_way_to_the_alerts_and_read_only(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        status = app.screen.query_one(StatusHeader)
        await wait_for(pilot, lambda: "● connected" in header(app))
        status.workspace = "Dana's workspace, the one for the night shift"
        status.alerts = 6
        status.read_only = True
        await pilot.pause()
        shown = header(app)[:80]  # what the line has room for (the URL, last, is cut)
        assert "✖ 6 alerts · press !" in shown and "READ-ONLY" in shown
        assert "Dana's" in shown  # cut, with its ellipsis, not dropped
        # A long connection state is said short too: "waiting 12 s for an answer" cut "press 0" to "· press".
        status.read_only = False
        status.alerts = 1
        status.connection = "waiting 12 s for an answer"
        await pilot.pause()
        shown = header(app)[:80]
        assert "● waiting 12 s  ✖ 1 alert · press !" in shown, shown
        status.connection = "waiting 12 s, newer requests answered"
        await pilot.pause()
        shown = header(app)[:80]
        assert "● slow, others ok  ✖ 1 alert · press !" in shown, shown


class _Told:
    """What FeedsTold asks of the App: the connection's phase, and being told a new one."""

    def __init__(self) -> None:
        self.connection_phase = "ok"
        self.said: list[str] = []

    def connection(self, state: str) -> None:
        self.connection_phase = state
        self.said.append(state)


def _states(*phases: str) -> list[Any]:
    from aftui.api.stream import StreamState

    return [StreamState(phase) for phase in phases]


def test_feeds_some_live_some_reconnecting_say_so_and_ok_once_all_are_back() -> None:
    """Polls failing with 503s while the streams opened before stayed up: the header read "● connected"."""
    from aftui.tui.feeds_told import FeedsTold

    app, told = _Told(), FeedsTold()
    told.tell(app, _states("live", "live"))
    assert app.said == []
    told.tell(app, _states("live", "reconnecting", "live"))
    told.tell(app, _states("live", "reconnecting", "live"))  # told once, not at every take
    assert app.said == ["partial"]
    told.tell(app, _states("reconnecting", "reconnecting"))
    assert app.said == ["partial", "retrying"]
    told.tell(app, _states("live", "live"))
    assert app.said == ["partial", "retrying", "ok"]
    app.connection_phase = "offline"  # "unreachable since" says more: left as it is
    told.tell(app, _states("live", "reconnecting"))
    assert app.said[-1] == "ok" and app.connection_phase == "offline"


def test_feeds_the_service_answers_with_a_503_say_it_at_once() -> None:
    """A 503 on every read: the header said "some feeds failing" for 8 s, until a request of the session's own
    client got its 503; what the feeds were answered is said at once, as that client says it."""
    from aftui.api.stream import StreamState
    from aftui.tui.feeds_told import FeedsTold

    app, told = _Told(), FeedsTold()
    told.tell(app, [StreamState("live"), StreamState("reconnecting", 1, "Service Unavailable", 503)])
    assert app.said == ["failing 503"]
    told.tell(app, [StreamState("live"), StreamState("reconnecting", 2, "no answer in 6 s")])
    assert app.said == ["failing 503"]  # the 503 told stands: a slow try says nothing new of the service
    told.tell(app, _states("live", "live"))
    assert app.said == ["failing 503", "ok"]
    told.tell(app, [StreamState("reconnecting", 1, "Too many requests", 429)])
    assert app.said[-1] == "retrying"  # not a failure of the service's own


async def test_the_header_says_some_feeds_failing_and_a_wait_over_an_older_failure(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: "● connected" in header(app), timeout=10)
        app.connection("partial")
        await pilot.pause()
        assert "● some feeds failing" in header(app)
        app.connection("failing 503")
        app._slow = 12  # a request sent since has waited 12 s: that is the news, not the 503 before
        assert app.connection_state == "waiting 12 s for an answer"
