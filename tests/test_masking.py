"""What aftui shows of the credentials in a payload, and of a journal URL's password."""

from __future__ import annotations

import copy

from aftui.masking import MASK, carries_credentials, masked, url_masked, url_secrets_masked


def test_credential_headers_are_masked_wherever_a_payload_holds_headers() -> None:
    error = {
        "event": {
            "original_event": {
                "method": "POST",
                "headers": {"Cookie": "session=abc", "X-Api-Key": "k", "content-type": "application/json"},
                "body": {"headers": "not an object: left alone", "token": "a body field, not a header"},
            }
        }
    }
    before = copy.deepcopy(error)
    shown = masked(error)
    headers = shown["event"]["original_event"]["headers"]
    assert headers == {"Cookie": MASK, "X-Api-Key": MASK, "content-type": "application/json"}
    assert shown["event"]["original_event"]["body"] == before["event"]["original_event"]["body"]
    assert error == before  # what a replay sends and a copy copies is never changed


def test_a_payload_with_nothing_to_mask_is_the_same_object() -> None:
    event = {"headers": {"accept": "*/*"}, "items": [{"a": 1}], "n": 1}
    assert masked(event) is event
    assert masked("a string") == "a string"


def test_headers_in_a_list_and_deeper_than_it_looks_are_masked_up_to_the_depth() -> None:
    batch = [{"headers": {"authorization": "Bearer x"}}]
    assert masked(batch) == [{"headers": {"authorization": MASK}}]
    deep: dict = {"headers": {"authorization": "Bearer x"}}
    for _ in range(10):
        deep = {"next": deep}
    assert masked(deep) is deep  # past the depth looked through: left as it is


def test_which_header_names_carry_credentials() -> None:
    assert all(map(carries_credentials, ["Authorization", "set-cookie", "X-Hub-Signature-256", "x-csrf-token"]))
    assert not any(map(carries_credentials, ["content-type", "user-agent", "accept"]))


def test_a_journal_urls_password_is_masked() -> None:
    assert url_masked("postgresql://team:s3cret@db:5432/aftui") == f"postgresql://team:{MASK}@db:5432/aftui"
    assert url_masked("postgresql://team:p@ss@db/aftui") == f"postgresql://team:{MASK}@db/aftui"
    assert url_masked("postgresql://team@db/aftui") == "postgresql://team@db/aftui"
    assert url_masked("postgresql://u:x@db:notaport/aftui") == f"postgresql://u:{MASK}@db:notaport/aftui"


def test_a_webhook_urls_tokens_are_masked_and_its_words_kept() -> None:
    slack = "https://hooks.slack.com/services/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"
    assert url_secrets_masked(slack) == "https://hooks.slack.com/services/T04B1N2KX/B06QJ7R2M1L/9fQk…sD"
    discord = "https://discord.com/api/webhooks/1234567890/abcDEF_ghiJKL-mnoPQRstuVWXyz0123456789abcdefGHIJ"
    assert url_secrets_masked(discord) == "https://discord.com/api/webhooks/1234567890/abcD…IJ"
    assert url_secrets_masked("https://x.example/aB3-xY9_kLmN0pQr") == "https://x.example/aB3-…Qr"  # base64url
    assert url_secrets_masked("https://webhook.site/550e8400-e29b-41d4-a716-446655440000") == (
        "https://webhook.site/550e…00"
    )
    for words in (
        "https://ops.acme.example:8443/pd/events",
        "https://x.example/hooks_2024_payments/order-notifications",
    ):
        assert url_secrets_masked(words) == words


def test_a_webhook_urls_secret_query_values_and_password_are_masked() -> None:
    url = "https://u:pw@x.example/a?access_token=abc&apikey=b&sig=1&page=2&q=9fQk2LxVb7TzR1mWc3Y"
    assert url_secrets_masked(url) == (
        f"https://u:{MASK}@x.example/a?access_token={MASK}&apikey={MASK}&sig={MASK}&page=2&q=9fQk…3Y"
    )
    assert url_secrets_masked("https://x.example/a?flag&token=") == "https://x.example/a?flag&token="
