"""A key's frame, painted the moment its change reaches the screen.

Textual paints a screen from an update timer (120 a second here), which the screen resumes once its
queue is empty and something on it is dirty. After a frame that timer sleeps one to two of its
intervals before it can tick again (when it has fallen behind it skips ahead past the current tick).
During a burst the monitor paints often, so a key's change usually came during that sleep: traced in
tmux, the key's action was done in 1-2 ms and its frame waited another 8-17 ms for the tick, most of
what a key took during a burst beyond its idle time.

So the screen's resume is where a key's frame is painted: when the screen has the change of a key's
action and would resume the timer, it makes the timer's update at once instead (`paint_keys_at_once`),
once per key or click, and then lets the feeds go on (they stepped back as the key arrived). The App
asks the same for the frame that first draws Health's rows, the end of a start. Any other frame keeps
the timer's pace, which caps what is sent over SSH.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen


def paint_keys_at_once(screen: Screen[Any], keyed: Callable[[], bool], painted: Callable[[], None]) -> None:
    """Have `screen` paint at once, where it would resume its update timer, when `keyed()` says a key waits.

    `keyed` is asked at each resume; True means the frame answers a key, and `painted` is told once it is.
    The update is the timer's own callback: it does nothing for a screen that is not current or whose
    app holds its updates (`batch_update`), and leaves the timer paused until the next refresh resumes it.
    """
    timer = screen._update_timer
    resume = timer.resume

    def resume_or_paint() -> None:
        if keyed():
            screen._on_timer_update()
            painted()
        else:
            resume()

    timer.resume = resume_or_paint  # type: ignore[method-assign]
