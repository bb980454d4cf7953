"""The live monitor's core, without Textual: feeds, dedupe, rates, history.

`Monitor` (hub.py) runs the feeds on a thread of its own and hands the UI
batches of `Record`s, through a `Tap` (tap.py) for each reader sharing it;
the TUI's monitor screen (tui/screens/monitor.py) only renders them.
"""

from .hub import Monitor
from .matcher import Matcher
from .records import Record, Target
from .tap import Batch, Tap

__all__ = ["Batch", "Matcher", "Monitor", "Record", "Tap", "Target"]
