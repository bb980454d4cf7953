"""Copying to the clipboard through the terminal, and saying honestly what that did.

Textual writes the text as an OSC 52 sequence: the terminal decides whether it reaches the
clipboard, and says nothing back. "Copied" was said where tmux (whose default passes no
OSC 52 on) or a terminal that refuses it had dropped the text: the notification says it was
sent, and under tmux what tmux needs.
"""

from __future__ import annotations

import os

from textual.widget import Widget

from ..text import visible


def copy_text(owner: Widget, text: str, what: str) -> None:
    """Send `text` to the clipboard and say so, `what` naming it ("the event's JSON")."""
    owner.app.copy_to_clipboard(text)
    size = f" ({len(text):,} characters)" if len(text) > 40 else ""
    note = " · under tmux it needs: set -g set-clipboard on" if os.environ.get("TMUX") else ""
    owner.notify(f"Sent {visible(what, 80)}{size} to the clipboard through the terminal (OSC 52){note}", markup=False)
