"""Every key means one thing: refresh is `r` everywhere, sending never shares a key with it; the footer and `?`
show the keys of the screen on top, in words."""

from __future__ import annotations

import io

from rich.console import Console
from test_replay import post_orders, workflow_output
from textual.widgets import Input, Static, Tabs
from textual.widgets._footer import FooterKey
from tui_helpers import wait_for

from aftui.tui.modals.keys import KeysScreen, key_groups
from aftui.tui.screens.detail import DetailScreen
from aftui.tui.screens.replay import ReplayScreen
from aftui.tui.screens.replay_bulk import BulkReplayScreen
from aftui.tui.screens.replay_errors import ErrorsTable
from aftui.tui.screens.sources import SourceScreen
from aftui.tui.widgets.json_view import JsonView

SENDING = {"replay", "edit_replay", "bulk", "bulk_replay", "start", "edit"}


def shown_keys(app) -> dict[str, str]:
    """The footer's keys as drawn: key → description, only those inside the screen's width."""
    width = app.size.width
    return {
        k.key: k.description
        for k in app.screen.query(FooterKey)
        if k.region.width and k.region.x >= 0 and k.region.right <= width
    }


def keys_text(app) -> str:
    console = Console(width=200, file=io.StringIO(), record=True, color_system=None)
    for static in app.screen.query(Static):
        console.print(static.content)
    return console.export_text()


async def errors_tab(app, pilot, workflow_id: str) -> ErrorsTable:
    app.open_id(workflow_id)
    await wait_for(pilot, lambda: bool(app.screen.query(ErrorsTable)), timeout=10)
    table = app.screen.query_one(ErrorsTable)
    await wait_for(pilot, lambda: bool(table.rows) and isinstance(app.focused, Tabs), timeout=10)
    await pilot.press(*"]]]]")  # Overview, Triggers, Steps, Events, Errors
    return table


async def test_r_refreshes_in_the_errors_tab_whatever_has_focus_and_never_replays(make_app, emulator) -> None:
    post_orders(emulator, "ord_keys1")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, emulator.emulator.demo.order_workflow_id)
        detail = app.screen
        await pilot.press("down")
        await wait_for(pilot, lambda: app.focused is table.table)
        for where in ("table", "tab bar"):
            if where == "tab bar":
                app.screen.query_one(Tabs).focus()
                await pilot.pause()
            assert app.screen.active_bindings["r"].binding.action in {"refresh", "reload"}, where
            assert app.screen.active_bindings["r"].binding.description == "Refresh", where
            # Where the row is short the list's own keys give way to the tab's verbs: never r as another thing.
            await wait_for(pilot, lambda: bool(shown_keys(app)))
            assert shown_keys(app).get("r") in (None, "Refresh"), where
            await pilot.press("r", "r")
            await pilot.pause(0.2)
            assert app.screen is detail, f"r r from the {where} left the detail"
        await wait_for(
            pilot, lambda: bool(app.screen.query(ErrorsTable)) and bool(app.screen.query_one(ErrorsTable).rows)
        )
        table = app.screen.query_one(ErrorsTable)
        table.table.focus()
        await pilot.pause()
        # The replay opens on its own key, and `r r` there (a refresh pressed twice) sends nothing.
        before = len(workflow_output(emulator, "$errors/event_summaries"))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), timeout=10)
        replay = app.screen
        await wait_for(pilot, lambda: replay.plan is not None, timeout=10)
        await pilot.press("r", "r", "enter")
        await pilot.pause(0.5)
        assert replay.result is None and not replay.running
        assert len(workflow_output(emulator, "$errors/event_summaries")) == before
        for screen in (replay,):
            for key in ("r", "enter", "escape", "down", "up"):
                active = screen.active_bindings.get(key)
                assert active is None or active.binding.action not in SENDING, key


