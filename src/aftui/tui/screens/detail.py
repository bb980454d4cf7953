"""The shape every detail shares: a breadcrumb, tabs of fields and views, and a JSON tab.

A subclass says what to load (`load`) and which tabs to show (`tabs`). The
load runs in a worker with a loading indicator; a failure is shown in place
with the server's message and `r` retries. `c` copies the JSON, `i` the id,
both through OSC 52 so it works over SSH.
"""

from __future__ import annotations

import asyncio
from typing import Any

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import ScrollableContainer, Vertical, VerticalScroll
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.widget import Widget
from textual.widgets import ContentSwitcher, Static, TabbedContent, TabPane, Tabs

from ...api import ApiError, AuthError, NotFoundError
from ...text import visible
from ..clipboard import copy_text
from ..focus import TYPED_AHEAD_KEPT, first_focusable, focus_now, read_again, shown
from ..host import session_of
from ..messages import AuthFailed
from ..retry import AutoRetry
from ..session import Session
from ..widgets.footer import KeyFooter
from ..widgets.json_view import JsonView
from ..widgets.paged_table import PagedTable
from ..widgets.status import StatusHeader

FIRST_PAGE_WAIT_S = 10.0  # the longest keys typed ahead wait for the list of the tab opened on
FIRST_PAGE_POLL_S = 0.05

TABS = Binding.Group("Tabs", compact=True)
TAB_STEPS = {"left_square_bracket": -1, "right_square_bracket": 1}  # as the bindings below say (`on_key`)


class DetailScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("r", "reload", "Refresh"),
        # The footer keeps its width for the screen's own keys; `?` lists these.
        Binding("c", "copy_json", "Copy JSON", show=False),
        Binding("i", "copy_id", "Copy id", show=False),
        # A list's own `/` answers first where there is one; elsewhere `/` says where the lists are.
        Binding("slash", "no_filter", "Filter", show=False),
        Binding("left_square_bracket", "tab(-1)", "Previous tab", group=TABS),
        Binding("right_square_bracket", "tab(1)", "Next tab", group=TABS),
    ]

    # Times the tabs were built whole (each load that succeeded). Tabs shows up before its panes are added one by
    # one: a walk that counted them then missed the last (the JSON), so walks and tests wait on this instead.
    built = 0

    # The last crumb follows the record's name once loaded; False where what it was opened by says more
    # (a component's key: many are called "New Issue").
    CRUMB_IS_NAME = True

    def __init__(self, ident: str, crumbs: tuple[str, ...], *, record: Any = None, tab: str | None = None) -> None:
        super().__init__()
        self.ident = ident
        self.crumbs = crumbs
        self.record: Any = record
        self.start_tab = tab  # the tab to open on, its content focused (the Health pane opens a workflow's Errors)
        self.failed = False  # the last load failed: the body says why, and only r and i act
        self._loading = True  # from the start: keys read with the enter that opened it come before its mount
        self._typed_ahead: list[events.Key] = []  # keys read while loading, for the tabs (`hold_typed_ahead`)
        # Its tabs are being taken down and put up: a reload then waits for the end (`_again`). Cancelled there,
        # the body was left half removed and empty (`r` as the service came back, while its probe reloaded).
        self._building = False
        self._again = False

    @property
    def session(self) -> Session:
        return session_of(self)

    def held(self) -> str | None:
        """What closing this screen for a pane key would lose, in words (None: nothing, it is a view).

        Marked errors are the user's work (the bulk replay's choice); nothing else a detail shows is."""
        marked = sum(len(getattr(table, "marked", ())) for table in self.query("ErrorsTable"))
        return f"{marked} marked error{'s' * (marked != 1)} here" if marked else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Not loaded, nothing to change, copy or open: the footer offered u, t, d under "Could not load", and
        # they did nothing. The id is known, and r tries again.
        if self.failed and action not in ("reload", "copy_id"):
            return False
        return super().check_action(action, parameters)

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(self._crumbs_text(), classes="crumbs")
        yield Vertical(id="body")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.retry = AutoRetry(self, self._load)
        self.query_one(StatusHeader).sync()
        self.action_reload()

    def hold_typed_ahead(self, event: events.Key) -> bool:
        """True when a key read while the record loads is kept for its tabs (asked by the App before its
        bindings: `focus.KeyHolder`). `enter ] ]` or `enter u` read at once (over SSH, or typed fast) met a
        screen with nothing to walk or change, and were lost. esc and the App's own keys (a pane's digit, q, ?)
        act at once: nobody waits on a slow service to leave."""
        if not self._loading or event.key == "escape" or event.key in self.app._bindings.key_to_bindings:
            return False
        if len(self._typed_ahead) < TYPED_AHEAD_KEPT:
            self._typed_ahead.append(event)
        return True

    def _hand_on_typed_ahead(self, *, to_tabs: bool) -> None:
        """In the order typed, as if read now (to the tabs, focused by then); dropped when the load failed."""
        typed, self._typed_ahead = self._typed_ahead, []
        read_again(self.app, typed if to_tabs else [])

    def _set_failed(self, failed: bool) -> None:
        if failed != self.failed:
            self.failed = failed
            self.refresh_bindings()

    def action_reload(self) -> None:
        self.retry.cancel()
        if self._building:
            self._again = True
            return
        self._load()

    @work(group="detail", exclusive=True, exit_on_error=False)
    async def _load(self) -> None:
        self._loading = True
        try:
            built = await self._build()
            if built:
                await self._first_page_in()
        finally:
            self._building = False
            task = asyncio.current_task()
            if task is None or not task.cancelling():  # cancelled: a newer load (r) took over, and ends it
                self._loading = False
        self._hand_on_typed_ahead(to_tabs=built)
        if self._again:  # asked for while the tabs were put up: made now
            self._again = False
            self.call_later(self._load)

    async def _first_page_in(self) -> None:
        """Wait (at most FIRST_PAGE_WAIT_S) for the list of the tab opened on to have its first page: the keys
        typed ahead are for it. Health opens a workflow on its Errors tab, and `enter g` with hundreds of
        errors met a list still loading, which cannot take the focus: the `g` went to the tab bar and was lost."""
        for _ in range(round(FIRST_PAGE_WAIT_S / FIRST_PAGE_POLL_S)):
            if not self._typed_ahead or not self._list_loading():
                break
            await asyncio.sleep(FIRST_PAGE_POLL_S)

    def _list_loading(self) -> bool:
        found = self.query(TabbedContent)
        pane = found.first().active_pane if found else None
        if pane is None:
            return False
        return any(table.unready for table in pane.query(PagedTable) if shown(table))

    async def _build(self) -> bool:
        """The record loaded and its tabs built (True), or why not said in the body."""
        body = self.query_one("#body")
        place = self._place()  # before the loading cover takes the focus away
        body.loading = True
        try:
            self.record = await self.load()
        except ApiError as error:
            self._building = True
            self._set_failed(True)
            body.loading = False
            await body.remove_children()
            # A 404 will not be found by asking again: `r` is there, but not offered as the way out.
            note = self.retry.schedule(error) or (None if isinstance(error, NotFoundError) else "press r to retry")
            ways = ", ".join(way for way in (note, "esc to go back") if way)
            await body.mount(
                Static(
                    Text.assemble(("Could not load: ", "bold"), visible(error.message, 400), (f"\n{ways}", "dim")),
                    classes="problem",
                )
            )
            if isinstance(error, AuthError):
                self.app.post_message(AuthFailed(error))
            return False
        self._building = True
        self.retry.succeeded()
        self._set_failed(False)
        self._rename_crumb()
        body.loading = False
        await body.remove_children()
        tabs = _DetailTabs()
        await body.mount(tabs)
        start: TabPane | None = None
        for title, widget in [*self.tabs(), ("JSON", JsonView(self.json_data(), id="json"))]:
            pane = TabPane(title, _scroll(widget))
            await tabs.add_pane(pane)
            start = pane if title == self.start_tab else start
        tabs.query_one(Tabs).focus()  # left/right walk the tabs, down enters one
        if start is not None and start.id is not None:
            self.start_tab = None  # once (opened on a tab, as Health opens the Errors tab): a reload keeps the place
            tabs.active = start.id
            _enter(start)
        else:
            await self._return_to(tabs, *place)
        self.loaded()
        self.built += 1
        return True

    def _rename_crumb(self) -> None:
        """The last crumb names the record as it now is: after a rename here (or anywhere), not as it was opened."""
        if not self.CRUMB_IS_NAME:
            return
        name = getattr(self.record, "name", None)
        if not isinstance(name, str) or not name or not self.crumbs or self.crumbs[-1] == name:
            return
        self.crumbs = (*self.crumbs[:-1], name)
        for crumbs in self.query(".crumbs").results(Static):
            crumbs.update(self._crumbs_text())

    def _crumbs_text(self) -> Text:
        return Text(" › ".join(visible(c, 40) for c in self.crumbs))

    def _place(self) -> tuple[str | None, str | None]:
        """Before the tabs are rebuilt (a reload after a change): the tab shown, and the list with the focus."""
        found = self.query(TabbedContent)
        if not found:
            return None, None
        tabbed = found.first()
        pane = tabbed.active_pane
        title = str(tabbed.get_tab(pane).label) if pane is not None and pane.id else None
        focused = self.focused
        table = next((a for a in focused.ancestors_with_self if isinstance(a, PagedTable)), None) if focused else None
        return title, table.id if table is not None else None

    async def _return_to(self, tabbed: TabbedContent, title: str | None, table_id: str | None) -> None:
        """After a reload, the same tab again, and its list takes the focus back once loaded (a dialog's change
        reloads the detail: the user stays where they were, not on the first tab)."""
        if title is None:
            return
        pane = next((p for p in tabbed.query(TabPane) if str(tabbed.get_tab(p).label) == title), None)
        if pane is None or not pane.id:
            return
        tabbed.active = pane.id
        if table_id:
            for table in pane.query(f"#{table_id}").results(PagedTable):
                self._focus_list(table, 60)

    def _focus_list(self, table: PagedTable[Any], tries: int) -> None:
        """Focus `table` once it can take it, unless the user has moved on from the tab bar meanwhile."""
        if not table.is_attached or not isinstance(self.focused, (Tabs, type(None))):
            return
        if table.unready:
            if tries:
                self.set_timer(0.05, lambda: self._focus_list(table, tries - 1))
            return
        table.table.focus()

    def on_key(self, event: events.Key) -> None:
        """From the tab bar, down goes into the tab's content (the first thing there that takes focus), and so
        does a key of the content's own, which is then answered there: the Errors tab reached with `]` says
        "g groups", and its list's `g`, `y` or `/` worked only once the user had thought to press down.

        `[` and `]` are taken here, as they pass, not by their bindings once they reach the App: a down read
        with them was answered first, into the tab being left, which then took the tab back (`] down` ended
        on the Overview)."""
        step = TAB_STEPS.get(event.key)
        if step is not None and not self._loading:  # while loading, the App keeps it for the tabs
            event.stop()
            event.prevent_default()
            self.action_tab(step)
            return
        if self.focused is not None and not isinstance(self.focused, Tabs):
            return
        found = self.query(TabbedContent)  # nothing focused counts as the bar: what had it was hidden or removed
        pane = found.first().active_pane if found else None
        target = first_focusable(pane) if pane else None
        if target is None:
            return
        if event.key == "down":
            focus_now(target)  # the keys read behind it go there too
            event.stop()
        elif event.is_printable and self._binds(target, event.key):
            focus_now(target)  # the App looks for the key's binding from the focus, once the key reaches it

    def _binds(self, widget: Widget, key: str) -> bool:
        """`key` is bound by `widget` or a container of it inside this screen."""
        for node in widget.ancestors_with_self:
            if node is self:
                return False
            if key in node._bindings.key_to_bindings:
                return True
        return False

    def action_tab(self, step: int) -> None:
        """The next tab (or previous), its content focused unless the tab bar was: `]` from the Errors list hid
        the list and left nothing focused, so down, enter and the list's keys did nothing until a Tab."""
        found = self.query(TabbedContent)
        if not found:
            return
        tabbed = found.first()
        panes = [pane for pane in tabbed.query_one(ContentSwitcher).children if isinstance(pane, TabPane)]
        current = tabbed.active_pane
        if not panes or current not in panes:
            return
        pane = panes[(panes.index(current) + step) % len(panes)]
        on_the_bar = isinstance(self.focused, Tabs)
        tabbed.active = pane.id or ""
        if on_the_bar:
            return
        _enter(pane, at_once=True)

    def action_no_filter(self) -> None:
        """`/` on a tab with no list (Overview, JSON) did nothing, and a filter typed fast after it went on to
        the App's keys: `/ 08:3` showed Health for the 0 and opened the palette for the colon."""
        found = self.query(TabbedContent)
        if not found:
            return
        tabbed = found.first()
        lists = [str(tabbed.get_tab(pane).label) for pane in tabbed.query(TabPane) if pane.query(PagedTable)]
        where = f": the lists are on {', '.join(lists)} (] and [ walk the tabs)" if lists else ""
        self.notify(f"Nothing to filter on this tab{where}", title="/", timeout=4)

    async def load(self) -> Any:
        """Fetch the record (and whatever else the tabs need); the default keeps what was given."""
        return self.record

    def tabs(self) -> list[tuple[str, Widget]]:
        return []

    def loaded(self) -> None:
        """Called after the tabs are mounted: start secondary loads here."""

    def json_data(self) -> Any:
        record = self.record
        return record.model_dump(mode="json") if hasattr(record, "model_dump") else record

    def action_copy_json(self) -> None:
        views = self.query(JsonView)
        text = views.first().json_text() if views else ""
        copy_text(self, text, "the JSON")

    def action_copy_id(self) -> None:
        copy_text(self, self.ident, self.ident)


