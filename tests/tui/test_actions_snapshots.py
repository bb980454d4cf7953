"""Every form and question of the subscription, source and workflow changes, at 80x24 and 120x36.

Own emulator on a fixed port (27851), so endpoint URLs on screen do not move;
the demo seed and a fixed clock. Nothing here sends a change: each picture is
taken with the form or the question open. Update with
`pytest tests/tui/test_actions_snapshots.py --snapshot-update` after looking
at the new pictures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from tui_helpers import (
    SIZES,
    Step,
    idle,
    press,
    serve_fixed,
    settled,
    snapshot_app_factory,
    wait_for,
)

from aftui.emulator.server import ServerHandle
from aftui.tui.app import AftuiApp
from aftui.tui.widgets.paged_table import PagedTable

SNAPSHOT_PORT = 27851


@pytest.fixture(scope="module")
def fixed_emulator() -> Iterator[ServerHandle]:
    handle = serve_fixed(SNAPSHOT_PORT)
    yield handle
    handle.stop()


@pytest.fixture
def app(fixed_emulator: ServerHandle, tmp_path: Path) -> Callable[..., AftuiApp]:
    return snapshot_app_factory(fixed_emulator, tmp_path)


def by_name(emulator: ServerHandle, table: str, name: str) -> str:
    return next(r.id for r in getattr(emulator.emulator.store, table).values() if r.name == name)


# Workers that wait on purpose: an action or a form waiting for the answer to the question on screen.
WAITING_GROUPS = ("change", "form")


async def steady(pilot: Pilot) -> None:
    """Idle but for the workers in WAITING_GROUPS."""
    await idle(pilot, timeout=10, waiting=WAITING_GROUPS)


def listed(pane: str, row_of: Callable[[object], bool] | None = None) -> Step:
    """The pane's list loaded, with the cursor on the first row `row_of` accepts."""

    async def run(pilot: Pilot) -> None:
        query = f"#{pane} PagedTable"
        await wait_for(
            pilot, lambda: bool(pilot.app.query(query)) and pilot.app.query_one(query).pager.done, timeout=10
        )
        table = pilot.app.query_one(query, PagedTable)
        if row_of is not None:
            table.table.focus()
            table.table.move_cursor(row=next(i for i, item in enumerate(table.rows) if row_of(item)))
            await pilot.pause()

    return run


def opened(ident: str) -> Step:
    async def run(pilot: Pilot) -> None:
        pilot.app.open_id(ident)
        await wait_for(pilot, lambda: bool(pilot.app.screen.query("#json")), timeout=10)

    return run


def events_tab_row(index: int) -> Step:
    """On a source's detail: the Events tab, its row `index` highlighted."""

    async def run(pilot: Pilot) -> None:
        await pilot.press("right_square_bracket", "right_square_bracket", "right_square_bracket")
        screen = pilot.app.screen
        await wait_for(
            pilot,
            lambda: bool(screen.query("#events")) and screen.query_one("#events", PagedTable).pager.done,
            timeout=10,
        )
        table = screen.query_one("#events", PagedTable)
        table.table.focus()
        table.table.move_cursor(row=index)
        await pilot.pause()

    return run


# name -> (start pane, steps) given the emulator
def cases(emulator: ServerHandle) -> dict[str, tuple[str, list[Step]]]:
    orders = by_name(emulator, "sources", "Order webhooks")
    validate = by_name(emulator, "workflows", "Validate and forward orders")
    stripe = by_name(emulator, "sources", "Stripe payments")
    return {
        "new_subscription": ("subscriptions", [listed("subscriptions"), press("n")]),
        "auto_subscription": ("subscriptions", [listed("subscriptions"), press("A")]),
        "delete_subscription": (
            "subscriptions",
            [listed("subscriptions", lambda s: s.emitter_id == stripe), press("d")],
        ),
        "route_errors": ("sources", [opened(validate), press("E")]),
        "send_to_webhook": ("sources", [opened(orders), press("w")]),
        "delete_source": ("sources", [listed("sources", lambda s: s.id == orders), press("d")]),
        "deactivate_source": ("sources", [listed("sources", lambda s: s.id == orders), press("t")]),
        "deactivate_workflow": ("sources", [opened(validate), press("t")]),
        "delete_events": (
            "sources",
            [opened(orders), events_tab_row(4), press("D"), press("enter", "up", "up", "enter")],
        ),
        "delete_events_confirm": ("sources", [opened(orders), events_tab_row(4), press("D"), press("ctrl+s")]),
    }


NAMES = [
    "new_subscription",
    "auto_subscription",
    "delete_subscription",
    "route_errors",
    "send_to_webhook",
    "delete_source",
    "deactivate_source",
    "deactivate_workflow",
    "delete_events",
    "delete_events_confirm",
]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", NAMES)
def test_change(snap_compare, app, fixed_emulator, name, size) -> None:
    pane, steps = cases(fixed_emulator)[name]
    assert snap_compare(
        app(start_pane=pane), terminal_size=size, run_before=settled(*steps, wait=steady, after_each=True)
    )
