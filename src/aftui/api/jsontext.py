"""JSON from the service, parsed so that no document can take the client down.

`json.loads` gives up on nesting deeper than Python's recursion limit (about
1,000) with a `RecursionError`, which is not a `ValueError`: a payload of
10,000 nested arrays would escape every `except ValueError` and end a stream
or a list. Here such a document is parsed again under a raised limit, bounded
so a hostile depth cannot exhaust the C stack, and every container nested
deeper than `KEPT_DEPTH` is replaced by a note. Everything downstream (models,
the journal's `json.dumps`, the JSON view) then works at ordinary depth.
"""

from __future__ import annotations

import json
import sys
import threading
from typing import Any

# Deeper than anything real; shallow enough that json's C recursion fits an 8 MB stack.
PARSE_DEPTH = 12_000
KEPT_DEPTH = 100
CUT_NOTE = f"… nested deeper than {KEPT_DEPTH} levels: cut by aftui"

_deep = threading.Lock()


def loads(text: str | bytes) -> Any:
    """`json.loads`, with very deep documents parsed and cut instead of raising RecursionError.

    Raises ValueError for text that is not JSON or is nested deeper than `PARSE_DEPTH`.
    """
    try:
        return json.loads(text)
    except RecursionError:
        return cut(_loads_deep(text))


def _loads_deep(text: str | bytes) -> Any:
    with _deep:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, PARSE_DEPTH + 200))
        try:
            return json.loads(text)
        except RecursionError:
            raise ValueError(f"JSON nested deeper than {PARSE_DEPTH:,} levels") from None
        finally:
            sys.setrecursionlimit(old)


def cut(value: Any, depth: int = KEPT_DEPTH) -> Any:
    """`value` with every container below `depth` levels replaced by `CUT_NOTE` (in place, without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, level = stack.pop()
        keys = node.keys() if isinstance(node, dict) else range(len(node)) if isinstance(node, list) else ()
        for key in list(keys):
            child = node[key]
            if isinstance(child, (dict, list)):
                if level + 1 >= depth:
                    node[key] = CUT_NOTE
                else:
                    stack.append((child, level + 1))
    return value