async def test_the_footer_shows_the_keys_of_the_screen_on_top_after_one_closes(make_app, emulator) -> None:
    post_orders(emulator, "ord_keys2", "ord_keys3")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, emulator.emulator.demo.order_workflow_id)
        await pilot.press("down")
        await wait_for(pilot, lambda: app.focused is table.table)
        await wait_for(pilot, lambda: "R" in shown_keys(app))
        for opener, kind in (("R", BulkReplayScreen), ("y", ReplayScreen), ("question_mark", KeysScreen)):
            await pilot.press(opener)
            await wait_for(pilot, lambda: isinstance(app.screen, kind), timeout=10)  # noqa: B023
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
            # The table has the focus again (given back a message after the screen resumes)...
            await wait_for(pilot, lambda: app.focused is table.table, timeout=10)
            # ...and the footer says what the keys do: the table's keys. It is redrawn a moment after the
            # focus moves, so it is read until it has caught up, and what it then says must be the table's.
            await wait_for(
                pilot,
                lambda: "y" in shown_keys(app),
                timeout=10,
                says=lambda: (opener, app.screen, app.focused, app.app_focus, shown_keys(app)),  # noqa: B023
            )
            shown = shown_keys(app)
            assert all(app.screen.active_bindings[k].binding.description == d for k, d in shown.items() if d), opener
            assert shown.get("y") == "Replay…" and shown.get("r") in (None, "Refresh"), opener


async def test_the_footer_keeps_help_in_sight_at_80_columns_and_says_each_thing_once(make_app, emulator) -> None:
    source = next(s for s in emulator.emulator.store.sources.values() if s.name == "Webhook inbox")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.query("#sources PagedTable")))
        await wait_for(pilot, lambda: "question_mark" in shown_keys(app))
        app.open_id(source.id)
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen) and bool(app.screen.query(Tabs)))
        await wait_for(pilot, lambda: "question_mark" in shown_keys(app))
        keys = shown_keys(app)
        # r Refresh, every detail's, gives way to the source's own verbs where the row is short; `?` lists it.
        assert {"escape", "question_mark", "u", "d"} <= set(keys) and "r" not in keys
        drawn = [k.description for k in app.screen.query(FooterKey) if k.description]
        assert len(drawn) == len(set(drawn)), drawn


async def test_help_is_grouped_in_words_with_human_key_names(make_app, emulator) -> None:
    source = next(s for s in emulator.emulator.store.sources.values() if s.name == "Webhook inbox")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        app.open_id(source.id)
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen) and bool(app.screen.query(Tabs)))
        await wait_for(pilot, lambda: isinstance(app.focused, Tabs))
        await pilot.press("[")  # from the first tab, round to the last: JSON
        await wait_for(pilot, lambda: str(app.screen.query_one(Tabs).active_tab.label) == "JSON")
        await pilot.press("down")
        await wait_for(pilot, lambda: isinstance(app.focused, JsonView))
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, KeysScreen))
        text = keys_text(app)
    for raw in ("left_square_bracket", "right_square_bracket", "question_mark", "JsonView", "SourceScreen", "Pane 1"):
        assert raw not in text, raw
    for said in (
        "The JSON tree",
        "This screen",
        "Everywhere",
        "Previous tab",
        "2 ",
        "Go to Sources",
        "Go to Components",
    ):
        assert said in text, said
    lines = text.splitlines()
    assert any(line.split()[:2] == ["[", "Previous"] for line in lines if line.split())
    assert any(line.split()[:2] == ["esc", "Back"] for line in lines if line.split())  # a detail's way back
    assert text.index("The JSON tree") < text.index("This screen") < text.index("Everywhere")


async def open_first_source(app, pilot) -> None:
    """From the Sources pane, once listed: its first source's detail."""
    await wait_for(
        pilot, lambda: bool(app.query("#sources PagedTable")) and bool(app.query_one("#sources PagedTable").rows)
    )
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen))


async def test_a_panes_digit_on_a_view_closes_it_and_shows_the_pane_but_never_drops_marked_errors(
    make_app, emulator
) -> None:
    """A digit on a detail used to switch the pane under it, unseen, and esc then landed there by surprise."""
    post_orders(emulator, "ord_keys3")
    app = make_app(start_pane="sources")
    async with app.run_test(size=(120, 36)) as pilot:
        await open_first_source(app, pilot)
        await pilot.press("3")
        await wait_for(pilot, lambda: len(app.screen_stack) == 1 and app.query_one("#panes").current == "workflows")
        await wait_for(pilot, lambda: app.focused is not None and app.query_one("#workflows") in app.focused.ancestors)

        table = await errors_tab(app, pilot, emulator.emulator.demo.order_workflow_id)
        await pilot.press("down")
        await wait_for(pilot, lambda: app.focused is table.table)
        await pilot.press("space")
        await wait_for(pilot, lambda: len(table.marked) == 1)
        detail = app.screen
        await pilot.press("2")
        await pilot.pause()
        assert app.screen is detail and app.query_one("#panes").current == "workflows"
        assert any("1 marked error here" in str(n.message) for n in app._notifications)


