"""Building a client: URLs, credentials, what its repr shows (no emulator needed)."""

from __future__ import annotations

import ssl

import pytest

from aftui.api import Client
from aftui.api.auth import ApiKeyAuth, OAuthAuth
from aftui.api.client import tls_for


@pytest.mark.parametrize(
    ("base_url", "base", "root"),
    [
        ("http://127.0.0.1:8787/v1", "http://127.0.0.1:8787/v1", "http://127.0.0.1:8787"),
        ("https://api.example.com/v1/", "https://api.example.com/v1", "https://api.example.com"),
        (
            "https://gw.example.com/automation/v1",
            "https://gw.example.com/automation/v1",
            "https://gw.example.com/automation",
        ),
        ("https://vault.example.com/v1", "https://vault.example.com/v1", "https://vault.example.com"),
        ("https://vault.example.com", "https://vault.example.com", "https://vault.example.com"),  # no version segment
        ("https://example.com/svc/v2", "https://example.com/svc/v2", "https://example.com/svc"),
        ("https://example.com/views/v1", "https://example.com/views/v1", "https://example.com/views"),
    ],
)
def test_base_and_root_urls(base_url: str, base: str, root: str) -> None:
    client = Client(base_url, api_key="k")
    assert client.base_url == base
    assert client.root_url == root


def test_credentials_are_required() -> None:
    with pytest.raises(ValueError):
        Client("http://x.example/v1")
    with pytest.raises(ValueError):
        Client("http://x.example/v1", client_id="id")


def test_the_kind_of_credentials() -> None:
    key = Client("http://x.example/v1", api_key="secret-key")
    oauth = Client("http://x.example/v1", client_id="id", client_secret="secret-value")
    assert isinstance(key.auth, ApiKeyAuth) and key.uses_user_key
    assert isinstance(oauth.auth, OAuthAuth) and not oauth.uses_user_key
    assert "secret" not in repr(key.auth) and "secret-value" not in repr(oauth.auth)


def test_plain_http_loads_no_ca_bundle_and_trusts_no_one() -> None:
    """No certificate work for the emulator's http:// (it costs every start); https keeps the CA bundle."""
    context = tls_for("http://127.0.0.1:8787/v1")
    assert isinstance(context, ssl.SSLContext)
    assert context.cert_store_stats()["x509_ca"] == 0  # nothing loaded, nothing trusted: https would fail closed
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert tls_for("https://api.example.com/v1") is True
