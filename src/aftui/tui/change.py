"""How every change to the service is made from the TUI: guarded, reported, and followed by a refresh.

Three pieces, used by every form and action:

- `Guarded`, a mixin for screens and widgets: the actions named in
  `CHANGES` are shown dimmed in the footer of a read-only profile, and
  pressing their key says why instead of doing nothing.
- `perform`: runs one call to the service and turns the outcome into what
  the user sees: a notification of what changed, or the server's message.
- `refresh_lists`: reloads every list on screen that shows what changed, so a
  deleted webhook leaves the Webhooks pane at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable
from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual import events
from textual.dom import DOMNode
from textual.widget import Widget

from ..api import ApiError, AuthError, NetworkError, NotFoundError, ReadOnlyError
from ..text import visible
from .host import host
from .messages import AuthFailed

T = TypeVar("T")

READ_ONLY_REASON = "This profile is read-only: changes are disabled (start aftui without --read-only, or set read_only = false in the profile)."


def read_only(node: DOMNode) -> bool:
    session = host(node).session
    return bool(session is not None and session.read_only)


# Guarded is mixed into widgets and screens: mypy checks it as one, and at run time it stays a plain mixin
# (a Widget base here would come first in Textual's CSS type chain and hide the real widget's own).
if TYPE_CHECKING:
    _Mixin = Widget
else:
    _Mixin = object


class Guarded(_Mixin):
    """Mixin: the actions in `CHANGES` change the service, so a read-only profile disables them.

    Textual dims a binding whose `check_action` answers None, and then lets
    its key fall through unhandled; `on_key` catches that key and explains.
    """

    CHANGES: ClassVar[frozenset[str]] = frozenset()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.CHANGES and read_only(self):
            return None
        return super().check_action(action, parameters)

    def on_key(self, event: events.Key) -> None:
        if not self.CHANGES or not read_only(self):
            return
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if binding.action in self.CHANGES:
                event.stop()
                self.notify(
                    f"{binding.description}: {READ_ONLY_REASON}", title="Read-only", severity="warning", markup=False
                )
                return


def describe_error(error: ApiError) -> str:
    """The server's own words, made safe to show; when nothing answered, where aftui could not reach."""
    if isinstance(error, NetworkError):
        return f"Could not reach {visible(error.url or 'the service', 200)}: {visible(error.message, 300)}"
    return visible(error.message, 500) or f"the service answered {error.status}"


def said_by(error: ApiError) -> str:
    """A notification's title: who said it. Never "the service said" when nothing answered."""
    return "No answer" if isinstance(error, NetworkError) else "The service said"


async def perform(
    owner: Widget, call: Awaitable[T], *, done: str, refresh: Iterable[str] = (), gone: str | None = None
) -> tuple[bool, T | None]:
    """Await `call`; on success notify `done` and refresh the lists of `refresh` (nouns).

    Returns (True, result), or (False, None) after telling the user what went
    wrong. Callers with a form catch `ApiError` themselves instead, to put the
    message beside the field it names. `gone`, for a delete: what to say when the
    service has no such thing (someone deleted it meanwhile); that is done too, and
    the lists are read again, where the row had stayed under a red "no subscription".
    """
    try:
        result = await call
    except NotFoundError as error:
        if gone is None:
            owner.notify(describe_error(error), title=said_by(error), severity="error", markup=False)
            return False, None
        owner.notify(visible(gone, 300), severity="warning", markup=False)
        refresh_lists(owner, refresh)
        return True, None
    except ReadOnlyError:
        owner.notify(READ_ONLY_REASON, title="Read-only", severity="warning", markup=False)
        return False, None
    except ApiError as error:
        owner.notify(describe_error(error), title=said_by(error), severity="error", markup=False)
        if isinstance(error, AuthError):
            owner.post_message(AuthFailed(error))
        return False, None
    owner.notify(visible(done, 300), markup=False)
    refresh_lists(owner, refresh)
    return True, result


def refresh_lists(node: DOMNode, nouns: Iterable[str]) -> int:
    """Reload every `PagedTable` on any open screen that lists one of `nouns`; returns how many."""
    wanted = set(nouns)
    if not wanted:
        return 0
    # Here, not at the top: the first screen, Health, shows no PagedTable, and the start would import it
    # (about 10 ms) for nothing.
    from .widgets.paged_table import PagedTable

    reloaded = 0
    for screen in node.app.screen_stack:
        for table in screen.query(PagedTable):
            if table.noun in wanted:
                table.reload()
                reloaded += 1
    return reloaded