async def test_a_panes_digit_in_the_monitor_leaves_it_for_the_pane_unless_events_are_marked(make_app) -> None:
    """The header says "press 0" of new alerts; in the monitor, 0 only said to leave it with esc first. The
    stream goes on without it (Health's feeds); the marks for a bulk replay are the user's work, and stay."""
    from aftui.tui.screens.monitor import MonitorScreen

    app = make_app(start_pane="sources")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen))
        monitor = app.screen
        monitor.timeline.marked.add(1)
        await pilot.press("0")
        await pilot.pause()
        assert app.screen is monitor and any("1 marked event here" in str(n.message) for n in app._notifications)
        monitor.timeline.marked.clear()
        await pilot.press("0")
        await wait_for(pilot, lambda: len(app.screen_stack) == 1 and app.query_one("#panes").current == "health")


def terminal_types(app, text: str) -> None:
    """`text` as a terminal sends it: read by Textual's own parser into keys, sent through the driver."""
    from textual._xterm_parser import XTermParser

    parser = XTermParser()
    for event in [*parser.feed(text), *parser.feed("")]:
        app._driver.send_message(event)


async def test_backspaces_typed_ahead_into_a_filter_are_applied_in_their_place(make_app) -> None:
    """`/zzz`, three backspaces and `inject`, read at once, left "zzzinj" in the monitor's filter: the letters
    went on to the field as keys, the backspaces came back for the App's bindings, after the letters."""
    from aftui.tui.screens.monitor import MonitorScreen

    app = make_app(start_pane="sources")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.query("#sources")) and app.focused in app.query("#sources *"))
        terminal_types(app, "/zzz\x7f\x7f\x7fsource\x1b[D\x1b[Dx")  # the arrows too: "sourxce"
        await wait_for(pilot, lambda: isinstance(app.focused, Input) and app.focused.value == "sourxce")
        await pilot.press("escape", "escape")
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen))
        terminal_types(app, "/zzz\x7f\x7f\x7finject")
        await wait_for(pilot, lambda: isinstance(app.focused, Input) and app.focused.value == "inject")


def keys_read(text: str) -> list[str]:
    """The keys Textual's own parser reads from `text`, what a terminal sent (the escape delay run out at its end)."""
    from textual._xterm_parser import XTermParser

    parser = XTermParser()
    return [e.key for e in [*parser.feed(text), *parser.feed("")] if hasattr(e, "key")]


async def test_keys_typed_at_once_into_a_form_and_a_question_land_in_their_place(make_app) -> None:
    """A form's field typed the letters read in a burst before its backspaces, ctrl+u and arrows, which ran once
    they had come back to the App: "15m", four backspaces and "600" saved a timer as "15"."""
    from aftui.tui.forms.webhook import WebhookForm
    from aftui.tui.modals.confirm import ConfirmScreen

    app = make_app(start_pane="webhooks")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(
            pilot, lambda: bool(app.query("#webhooks PagedTable")) and app.query_one("#webhooks PagedTable").pager.done
        )
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, WebhookForm) and bool(app.screen.query("#submit")))
        url = app.screen.query_one("#url", Input)
        terminal_types(app, "https://hooks.example.org\x7f\x7f\x7fcom/y\x1b[Dx")
        await wait_for(pilot, lambda: url.value == "https://hooks.example.com/xy")
        terminal_types(app, "\x1b[F\x15https://in-order.example.com\x13")  # end, ctrl+u, a URL, ctrl+s
        await wait_for(pilot, lambda: not isinstance(app.screen, WebhookForm), 15)
        table = app.query_one("#webhooks PagedTable")
        await wait_for(pilot, lambda: [w.url for w in table.rows].count("https://in-order.example.com") == 1, 15)
        app.push_screen(ConfirmScreen("Delete Doomed?", ["It goes."], typed="Doomed"))
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen) and bool(app.screen.query("#typed")))
        await pilot.pause(0.2)  # keys read before the question was asked are not answers to it
        terminal_types(app, "Doomex\x7f\x7fed")
        typed = app.screen.query_one("#typed", Input)
        await wait_for(pilot, lambda: typed.value == "Doomed")


