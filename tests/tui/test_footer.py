"""The footer reads the keys once for changes in a row, and shows the last of them."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from aftui.tui.widgets.footer import KeyFooter


class Keyed(Static, can_focus=True):
    def __init__(self, key: str, description: str, ident: str) -> None:
        super().__init__(ident, id=ident)
        self._bindings.bind(key, "noop", description)

    def action_noop(self) -> None:
        pass


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
        await pilot.pause(0.2)
        assert rebuilt == ["three"]
        assert "Copy" in drawn(app) and "Bounce" not in drawn(app)
        app.set_focus(app.query_one("#one"))  # a change after that rebuild is read again
        await pilot.pause(0.2)
        assert rebuilt == ["three", "one"]
        assert "Archive" in drawn(app) and "Copy" not in drawn(app)
