"""The workflows aftui knows: their names read back as text, whatever the file holds."""

from __future__ import annotations

import json
from pathlib import Path

from aftui.known import KnownWorkflows


def test_names_in_a_workspace_are_text_or_empty(tmp_path: Path) -> None:
    path = tmp_path / "known.json"
    known = KnownWorkflows(path)
    known.add("o_1", "p_named", name="Validate orders", found="subscription")
    known.add("o_1", "p_unnamed", found="$errors")
    known.add("o_2", "p_other", name="Elsewhere", found="created")
    assert known.names_in("o_1") == {"p_named": "Validate orders", "p_unnamed": ""}
    assert known.names_in("") == {}
    # A hand-edited file: a name that is not text, an entry that is not a map.
    path.write_text(json.dumps({"o_1": {"p_a": {"name": 7}, "p_b": "x", "p_c": {"name": "C"}}}))
    assert KnownWorkflows(path).names_in("o_1") == {"p_a": "", "p_b": "", "p_c": "C"}
