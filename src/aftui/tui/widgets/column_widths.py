"""Column widths of a DataTable changed after its columns were added (fitted to the width it was given)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual.widgets import DataTable


def set_widths(table: DataTable[Any], widths: Mapping[str, int]) -> None:
    """Give the columns keyed in `widths` those widths; the table measures itself again only if one changed."""
    changed = False
    for key, column in table.columns.items():
        width = widths.get(key.value or "")
        if width is not None and column.width != width:
            column.width = width
            changed = True
    if changed:
        table._require_update_dimensions = True  # as add_column does: the widths are read again
        table.refresh()
