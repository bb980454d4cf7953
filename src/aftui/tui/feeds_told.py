"""What a tap's feeds tell the header of the connection (the monitor's and Health's).

The feeds run on a twin of the session's client, whose failures the header never hears of: with only the
twin asking (Health on the first screen, the monitor), a service gone down read "● ok" until a request of
the session's own client failed too.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..api import Client
from .host import Host


class FeedsTold:
    """Reconnecting while no feed is live and one is reconnecting (even if a request of the session's client
    got through meanwhile); ok once one is live again."""

    def __init__(self) -> None:
        self.retrying = False  # the header was last told "retrying" by these feeds

    def tell(self, app: Host, phases: Iterable[str]) -> None:
        seen = set(phases)
        if "live" not in seen and "reconnecting" in seen:
            self.retrying = True
            if app.connection_phase in ("ok", "connecting"):  # "unreachable since" or a key refused says more
                app.connection("retrying")
        elif "live" in seen and self.retrying:
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
