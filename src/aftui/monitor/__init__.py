"""The live monitor's core, without Textual: feeds, dedupe, rates, history.

`Monitor` (hub.py) runs the feeds on a thread of its own and hands the UI
batches of `Record`s; the TUI's monitor screen (tui/screens/monitor.py) only
renders them.
"""

from .hub import Batch, Monitor
from .matcher import Matcher
from .records import Record, Target

__all__ = ["Batch", "Matcher", "Monitor", "Record", "Target"]
