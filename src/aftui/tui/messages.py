"""Messages any screen or widget may post for the App to handle."""

from __future__ import annotations

from textual.message import Message

from ..api import ApiError


class AuthFailed(Message):
    """A request was refused for its credential: the app offers the profile screen."""

    def __init__(self, error: ApiError) -> None:
        super().__init__()
        self.error = error
