"""Background threads step aside for the UI's at the operating system's scheduler too (Linux).

In a burst the monitor's and the journal writer's threads keep a core busy, and on a small machine
the emulator or the service's other clients want the other. A key press then waits for a core as
well as for the GIL: the input thread to read it, the UI's thread to answer it. Lowered, the busy
threads still get every core nobody else wants; the UI's get one first when a key arrives.
"""

from __future__ import annotations

import os
import sys
import threading

BACKGROUND_NICE = 10  # added to the thread's niceness (at most 19): a tenth of a normal thread's share under contention


def lower_this_thread(step: int = BACKGROUND_NICE) -> None:
    """Make the calling thread yield to the process's others when cores are scarce (Linux only; else nothing).

    On Linux niceness is per thread (its id as PRIO_PROCESS's "pid"); elsewhere that call would
    name the whole process or another one, so it is not made.
    """
    if sys.platform != "linux":
        return
    tid = threading.get_native_id()
    try:
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + step))
    except OSError:  # a sandbox without the call: the thread keeps its priority
        pass
