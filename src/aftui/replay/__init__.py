"""Replaying workflow errors: plan (how, or why not), send, watch the outcome, journal it.

No Textual here: the TUI's replay screens and the monitor drive these.
"""

from __future__ import annotations

from .plan import READ_ONLY_REASON, Planner, ReplayPlan, full_errors, plan_replay
from .request import (
    REPLAY_HEADER,
    ReplayRequest,
    is_safe_header,
    payload_of,
    request_for,
)
from .run import (
    BulkSummary,
    ReplayResult,
    Sent,
    original_order,
    replay_bulk,
    replay_one,
    send,
)
from .watch import OUTCOME_WORDS, Outcome, OutcomeWatcher

__all__ = [
    "OUTCOME_WORDS",
    "READ_ONLY_REASON",
    "REPLAY_HEADER",
    "BulkSummary",
    "Outcome",
    "OutcomeWatcher",
    "Planner",
    "ReplayPlan",
    "ReplayRequest",
    "ReplayResult",
    "Sent",
    "full_errors",
    "is_safe_header",
    "original_order",
    "payload_of",
    "plan_replay",
    "replay_bulk",
    "replay_one",
    "request_for",
    "send",
]
