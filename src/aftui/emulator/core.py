"""The emulator's core: the store, the runtime that acts on it, and what requests need beside them.

Everything between the records and the server works on a `Core`:
`operations` change it, `demo` and `hostile` fill it, and the routes reach it
through `http.Ctx`. The server's `Emulator` is a `Core` with the demo planted
in it. A `Core` knows nothing of the demo or the routes, so the modules that
take one never import the server, and the server can import them all.
"""

from __future__ import annotations

from .clock import DEMO_EPOCH_MS, Clock
from .faults import Faults
from .ids import IdFactory
from .ratelimit import RateLimiter
from .runtime import Runtime, Settings
from .sockets import base_url_of
from .store import Store
from .variants import Variants

# The spec's Connect limits, per minute: account requests per project and environment, tokens per end user.
ACCOUNT_READS_PER_MINUTE = 100
TOKEN_CREATIONS_PER_MINUTE = 100


class Core:
    """One emulator's parts, with an empty store: the server's `Emulator` fills it with the demo."""

    def __init__(self, *, seed: int, activity: bool, root_url: str) -> None:
        # With activity off the clock stands still, so the same seed gives the same answers run after run.
        clock = Clock(start_ms=None if activity else DEMO_EPOCH_MS, running=activity)
        self.store = Store(clock=clock, ids=IdFactory(seed))
        self.settings = Settings(seed=seed, activity=activity, root_url=root_url)
        self.runtime = Runtime(self.store, self.settings)
        self.faults = Faults()
        self.variants = Variants()  # answers in the other shapes the real service sends (variants.py)
        self.secret = f"aftui-emulator-{seed}".encode()  # signs OAuth tokens: the same seed, the same tokens
        self.account_reads = RateLimiter(clock, ACCOUNT_READS_PER_MINUTE)
        self.token_creations = RateLimiter(clock, TOKEN_CREATIONS_PER_MINUTE)

    @property
    def root_url(self) -> str:
        """Where the emulator is reached: HTTP endpoints and the SSE stream live under it."""
        return self.settings.root_url

    @property
    def base_url(self) -> str:
        """The versioned API's base URL."""
        return base_url_of(self.settings.root_url)
