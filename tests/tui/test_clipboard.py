"""Copying says what it did: sent through the terminal, which may drop it (tmux does unless told)."""

from __future__ import annotations

import pytest
from textual.app import App

from aftui.tui.clipboard import copy_text


@pytest.mark.parametrize("tmux", [None, "/tmp/tmux-0/default,1,0"])
async def test_a_copy_says_it_was_sent_and_under_tmux_what_tmux_needs(
    monkeypatch: pytest.MonkeyPatch, tmux: str | None
) -> None:
    if tmux is None:
        monkeypatch.delenv("TMUX", raising=False)
    else:
        monkeypatch.setenv("TMUX", tmux)
    app: App[None] = App()
    async with app.run_test(notifications=True) as pilot:
        copy_text(app.screen, '{"a": 1}' * 10, "the event's JSON")
        await pilot.pause()
        assert app.clipboard == '{"a": 1}' * 10
        [said] = [n.message for n in app._notifications]
        assert said.startswith("Sent the event's JSON (80 characters) to the clipboard through the terminal (OSC 52)")
        assert ("set-clipboard on" in said) == (tmux is not None)
        assert not said.startswith("Copied")  # the terminal says nothing back: it may have dropped it
