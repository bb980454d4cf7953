"""The registry's components as read, shipped beside their code (`data/registry_read.json`).

Reading the 23 components' JavaScript (`component_code.parse_component`) is
about 30 ms, three quarters of the demo's build, and `aftui demo`'s first
screen waits for that build. So the reading is done once, by
`scripts/registry_read.py`, and shipped; `tests/emulator/test_catalog_data.py`
holds it equal to a fresh read of each component's code. A component whose
code does not hash to what was recorded is read from its code, as a
client's component is.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from importlib import resources
from typing import Any

from .component_code import ComponentMeta

FILE = "registry_read.json"


def shipped_read(code: str) -> ComponentMeta | None:
    """What reading `code` gives, when it is a registry component's code as shipped; None otherwise."""
    recorded = _by_hash().get(hashlib.sha256(code.encode()).hexdigest())
    if recorded is None:
        return None
    return ComponentMeta(**{**recorded, "hooks": tuple(recorded["hooks"]), "methods": tuple(recorded["methods"])})


def record(metas: dict[str, tuple[str, ComponentMeta]]) -> str:
    """The file's text for `metas` (key -> (code, its read)), in the registry's order."""
    entries = {
        key: {"sha256": hashlib.sha256(code.encode()).hexdigest(), "read": dataclasses.asdict(meta)}
        for key, (code, meta) in metas.items()
    }
    return json.dumps(entries, indent=1, ensure_ascii=False) + "\n"


@functools.cache
def _by_hash() -> dict[str, dict[str, Any]]:
    text = (resources.files("aftui.emulator") / "data" / FILE).read_text(encoding="utf-8")
    return {entry["sha256"]: entry["read"] for entry in json.loads(text).values()}
