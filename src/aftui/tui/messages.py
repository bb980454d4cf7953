"""Messages any screen or widget may post for the App to handle."""

from __future__ import annotations

from textual.message import Message

from ..api import ApiError


class AuthFailed(Message):
    """A request was refused for its credential: the app offers the profile screen."""

    def __init__(self, error: ApiError) -> None:
        super().__init__()
        self.error = error


class ViewValue(Message):
    """Show a value in full (the value viewer, screens/value.py): posted by widgets that cannot open screens."""

    def __init__(self, title: str, value: object) -> None:
        super().__init__()
        self.title = title
        self.value = value
