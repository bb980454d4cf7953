"""The client of the service: no Textual here, usable without the TUI."""

from .client import MUTATING, Client, RetryPolicy, Timeouts, failing_status
from .errors import (
    ApiError,
    AuthError,
    NetworkError,
    NotFoundError,
    RateLimitError,
    ReadOnlyError,
    ServerError,
    ValidationError,
    is_transient,
)
from .paging import Pager, iterate
from .stream import SourceStream, StreamState

__all__ = [
    "MUTATING",
    "ApiError",
    "AuthError",
    "Client",
    "NetworkError",
    "NotFoundError",
    "Pager",
    "RateLimitError",
    "ReadOnlyError",
    "RetryPolicy",
    "ServerError",
    "SourceStream",
    "StreamState",
    "Timeouts",
    "ValidationError",
    "failing_status",
    "is_transient",
    "iterate",
]