class _DetailTabs(TabbedContent):
    """Shows the tab of the widget focused, as TabbedContent does, but not after the focus has moved on.

    TabbedContent learns of a focus inside a pane a message later, and switches to that pane then: `] ] ]`
    typed fast from the Events list walked to Errors and JSON, and the late word that the Errors list had
    been focused switched back to Errors, as if the last bracket were lost."""

    def _on_tab_pane_focused(self, event: TabPane.Focused) -> None:
        focused = self.screen.focused if self.is_attached else None
        if focused is None or event.tab_pane not in focused.ancestors:
            event.prevent_default()  # TabbedContent's own handler would switch back
            event.stop()


def _enter(pane: TabPane, *, at_once: bool = False) -> None:
    """Focus the tab's content: its first widget that takes the focus, and its list once it has rows (a list
    still loading cannot take it yet). `at_once` for a key's action: the keys read behind it go there too."""
    target = first_focusable(pane)
    if target is not None:
        if at_once:
            focus_now(target)
        else:
            target.focus()
    for table in pane.query(PagedTable):
        # Not one that has it now: its claim comes a turn later, and after `] ]` typed fast it took the
        # focus back to a tab already left.
        if target is None or table not in target.ancestors_with_self:
            table.claim_focus_once()


def _scroll(widget: Widget) -> Widget:
    """Tall content scrolls; widgets that scroll themselves (tables, trees, lists) go in as they are.

    A list in a second scroller would give that scroller the focus once the
    list is taller than the screen: `down` from the tab bar would land on it
    and `enter` would open nothing.
    """
    if isinstance(widget, (ScrollView, ScrollableContainer, PagedTable)):
        return widget
    return VerticalScroll(widget)
