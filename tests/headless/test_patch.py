"""Editing a payload before a replay (aftui.replay.patch): RFC 7386 merge patches and `path = value`."""

from __future__ import annotations

import pytest

from aftui.replay.patch import PatchError, apply_edits, merge_patch, parse_assignment, parse_patch, set_path

# The examples of RFC 7386, section 3.
RFC_EXAMPLES = [
    ({"a": "b"}, {"a": "c"}, {"a": "c"}),
    ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
    ({"a": "b"}, {"a": None}, {}),
    ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
    ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
    ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
    ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    ({"a": "b"}, ["c"], ["c"]),
    ({"a": "foo"}, None, None),
    ({"a": "foo"}, "bar", "bar"),
    ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
    ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
    ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
]


@pytest.mark.parametrize(("target", "patch", "result"), RFC_EXAMPLES)
def test_merge_patch_follows_rfc_7386(target: object, patch: object, result: object) -> None:
    assert merge_patch(target, patch) == result


def test_merge_patch_changes_neither_input() -> None:
    target, patch = {"a": {"b": 1}}, {"a": {"c": 2}}
    merged = merge_patch(target, patch)
    merged["a"]["b"] = 99
    assert target == {"a": {"b": 1}} and patch == {"a": {"c": 2}}


@pytest.mark.parametrize(
    ("text", "path", "value"),
    [
        ("customer_email = ops@example.com", ["customer_email"], "ops@example.com"),
        ("quantity = 2", ["quantity"], 2),
        ('quantity = "2"', ["quantity"], "2"),
        ('customer_email = ""', ["customer_email"], ""),
        ("customer.vip=true", ["customer", "vip"], True),
        ("items[0].sku = SKU-1", ["items", 0, "sku"], "SKU-1"),
        ('["odd.key"] = null', ["odd.key"], None),
        ("$.note = a = b", ["note"], "a = b"),
        ('meta = {"k": [1]}', ["meta"], {"k": [1]}),
        ("headers.content-type = text/plain", ["headers", "content-type"], "text/plain"),
    ],
)
def test_assignments(text: str, path: list, value: object) -> None:
    assert parse_assignment(text) == (path, value)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("no equals sign", "not an assignment"),
        (" = 1", "' = 1' names no field before =: write path = value"),
        ("a..b = 1", "cannot read the path"),
        ('a = {"broken": ', "looks like JSON but is not valid"),
        ("customer_email =", 'nothing after = for customer_email: write a value, or "" for an empty string'),
    ],
)
def test_bad_assignments_say_why(text: str, words: str) -> None:
    with pytest.raises(PatchError, match=words):
        parse_assignment(text)


def test_set_path_creates_fields_and_respects_lists() -> None:
    doc = {"items": [{"sku": "A"}], "n": 1}
    assert set_path(doc, ["customer", "email"], "x") == {**doc, "customer": {"email": "x"}}
    assert set_path(doc, ["items", 0, "sku"], "B")["items"] == [{"sku": "B"}]
    assert set_path(doc, ["items", 1], {"sku": "C"})["items"] == [{"sku": "A"}, {"sku": "C"}]
    assert set_path(doc, ["items", -1, "sku"], "Z")["items"] == [{"sku": "Z"}]
    assert doc == {"items": [{"sku": "A"}], "n": 1}
    with pytest.raises(PatchError, match="past the end"):
        set_path(doc, ["items", 5], 1)
    with pytest.raises(PatchError, match="the value there is a number"):
        set_path(doc, ["n", "deeper"], 1)
    with pytest.raises(PatchError, match="indexes a list"):
        set_path(doc, [0], 1)


def test_apply_edits_patch_then_assignments() -> None:
    payload = {"order_id": "ord_1", "customer": {"name": "Ada"}, "debug": True}
    edited = apply_edits(payload, {"debug": None, "customer": {"email": "ada@x.io"}}, ["customer.name = Ada L."])
    assert edited == {"order_id": "ord_1", "customer": {"name": "Ada L.", "email": "ada@x.io"}}
    assert apply_edits(payload) == payload
    with pytest.raises(PatchError, match=r"'order_id\.x = 1'"):
        apply_edits(payload, None, ["order_id.x = 1"])


def test_parse_patch_says_where_the_json_breaks() -> None:
    assert parse_patch('{"a": 1}') == {"a": 1}
    with pytest.raises(PatchError, match=r"line 1, column 7"):
        parse_patch('{"a": }')
