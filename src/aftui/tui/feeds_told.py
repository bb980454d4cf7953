"""What a tap's feeds tell the header of the connection (the monitor's and Health's).

The feeds run on a twin of the session's client, whose failures the header never hears of: with only the
twin asking (Health on the first screen, the monitor), a service gone down read "● ok" until a request of
the session's own client failed too.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..api import Client
from ..api.stream import StreamState
from .host import Host

# The header's words for the feeds: none live and one reconnecting, or some live and others reconnecting.
# A service failing its polls (503s) while the streams opened before stayed up read "● connected" for as
# long as it lasted, where Health said its figures were behind.
ALL_BEHIND, SOME_BEHIND = "retrying", "partial"


class FeedsTold:
    """Reconnecting while no feed is live and one is reconnecting (even if a request of the session's client
    got through meanwhile); "some feeds failing" while some are live and others reconnecting; "failing 503"
    when the service answered one with that; ok once all that were behind are live again."""

    def __init__(self) -> None:
        self.retrying = False  # the header was last told "retrying" or "partial" by these feeds

    def tell(self, app: Host, states: Iterable[StreamState]) -> None:
        seen = list(states)
        live = any(state.phase == "live" for state in seen)
        behind = [state for state in seen if state.phase == "reconnecting"]
        if behind:
            self.retrying = True
            # The service answering the feeds with a 5xx is said as the session's own client says it: the
            # header read "some feeds failing" for 8 s of a 503 on every read, until a request of its own failed.
            answered = [state.status for state in behind if state.status >= 500]
            said = f"failing {answered[0]}" if answered else SOME_BEHIND if live else ALL_BEHIND
            # "unreachable since" or a key refused says more than these.
            if app.connection_phase in ("ok", "connecting", ALL_BEHIND, SOME_BEHIND) and app.connection_phase != said:
                app.connection(said)
        elif live and self.retrying:
            self.retrying = False
            app.connection("ok")

    def stop(self, app: Host, client: Client) -> None:
        """These feeds stop: the header keeps "reconnecting" until the session's client next hears."""
        if not self.retrying:
            return
        self.retrying = False
        if client.status == "ok":
            client.status = "unknown"  # so that its next answer is told, though its own state did not change
        else:
            app.connection(client.status)
