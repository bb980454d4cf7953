"""What aftui shows of the credentials in a payload, and of a journal URL's password."""

from __future__ import annotations

import copy

from aftui.masking import MASK, carries_credentials, masked, url_masked


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
