"""A webhook's URL as the service checks it: the TUI's form and `aftui create webhook` say the same."""

from __future__ import annotations

from urllib.parse import urlsplit

__all__ = ["webhook_url_problem"]


def webhook_url_problem(url: str) -> str | None:
    """The service's own rule: http or https, with a hostname; a port and a path are allowed."""
    if not url:
        return "A URL is required."
    if any(c.isspace() or not c.isprintable() for c in url):
        return "The URL must not contain spaces or control characters."
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        return "This is not a valid URL."
    if parts.scheme.lower() not in ("http", "https"):
        return "The URL must start with http:// or https://."
    if not parts.hostname:
        return "The URL must include a hostname."
    return None
