"""A JSON document as a foldable tree, highlighted by hand (no tree-sitter).

Children are built when a node is first expanded, and each level shows at
most `MAX_CHILDREN` entries, so a 10 MB payload or one nested 10,000 deep
costs only what is on screen.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from ...masking import masked
from ...text import clip, safe_json, visible
from ..messages import ViewValue

MAX_CHILDREN = 200
MAX_STRING = 300
MAX_COPY = 1024 * 1024
_PENDING = object()  # marks a container whose children are not built yet


def dumps(data: Any, *, indent: int | None = 2) -> str:
    """JSON text of `data`, or a short note when it cannot be written (too deep, not JSON)."""
    try:
        return json.dumps(data, indent=indent, ensure_ascii=False, default=str)
    except (RecursionError, ValueError) as exc:
        return f"/* cannot be shown as JSON: {type(exc).__name__} */"


def scalar(value: Any) -> Text:
    if isinstance(value, str):
        # JSON's own escapes (a stack's line breaks read \n, as the JSON says), and the invisible characters JSON
        # leaves raw as \u escapes: `visible` first had its \n escaped again by the JSON, which showed \\n.
        return Text(safe_json(clip(value, MAX_STRING), indent=None), style="green")
    if isinstance(value, bool) or value is None:
        return Text(json.dumps(value), style="yellow")
    if isinstance(value, (int, float)):
        return Text(str(value), style="magenta")
    return Text(visible(repr(value), MAX_STRING), style="red")


def _summary(value: Any) -> Text:
    if isinstance(value, dict):
        return Text(f"{{{len(value)}}}", style="dim")
    return Text(f"[{len(value)}]", style="dim")


def label(key: str | int | None, value: Any) -> Text:
    head = Text()
    if key is not None:
        head.append(visible(str(key), 80) if isinstance(key, str) else str(key), style="bold cyan")
        head.append(": ")
    head.append_text(_summary(value) if isinstance(value, (dict, list)) else scalar(value))
    return head


def _key_of(node: TreeNode[Any]) -> str:
    """The key a node was labelled with (`label`: "key: summary")."""
    label = node.label
    return (label.plain if isinstance(label, Text) else str(label)).partition(": ")[0]


class JsonView(Tree[Any]):
    """`set_data(payload)`; enter or space folds, `e` unfolds every level shown, `E` folds all."""

    KEYS_AREA = "The JSON tree"  # its heading in `?`

    BINDINGS = [
        Binding("e", "expand_all", "Unfold"),
        Binding("E", "collapse_all", "Fold all"),
        Binding("v", "view_value", "View value"),
    ]

    DEFAULT_CSS = """
    JsonView { height: 1fr; padding: 0 1; }  /* as every list and detail: a cell from the edge */
    """

    def __init__(
        self, data: Any = None, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__("JSON", name=name, id=id, classes=classes)
        self.show_root = False
        self.guide_depth = 2
        self._data: Any = None
        if data is not None:
            self.set_data(data)

    @property
    def data_value(self) -> Any:
        return self._data

    def set_data(self, data: Any, *, unfold: Sequence[str] = ()) -> None:
        """Show `data`, its headers' credentials masked (`masking`); copying it gives it as it is. The first
        level is unfolded, and the nodes along the keys `unfold` names (an error's `event`, `error`)."""
        self._data = data
        shown = masked(data)
        self.clear()
        self.root.data = shown
        self._fill(self.root, shown)
        self.root.expand()
        for child in self.root.children:
            if child.allow_expand and len(self.root.children) <= 20:
                child.expand()
        node = self.root
        for key in unfold:
            found = next((c for c in node.children if c.allow_expand and _key_of(c) == key), None)
            if found is None:
                break
            found.expand()
            self._fill_pending(found)  # its children now, so that the next key can be found among them
            node = found

    def _fill(self, node: TreeNode[Any], value: Any) -> None:
        items = (
            list(value.items())
            if isinstance(value, dict)
            else list(enumerate(value))
            if isinstance(value, list)
            else []
        )
        for key, child in items[:MAX_CHILDREN]:
            if isinstance(child, (dict, list)) and child:
                node.add(label(key, child), data=(_PENDING, child), expand=False)
            else:
                node.add_leaf(label(key, child), data=child)
        if len(items) > MAX_CHILDREN:
            node.add_leaf(Text(f"… {len(items) - MAX_CHILDREN} more (copy the JSON to see all)", style="dim italic"))

    def on_focus(self) -> None:
        # A Tree's cursor starts above its first line: entering the tab showed no line under the cursor, and
        # the first down only put it on the first line, as if the key were lost.
        if self.cursor_line < 0 and self.last_line >= 0:
            self.cursor_line = 0

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Any]) -> None:
        self._fill_pending(event.node)

    def _fill_pending(self, node: TreeNode[Any]) -> None:
        """A node's children, made the first time it is unfolded."""
        if isinstance(node.data, tuple) and node.data and node.data[0] is _PENDING:
            value = node.data[1]
            node.data = value
            self._fill(node, value)

    def action_expand_all(self) -> None:
        """Unfold the node under the cursor and its built children (one level at a time for huge data)."""
        node = self.cursor_node or self.root
        node.expand()
        for child in node.children:
            if child.allow_expand:
                child.expand()

    def action_collapse_all(self) -> None:
        for child in self.root.children:
            child.collapse_all()

    def action_view_value(self) -> None:
        """The value under the cursor in full, in the value viewer (a string's newlines as lines)."""
        node = self.cursor_node
        if node is None or node is self.root:
            self.post_message(ViewValue("JSON", self.root.data))
            return
        value = node.data
        if isinstance(value, tuple) and value and value[0] is _PENDING:
            value = value[1]
        path: list[str] = []
        while node is not None and node is not self.root:
            text = str(node.label)
            path.append(text.split(": ", 1)[0] if ": " in text else "")
            node = node.parent
        self.post_message(ViewValue(" › ".join(["JSON", *reversed(path)]), value))

    def json_text(self) -> str:
        text = dumps(self._data)
        return text if len(text) <= MAX_COPY else text[:MAX_COPY]