async def test_esc_then_a_digit_typed_at_once_does_both(make_app) -> None:
    """The terminal's esc and 4 within its escape delay are read as one key: Textual's table made it a Mac's
    Option+4 ("¢"), and nothing happened, the esc eaten too. Now it is alt+4, and what esc does where the user
    is happens, then the pane key; in a field too, where "¢" was typed (esc 2 typed "™" into a filter)."""
    from aftui.tui.screens.monitor import MonitorScreen

    def on_pane(pane: str) -> bool:
        return len(app.screen_stack) == 1 and app.query_one("#panes").current == pane

    app = make_app(start_pane="sources")
    assert [keys_read(f"\x1b{d}") for d in "0123456789"] == [[f"alt+{d}"] for d in "0123456789"]
    assert keys_read("£") == ["pound_sign"]  # a UK keyboard's shift+3: a character of its own, still typed
    async with app.run_test(size=(120, 36)) as pilot:
        await open_first_source(app, pilot)
        terminal_types(app, "\x1b4")  # a detail: closed, the pane shown
        await wait_for(pilot, lambda: on_pane("webhooks"))
        await pilot.press("question_mark")  # not keys to learn: the Keys screen leaves them out
        await wait_for(pilot, lambda: isinstance(app.screen, KeysScreen))
        listed = [keys for _, rows in key_groups(app.screen_stack[0]) for keys, _, _ in rows]
        assert "4" in listed and not [k for k in listed if "alt" in k], listed
        terminal_types(app, "\x1b2")  # a dialog, whose esc is its own: closed, the pane shown
        await wait_for(pilot, lambda: on_pane("sources"))
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen))
        terminal_types(app, "\x1b3")  # the monitor: its esc, then the pane
        await wait_for(pilot, lambda: on_pane("workflows"))
        # Typed in a field, it is the character (a UK keyboard's shift+3 is "£"): nothing is closed or switched.
        await wait_for(pilot, lambda: app.focused is not None and app.query_one("#workflows") in app.focused.ancestors)
        await pilot.press("slash")
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        terminal_types(app, "£10")
        await wait_for(pilot, lambda: app.focused.value == "£10")
        assert on_pane("workflows")
        terminal_types(app, "\x1b2")  # esc 2 in the field: the filter's esc, then Sources; no "™" typed
        await wait_for(pilot, lambda: on_pane("sources"))
        assert "™" not in app.query_one("#workflows Input").value


async def test_a_key_of_the_tabs_own_list_works_from_the_tab_bar_that_reached_it(make_app, emulator) -> None:
    """`]` leaves the focus on the tab bar; the Errors tab says "g groups", and `g` there groups."""
    from aftui.tui.screens.error_groups import ErrorGroupsView

    post_orders(emulator, "ord_keys4")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await errors_tab(app, pilot, emulator.emulator.demo.order_workflow_id)
        await wait_for(pilot, lambda: isinstance(app.focused, Tabs) and bool(table.rows))
        await pilot.press("g")
        await wait_for(pilot, lambda: bool(app.screen.query(ErrorGroupsView)))
        assert app.screen is not None and not isinstance(app.focused, Tabs)


async def test_esc_then_a_letter_typed_at_once_does_both(make_app) -> None:
    """esc and m within the escape delay are read as one key, alt+m, which nothing binds: both were lost. Now esc
    does what it does where the user is, then the letter does what it does there."""
    from aftui.tui.escape_keys import ESCAPED_KEYS, alt_letter_keys
    from aftui.tui.screens.monitor import MonitorScreen

    read = {c: keys_read(f"\x1b{c}") for c in "mEqz"}
    assert read == {"m": ["alt+m"], "E": ["alt+shift+e"], "q": ["alt+q"], "z": ["alt+z"]}
    assert alt_letter_keys()["alt+shift+e"] == "E" and "alt+b" not in alt_letter_keys()  # esc b: ctrl+left

    def on_pane(pane: str) -> bool:
        return len(app.screen_stack) == 1 and app.query_one("#panes").current == pane

    app = make_app(start_pane="sources")
    async with app.run_test(size=(120, 36)) as pilot:
        await open_first_source(app, pilot)
        terminal_types(app, "\x1bm")  # a detail: closed, then m opens the monitor on the workspace
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen))
        assert len(app.screen_stack) == 2, app.screen_stack
        monitor = app.screen
        terminal_types(app, "\x1bE")  # the monitor's esc closes it: E then means nothing on the Sources list
        # Closed, not hidden: a popped screen is unmounted a moment after it leaves the stack.
        await wait_for(pilot, lambda: on_pane("sources") and not monitor.is_attached)
        await pilot.press("question_mark")  # not keys to learn: the Keys screen leaves them out
        await wait_for(pilot, lambda: isinstance(app.screen, KeysScreen))
        listed = [keys for _, rows in key_groups(app.screen_stack[0]) for keys, _, _ in rows]
        assert not [k for k in listed if "alt" in k], listed
        assert not ESCAPED_KEYS & set(listed)
        terminal_types(app, "\x1bm")  # a dialog: its esc closes it, then m
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: on_pane("sources"))
        # In a field too: alt+m is no character to type (Textual's Input took it for "m"), so esc leaves the
        # field as it would alone, and m opens the monitor.
        await wait_for(pilot, lambda: app.focused is not None and app.query_one("#sources") in app.focused.ancestors)
        await pilot.press("slash")
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        field = app.focused
        terminal_types(app, "ab\x1bm")
        # Mounted before the test ends: a screen closed while it mounts is mounted into nothing (Textual).
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.is_mounted)
        assert field.value == "ab"


