"""Pasted text arrives whole and in order, escape characters and markup included, and is stored as pasted."""

from __future__ import annotations

import itertools

import httpx
from textual import events
from textual.drivers import linux_driver
from textual.widgets import Input
from tui_helpers import wait_for

from aftui.tui.forms.webhook import WebhookForm
from aftui.tui.paste import PasteParser, use_paste_parser

SIZE = (120, 36)
HOSTILE = "Evil\x1b[31mRED...[b]markup[/b]"
# What a terminal sends for a key, the paste in bracketed paste mode, and a key after it.
TYPED = f"a\x1b[200~{HOSTILE}\x1b[201~b"


def _events(data: str, cuts: tuple[int, ...]) -> list[events.Event]:
    """The events the driver's parser makes of `data`, read in chunks cut at `cuts` (as reads of a tty cut it)."""
    use_paste_parser()
    parser = linux_driver.XTermParser()
    bounds = [0, *cuts, len(data)]
    out: list[events.Event] = []
    for start, end in itertools.pairwise(bounds):
        out += parser.feed(data[start:end])
    out += parser.tick()
    return out


def _seen(made: list[events.Event]) -> list[tuple[str, str]]:
    return [("paste", e.text) if isinstance(e, events.Paste) else ("key", getattr(e, "key", "")) for e in made]


def test_the_driver_reads_a_paste_with_escapes_as_one_paste_in_its_place() -> None:
    expected = [("key", "a"), ("paste", HOSTILE), ("key", "b")]
    assert _seen(_events(TYPED, ())) == expected
    # cut anywhere, even inside the end marker: the same events
    for cut in range(1, len(TYPED)):
        if cut > TYPED.index("\x1b[200~") + 6:
            assert _seen(_events(TYPED, (cut,))) == expected, cut
    assert isinstance(linux_driver.XTermParser(), PasteParser)


async def test_a_pasted_name_is_stored_whole_and_in_order(make_app, api: httpx.Client) -> None:
    app = make_app(start_pane="webhooks")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            pilot,
            lambda: bool(app.query("#webhooks PagedTable")) and app.query_one("#webhooks PagedTable").pager.done,
            15,
        )
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, WebhookForm) and bool(app.screen.query("#submit")))
        form = app.screen
        form.query_one("#url", Input).value = "https://hooks.example.com/pasted"
        name = form.query_one("#name", Input)
        name.focus()
        for event in _events(f"\x1b[200~{HOSTILE}\x1b[201~", (9, 20)):  # as the terminal sends it, in pieces
            app.post_message(event)
        await wait_for(pilot, lambda: name.value == HOSTILE)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, WebhookForm), 15)
    made = [
        w for w in api.get("/users/me/webhooks", params={"limit": 100}).json()["data"] if w["url"].endswith("/pasted")
    ]
    assert [w["name"] for w in made] == [HOSTILE]
