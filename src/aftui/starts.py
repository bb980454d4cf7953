"""What started a workflow's failed run, as far as sending it again goes: Health and the replay plan agree.

A run an HTTP request started is sent again to the trigger's endpoint. A timer's, an e-mail's or another
workflow's event's cannot be: the API runs no timer on demand, aftui sends no e-mail, and only the other
workflow can emit its event again. Light on purpose: Health imports it for its first screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .api.models import EventSummary


def unsendable_start(emitter_id: str | None, source_type: str | None) -> str | None:
    """What started the run when aftui cannot send it again: "a timer", "an e-mail", "another workflow's
    event"; None for an HTTP request, or a start not known (the plan says more once it reads the workflow)."""
    emitter, kind = emitter_id or "", (source_type or "").upper()
    if emitter.startswith("ti_") or kind == "TIMER":
        return "a timer"
    if emitter.startswith("ei_") or kind == "EMAIL":
        return "an e-mail"
    if emitter.startswith("p_"):
        return "another workflow's event"
    return None


def unsendable_start_of(event: EventSummary) -> str | None:
    """`unsendable_start` of a `$errors` event, from its error's context; None for an event that is no error."""
    error = event.error()
    ctx = error.original_context if error is not None else None
    return unsendable_start(ctx.emitter_id, ctx.source_type) if ctx is not None else None