async def test_keys_typed_with_enter_wait_for_the_detail_they_open(make_app, emulator) -> None:
    """enter ] ] read at once (over SSH, or typed fast): the brackets came while the detail was still loading
    its record, with no tabs to walk, and were lost. They now wait for the tabs, then walk them; keys of the
    App's own (a pane's digit, esc) are not held."""
    app = make_app(start_pane="sources")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(
            pilot, lambda: bool(app.query("#sources PagedTable")) and bool(app.query_one("#sources PagedTable").rows)
        )
        terminal_types(app, "\r]]")
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen) and app.screen.built == 1)
        detail = app.screen
        titles = [str(tab.label) for tab in detail.query(Tabs).first().query("Tab")]
        await wait_for(pilot, lambda: detail.query(Tabs).first().active_tab is not None)
        await pilot.pause(0.2)
        active = detail.query(Tabs).first().active_tab
        assert active is not None and str(active.label) == titles[2], (titles, active)
        terminal_types(app, "\x1b")
        await wait_for(pilot, lambda: len(app.screen_stack) == 1)
        terminal_types(app, "\r3")  # the App's own key: not held for the detail, which it closes
        await wait_for(pilot, lambda: len(app.screen_stack) == 1 and app.query_one("#panes").current == "workflows")


async def test_keys_read_before_a_question_is_asked_do_not_answer_it(make_app) -> None:
    """Letters typed fast for something else reach the screen whose keys they are: a `t` among them asked
    "Deactivate …?", and a `y` or an enter read behind it, before the question was even on screen, answered it
    (enter pressed "Deactivate", which had the focus until the question's own focus on "Cancel" came a turn
    later). Keys read before it is asked are dropped, and it says so; keys pressed after it answer it."""
    from textual.widgets import Button

    from aftui.tui.modals.confirm import ConfirmScreen

    app = make_app(start_pane="sources")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.query("#sources PagedTable")))
        answers: list[bool | None] = []
        question = ConfirmScreen("Deactivate source x?", ["it stops running"], action="Deactivate")
        app.push_screen(question, answers.append)
        terminal_types(app, "y\r")  # read now, before the question is mounted
        await wait_for(pilot, lambda: question.is_mounted and question.query_one(".typed-ahead").display)
        await pilot.pause(0.2)
        assert answers == [] and app.screen is question
        assert app.focused is question.query_one("#no", Button)
        await pilot.press("y")
        await wait_for(pilot, lambda: answers == [True])


