"""The footer reads the keys once for changes in a row, shows the last of them, and each one whole or not at all."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widgets import Static
from textual.widgets._footer import FooterKey
from tui_helpers import wait_for

from aftui.tui.widgets.footer import KeyFooter


class Keyed(Static, can_focus=True):
    def __init__(self, key: str, description: str, ident: str) -> None:
        super().__init__(ident, id=ident)
        self._bindings.bind(key, "noop", description)

    def action_noop(self) -> None:
        pass


class Crowded(App[None]):
    """More keys than 40 columns hold, with `?` docked at the right."""

    BINDINGS = [
        *(Binding(key, f"noop('{key}')", f"Action {key}") for key in "abcdefgh"),
        Binding("question_mark", "noop('?')", "Keys", key_display="?"),
    ]

    def compose(self) -> ComposeResult:
        yield KeyFooter()

    def action_noop(self, key: str) -> None:
        pass


def shown(app: App[None]) -> list[FooterKey]:
    """The keys left of `?` placed on screen (those left out have no region)."""
    return [k for k in app.screen.query(FooterKey) if k.region and not k.has_class("-command-palette")]


def descriptions(app: App[None]) -> list[str]:
    return [k.description for k in shown(app)]


async def laid_out(pilot: Pilot[None], app: App[None]) -> list[str]:
    """The keys shown once the footer is placed, `?` included: a fixed pause read none on a busy machine (CI l3)."""
    await wait_for(pilot, lambda: bool(shown(app)) and bool(app.query_one("FooterKey.-command-palette").region))
    return descriptions(app)


async def test_a_key_that_does_not_fit_whole_before_the_help_key_is_not_shown_and_comes_back_when_it_fits() -> None:
    app = Crowded()
    async with app.run_test(size=(40, 5)) as pilot:
        await laid_out(pilot, app)
        help_key = app.query_one("FooterKey.-command-palette", FooterKey)
        keys = shown(app)
        assert 0 < len(keys) < 8
        assert all(k.region.right <= help_key.region.x for k in keys)  # none cut, none under `?`
        assert [k.description for k in keys] == [f"Action {key}" for key in "abcdefgh"[: len(keys)]]
        await pilot.resize_terminal(160, 5)
        await wait_for(pilot, lambda: len(shown(app)) == 8, says=lambda: descriptions(app))


class Listed(App[None]):
    """A list's keys first, then a pane's verbs: more than 60 columns hold."""

    BINDINGS = [
        Binding("slash", "filter", "Filter", key_display="/"),
        Binding("r", "refresh", "Refresh"),
        Binding("s", "sort", "Sort"),
        Binding("n", "noop('n')", "New webhook"),
        Binding("d", "noop('d')", "Delete"),
        Binding("t", "noop('t')", "On/off"),
        Binding("question_mark", "noop('?')", "Keys", key_display="?"),
    ]

    def compose(self) -> ComposeResult:
        yield KeyFooter()

    def action_noop(self, key: str) -> None:
        pass


async def test_where_the_row_is_short_every_lists_own_keys_give_way_before_the_panes_verbs() -> None:
    app = Listed()
    async with app.run_test(size=(54, 5)) as pilot:
        assert await laid_out(pilot, app) == ["Filter", "New webhook", "Delete", "On/off"]
        await pilot.resize_terminal(120, 5)
        every = ["Filter", "Refresh", "Sort", "New webhook", "Delete", "On/off"]
        await wait_for(pilot, lambda: descriptions(app) == every, says=lambda: descriptions(app))


class Detailed(App[None]):
    """A detail's keys (its r Refresh among them), then an error's verbs: more than 50 columns hold."""

    BINDINGS = [
        Binding("escape", "noop('esc')", "Back"),
        Binding("r", "reload", "Refresh"),
        Binding("y", "noop('y')", "Replay…"),
        Binding("e", "noop('e')", "Edit & replay…"),
        Binding("question_mark", "noop('?')", "Keys", key_display="?"),
    ]

    def compose(self) -> ComposeResult:
        yield KeyFooter()

    def action_noop(self, key: str) -> None:
        pass

    def action_reload(self) -> None:
        pass


async def test_a_details_refresh_gives_way_before_its_verbs() -> None:
    """An error's detail at 80 columns cut e Edit & replay… and kept r Refresh, which every detail has."""
    app = Detailed()
    async with app.run_test(size=(50, 5)) as pilot:
        assert await laid_out(pilot, app) == ["Back", "Replay…", "Edit & replay…"]


class Footed(App[None]):
    BINDINGS = [Binding("q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Keyed("a", "Archive", "one")
        yield Keyed("b", "Bounce", "two")
        yield Keyed("c", "Copy", "three")
        yield KeyFooter()


def drawn(app: App[None]) -> list[str]:
    return [k.description for k in app.screen.query(FooterKey) if k.description]


async def test_focus_moved_twice_before_a_refresh_rebuilds_the_footer_once_with_the_last_keys() -> None:
    app = Footed()
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        footer = app.query_one(KeyFooter)
        rebuilt = []
        recompose = footer.recompose

        async def counted() -> None:
            rebuilt.append(app.focused.id if app.focused is not None else None)
            await recompose()

        footer.recompose = counted  # type: ignore[method-assign]
        app.set_focus(app.query_one("#two"))
        app.set_focus(app.query_one("#three"))  # before the refresh the first change waits for
        await wait_for(pilot, lambda: "Copy" in drawn(app), says=lambda: (rebuilt, drawn(app)))
        await pilot.pause(0.2)  # no second rebuild comes after it
        assert rebuilt == ["three"]
        assert "Bounce" not in drawn(app)
        app.set_focus(app.query_one("#one"))  # a change after that rebuild is read again
        await wait_for(pilot, lambda: "Archive" in drawn(app), says=lambda: (rebuilt, drawn(app)))
        assert rebuilt == ["three", "one"]
        assert "Copy" not in drawn(app)


class VerbsThenBack(App[None]):
    """A list's five verbs (focused: first), then the screen's esc Back: more than 60 columns hold."""

    def compose(self) -> ComposeResult:
        yield Verbs()
        yield KeyFooter()

    BINDINGS = [
        Binding("escape", "noop('esc')", "Back"),
        Binding("question_mark", "noop('?')", "Keys", key_display="?"),
    ]

    def on_mount(self) -> None:
        self.query_one(Verbs).focus()

    def action_noop(self, key: str) -> None:
        pass


class Verbs(Static, can_focus=True):
    BINDINGS = [Binding(key, f"noop('{key}')", f"Verb {key}") for key in "vwxyz"]

    def action_noop(self, key: str) -> None:
        pass


async def test_the_way_back_is_never_cut_the_keys_before_it_give_way() -> None:
    """An error list at 80 columns showed its five verbs and no esc Back: the way out was nowhere in sight."""
    app = VerbsThenBack()
    async with app.run_test(size=(60, 5)) as pilot:
        keys = await laid_out(pilot, app)
        assert keys[-1] == "Back" and keys[:-1] == [f"Verb {key}" for key in "vwxyz"[: len(keys) - 1]], keys
        assert len(keys) < 6
        await pilot.resize_terminal(160, 5)
        every = [*(f"Verb {key}" for key in "vwxyz"), "Back"]
        await wait_for(pilot, lambda: descriptions(app) == every, says=lambda: descriptions(app))
