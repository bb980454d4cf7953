"""Workflows found while the data dir cannot be used are not remembered, and nothing is written anywhere."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from aftui.headless import workflows


def test_an_unusable_data_dir_saves_nothing_not_even_over_dev_null(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def no_data_dir() -> None:
        raise PermissionError(13, "Permission denied", "/nowhere")

    # Run as root, a save "to /dev/null" replaced the device with a regular file (files.py's atomic replace);
    # here the null device is a path of the test's own, so a save would show without harming the machine.
    null = tmp_path / "null"
    monkeypatch.setattr(os, "devnull", str(null))
    monkeypatch.setattr(workflows, "data_dir", no_data_dir)
    known = workflows.user_known()
    known.add("o_1", "p_1", name="Sync", found="test")
    known.add("o_1", "p_2", name="Sync 2", found="test")
    assert not null.exists() and list(tmp_path.iterdir()) == []
    assert capsys.readouterr().err.count("not remembered") == 1