async def test_an_enter_typed_after_a_filters_enter_opens_the_row_it_let_through(make_app, emulator) -> None:
    """`/order web⏎⏎` on Health and `/ord_…⏎⏎` on the Errors tab opened nothing: Textual typed the keys read
    with the first enter into the field before that enter moved the focus to the rows, and the second
    enter met the field again. They now wait for the focus to move."""
    from aftui.tui.screens.health import HealthPane
    from aftui.tui.screens.replay_errors import ErrorEventScreen

    inbox = next(s for s in emulator.emulator.store.sources.values() if s.name == "Order webhooks")
    post_orders(emulator, "ord_needle7", "ord_other8")
    app = make_app(start_pane="health")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.query(HealthPane)) and bool(app.query_one(HealthPane).rows), timeout=20)
        await wait_for(pilot, lambda: app.focused is app.query_one(HealthPane).table)
        terminal_types(app, "/order web\r\r")
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen), timeout=10, says=lambda: app.focused)
        assert app.screen.ident == inbox.id
        terminal_types(app, "\x1b")
        await wait_for(pilot, lambda: len(app.screen_stack) == 1)
        app.open_id(emulator.emulator.demo.order_workflow_id)
        await wait_for(pilot, lambda: bool(app.screen.query(ErrorsTable)), timeout=10)
        errors = app.screen.query_one(ErrorsTable)
        await wait_for(pilot, lambda: len(errors.rows) >= 2, timeout=10)
        await pilot.press(*"]]]]", "down")
        await wait_for(pilot, lambda: app.focused is errors.table)
        terminal_types(app, "/ord_needle7\r\r")
        await wait_for(pilot, lambda: isinstance(app.screen, ErrorEventScreen), timeout=10, says=lambda: app.focused)
        error = app.screen.record.error()
        assert error is not None and error.original_event["body"]["order_id"] == "ord_needle7"


async def test_a_key_typed_after_the_bulk_fixs_enter_goes_to_the_list_and_d_waits_for_the_check(
    make_app, emulator
) -> None:
    """`f`, the fix, enter and `d` sent at once typed the "d" into the fix ("…test\\"d": not JSON); and a `d`
    read before the fix was checked said "a moment" instead of running the dry run."""
    post_orders(emulator, "ord_fast1", "ord_fast2")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        app.open_id(emulator.emulator.demo.order_workflow_id)
        await wait_for(pilot, lambda: bool(app.screen.query(ErrorsTable)), timeout=10)
        errors = app.screen.query_one(ErrorsTable)
        await wait_for(pilot, lambda: len(errors.rows) >= 2, timeout=10)
        await pilot.press(*"]]]]", "down", "space", "space", "R")
        await wait_for(pilot, lambda: isinstance(app.screen, BulkReplayScreen) and app.screen.planned, timeout=10)
        screen = app.screen
        terminal_types(app, 'fcustomer_email = "oncall@acme.test"\rd')
        await wait_for(pilot, lambda: screen.dry_run_done, timeout=10, says=lambda: screen.query_one("#fix").value)
        assert screen.query_one("#fix", Input).value == 'customer_email = "oncall@acme.test"'
        assert screen.focused is screen.query_one("DataTable")
        await pilot.press("f", "backspace")  # back to mend it: the text was selected, and went whole
        await wait_for(pilot, lambda: screen.query_one("#fix", Input).value == 'customer_email = "oncall@acme.test')


def test_every_field_aftui_makes_runs_its_keys_in_order() -> None:
    """A plain Input types the letters of a burst before its backspaces: each field is an InOrderInput."""
    import re
    from pathlib import Path

    import aftui.tui

    made = re.compile(r"(?<![\w.])Input\(")
    root = Path(aftui.tui.__file__).parent
    plain = [f"{path.relative_to(root)}" for path in root.rglob("*.py") if made.search(path.read_text())]
    assert plain == []


async def test_esc_on_a_pane_clears_its_filter_then_goes_back_to_health(make_app, emulator) -> None:
    """On the Sources pane esc did nothing, and only 0 went back to Health: at 80 columns nothing said so."""
    from aftui.tui.screens.health import HealthPane
    from aftui.tui.widgets.paged_table import PagedTable

    app = make_app()  # on the Sources pane
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot, lambda: bool(app.query("#sources PagedTable")) and bool(app.query_one("#sources PagedTable").rows)
        )
        table = app.query_one("#sources PagedTable", PagedTable)
        await pilot.press("slash", "x")
        await wait_for(pilot, lambda: table.filter_text == "x")
        await pilot.press("escape")
        await wait_for(pilot, lambda: table.filter_text == "")
        assert app._shown_pane() is app.query_one("#sources")  # the filter went first
        await pilot.press("question_mark")  # `?` says so, as the footer has no room
        await wait_for(pilot, lambda: isinstance(app.screen, KeysScreen))
        assert any(line.split()[:4] == ["esc", "Back", "to", "Health"] for line in keys_text(app).splitlines())
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, KeysScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app._shown_pane(), HealthPane))
        await pilot.press("escape")  # on Health: nowhere further back
        await pilot.pause(0.2)
        assert isinstance(app._shown_pane(), HealthPane) and len(app.screen_stack) == 1
