"""Health at a glance, without Textual: what is failing, since when, and telling the user of it.

- `board`: per workflow and source, errors in the last hour and day, the last one, events per minute
- `alerts`: a new error group (the replay package's fingerprint) or a spike in a known one
- `watch`: the feeds (an `aftui.monitor.Monitor` of its own) and the journal that fill both

The TUI's Health pane (tui/screens/health.py) and the App's header count only show what these say.
"""

from .alerts import Alert, AlertTracker, Fired, Unseen
from .board import HealthBoard, HealthRow, Subject, age, age_words, sparkline
from .watch import HealthWatch, History, load_history, read_replays

__all__ = [
    "Alert",
    "AlertTracker",
    "Fired",
    "HealthBoard",
    "HealthRow",
    "HealthWatch",
    "History",
    "Subject",
    "Unseen",
    "age",
    "age_words",
    "load_history",
    "read_replays",
    "sparkline",
]
