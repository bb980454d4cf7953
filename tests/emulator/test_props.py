"""Checking configured_props against a component's props, and timer helpers."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aftui.emulator.props import (
    MAX_STATIC_TEXT,
    PropError,
    describe_timer,
    is_expression,
    next_fire,
    normalize_timer,
    validate_configured_props,
)

ACCOUNTS = {"apn_gh1": "github", "apn_sl1": "slack"}

PROPS = [
    {"name": "github", "type": "app", "app": "github"},
    {"name": "repo", "type": "string", "label": "Repository"},
    {
        "name": "state",
        "type": "string",
        "options": ["open", "closed", {"label": "All", "value": "all"}],
        "default": "open",
    },
    {"name": "limit", "type": "integer", "min": 1, "max": 10, "optional": True},
    {"name": "draft", "type": "boolean", "optional": True},
    {"name": "filters", "type": "object", "optional": True},
    {"name": "extra", "type": "any", "optional": True},
    {"name": "labels", "type": "string[]", "optional": True},
    {"name": "ids", "type": "integer[]", "optional": True, "min": 0},
    {"name": "legacy", "type": "string", "disabled": True},
    {"name": "note", "type": "alert", "alertType": "info", "content": "Read me"},
    {"name": "http", "type": "$.interface.http", "customResponse": True},
    {"name": "timer", "type": "$.interface.timer", "default": {"intervalSeconds": 900}},
    {"name": "db", "type": "$.service.db"},
]


def validate(configured: object, props: list[dict] = PROPS) -> dict:
    return validate_configured_props(props, configured, account_app=ACCOUNTS.get)  # type: ignore[arg-type]


def base(**overrides: object) -> dict:
    return {"github": {"authProvisionId": "apn_gh1"}, "repo": "octo/hello", **overrides}


def error_of(configured: object, props: list[dict] = PROPS) -> str:
    with pytest.raises(PropError) as caught:
        validate(configured, props)
    return str(caught.value)


# -- validate_configured_props --------------------------------------------


def test_minimal_configuration_is_normalized() -> None:
    assert validate(base()) == {
        "github": {"authProvisionId": "apn_gh1"},
        "repo": "octo/hello",
        "state": "open",  # default filled in
        "http": {"endpoint_url": None, "customResponse": True},
        "timer": {"cron": None, "interval_seconds": 900},  # default normalized
    }


def test_full_configuration_is_kept() -> None:
    configured = base(
        state="all",
        limit=10,
        draft=False,
        filters={"label": "bug", "nested": [1, {"a": None}]},
        extra=[1, "two", 3.5],
        labels=["bug", "help wanted"],
        ids=[0, 7],
        timer={"cron": "*/5 * * * *", "timezone": "Europe/Paris"},
        db={"anything": True},
    )
    result = validate(configured)
    assert result["timer"] == {"cron": "*/5 * * * *", "interval_seconds": None, "timezone": "Europe/Paris"}
    assert result["db"] == {"anything": True}
    for name in ("state", "limit", "draft", "filters", "extra", "labels", "ids"):
        assert result[name] == configured[name]


def test_null_counts_as_not_given() -> None:
    assert validate(base(limit=None, state=None))["state"] == "open"
    assert "limit" not in validate(base(limit=None))


def test_error_names_the_prop() -> None:
    with pytest.raises(PropError) as caught:
        validate(base(limit=0))
    assert caught.value.prop == "limit"
    assert caught.value.message == "must be at least 1"
    assert str(caught.value) == "configured_props.limit: must be at least 1"
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("configured", "message"),
    [
        (["repo"], "configured_props: must be an object of values by prop name"),
        (base(unknown=1), "configured_props.unknown: is not a prop of this component"),
        ({"github": {"authProvisionId": "apn_gh1"}}, "configured_props.repo: is required"),
        ({"repo": "a/b"}, "configured_props.github: is required"),
        (base(repo=42), "configured_props.repo: must be a string"),
        (base(limit=True), "configured_props.limit: must be an integer"),
        (base(limit="5"), "configured_props.limit: must be an integer"),
        (base(limit=2.0), "configured_props.limit: must be an integer"),
        (base(limit=11), "configured_props.limit: must be at most 10"),
        (base(draft="yes"), "configured_props.draft: must be true or false"),
        (base(filters=[]), "configured_props.filters: must be an object"),
        (base(extra=float("nan")), "configured_props.extra: must be a JSON value"),
        (base(labels="bug"), "configured_props.labels: must be an array of strings"),
        (base(labels=["bug", 3]), "configured_props.labels: item 2 must be a string"),
        (base(ids=[1, -1]), "configured_props.ids: item 2 must be at least 0"),
        (base(state="merged"), "configured_props.state: must be one of: open, closed, all"),
        (base(note="hi"), "configured_props.note: is an alert and takes no value"),
    ],
)
def test_bad_values(configured: object, message: str) -> None:
    assert error_of(configured) == message


def test_prop_of_unknown_type_is_refused() -> None:
    assert error_of({}, [{"name": "query", "type": "sql"}]) == (
        "configured_props.query: has a type the emulator does not know: 'sql'"
    )


def test_pass_through_props_take_any_value_or_none() -> None:
    props = [{"name": "db", "type": "$.service.db"}, {"name": "store", "type": "data_store"}]
    assert validate({}, props) == {}
    assert validate({"store": {"id": "ds_1"}}, props) == {"store": {"id": "ds_1"}}


def test_http_interface_ignores_a_given_value() -> None:
    props = [{"name": "http", "type": "$.interface.http"}]
    assert validate({"http": {"endpoint_url": "https://x"}}, props) == {
        "http": {"endpoint_url": None, "customResponse": False}
    }


def test_disabled_prop_is_not_required_but_may_be_given() -> None:
    assert "legacy" not in validate(base())
    assert validate(base(legacy="old"))["legacy"] == "old"


def test_expression_skips_options_check() -> None:
    assert validate(base(state="{{ steps.trigger.event.state }}"))["state"] == "{{ steps.trigger.event.state }}"


# -- app accounts -----------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("apn_gh1", 'must be {"authProvisionId": "apn_..."}'),
        ({"authProvisionId": "gh1"}, 'must be {"authProvisionId": "apn_..."}'),
        ({"authProvisionId": "apn_gh1", "extra": 1}, 'must be {"authProvisionId": "apn_..."}'),
        ({"authProvisionId": "apn_nope"}, "account apn_nope not found"),
        ({"authProvisionId": "apn_sl1"}, "account apn_sl1 is a slack account, expected github"),
    ],
)
def test_bad_app_accounts(value: object, message: str) -> None:
    assert error_of(base(github=value)) == f"configured_props.github: {message}"


# -- static text limit ----------------------------------------------------


def test_static_text_limit() -> None:
    at_limit = "x" * MAX_STATIC_TEXT
    assert validate(base(repo=at_limit))["repo"] == at_limit
    assert error_of(base(repo=at_limit + "x")) == "configured_props.repo: exceeds the 64 KB limit on static text"


def test_static_text_limit_counts_utf8_bytes_across_the_value() -> None:
    euro = "€" * (MAX_STATIC_TEXT // 3 + 1)  # 3 bytes each: just over the limit
    assert error_of(base(repo=euro)).endswith("exceeds the 64 KB limit on static text")
    half = "y" * (MAX_STATIC_TEXT // 2)
    assert error_of(base(filters={"a": half, "b": half})).endswith("exceeds the 64 KB limit on static text")


def test_expressions_are_not_bound_by_the_limit() -> None:
    expression = "{{ " + "a" * MAX_STATIC_TEXT + " }}"
    assert validate(base(repo=expression))["repo"] == expression


# -- timers -----------------------------------------------------------------

TIMER_ONLY = [{"name": "timer", "type": "$.interface.timer"}]


@pytest.mark.parametrize(
    ("value", "normalized"),
    [
        ({"intervalSeconds": 60}, {"cron": None, "interval_seconds": 60}),
        ({"cron": "0 9 * * 1-5"}, {"cron": "0 9 * * 1-5", "interval_seconds": None}),
        ({"cron": " 0  9 * * * "}, {"cron": "0 9 * * *", "interval_seconds": None}),
        ({"cron": None, "interval_seconds": 300}, {"cron": None, "interval_seconds": 300}),
        (
            {"cron": "0 0 1 * *", "interval_seconds": None, "timezone": "America/New_York"},
            {"cron": "0 0 1 * *", "interval_seconds": None, "timezone": "America/New_York"},
        ),
    ],
)
def test_timer_forms(value: dict, normalized: dict) -> None:
    assert normalize_timer(value) == normalized
    assert validate({"timer": value}, TIMER_ONLY) == {"timer": normalized}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (900, 'must be {"intervalSeconds": <seconds>} or {"cron": "<5-field cron>"}'),
        ({}, "needs exactly one of intervalSeconds and cron"),
        ({"intervalSeconds": 60, "cron": "* * * * *"}, "needs exactly one of intervalSeconds and cron"),
        ({"intervalSeconds": 0}, "intervalSeconds must be a whole number of seconds, at least 1"),
        ({"intervalSeconds": 1.5}, "intervalSeconds must be a whole number of seconds, at least 1"),
        ({"cron": "61 * * * *"}, "cron '61 * * * *' is not a valid 5-field cron expression"),
        ({"cron": "0 0 9 * * *"}, "cron '0 0 9 * * *' is not a valid 5-field cron expression"),
        ({"cron": "* * * * *", "timezone": "Mars/Olympus"}, "timezone 'Mars/Olympus' is not a known IANA time zone"),
        ({"every": 5}, "has an unknown field 'every'"),
    ],
)
def test_bad_timers(value: object, message: str) -> None:
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace("*", r"\*")):
        normalize_timer(value)
    assert error_of({"timer": value}, TIMER_ONLY).startswith(f"configured_props.timer: {message}")


def test_timer_without_value_or_default_is_required() -> None:
    assert error_of({}, TIMER_ONLY) == "configured_props.timer: is required"
    assert validate({}, [{"name": "timer", "type": "$.interface.timer", "optional": True}]) == {}


@pytest.mark.parametrize(
    ("timer", "words"),
    [
        ({"intervalSeconds": 1}, "every second"),
        ({"intervalSeconds": 15}, "every 15 seconds"),
        ({"intervalSeconds": 90}, "every 90 seconds"),
        ({"intervalSeconds": 60}, "every minute"),
        ({"intervalSeconds": 900}, "every 15 minutes"),
        ({"intervalSeconds": 7200}, "every 2 hours"),
        ({"intervalSeconds": 86400}, "every day"),
        ({"intervalSeconds": 900, "timezone": "UTC"}, "every 15 minutes"),
        ({"intervalSeconds": 900, "timezone": "Asia/Tokyo"}, "every 15 minutes (Asia/Tokyo)"),
        ({"cron": "* * * * *"}, "every minute (UTC)"),
        ({"cron": "*/5 * * * *"}, "every 5 minutes (UTC)"),
        ({"cron": "0 * * * *"}, "every hour (UTC)"),
        ({"cron": "0 */6 * * *"}, "every 6 hours (UTC)"),
        ({"cron": "0 9 * * *"}, "every day at 09:00 (UTC)"),
        ({"cron": "30 17 * * 1-5", "timezone": "Europe/Paris"}, "weekdays at 17:30 (Europe/Paris)"),
        ({"cron": "0 8 * * 1"}, "every Monday at 08:00 (UTC)"),
        ({"cron": "0 8 * * 7"}, "every Sunday at 08:00 (UTC)"),
        ({"cron": "15 6 1 * *"}, "every month on day 1 at 06:15 (UTC)"),
        ({"cron": "0 9 * * 1,3"}, "cron 0 9 * * 1,3 (UTC)"),
        ({"cron": None, "interval_seconds": 3600}, "every hour"),
    ],
)
def test_describe_timer(timer: dict, words: str) -> None:
    assert describe_timer(timer) == words


def at(text: str, zone: str = "UTC") -> float:
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(zone)).timestamp()


def test_next_fire_interval_is_on_a_fixed_grid() -> None:
    timer = {"cron": None, "interval_seconds": 900}
    assert next_fire(timer, at("2024-01-01T10:07:30")) == at("2024-01-01T10:15:00")
    assert next_fire(timer, at("2024-01-01T10:15:00")) == at("2024-01-01T10:30:00")  # strictly after


def test_next_fire_cron_in_utc() -> None:
    timer = {"cron": "0 9 * * 1-5"}
    friday_evening = at("2024-01-05T18:00:00")
    assert next_fire(timer, friday_evening) == at("2024-01-08T09:00:00")  # Monday
    assert next_fire(timer, at("2024-01-08T09:00:00")) == at("2024-01-09T09:00:00")  # strictly after
    assert next_fire(timer, at("2024-01-08T08:59:59.5")) == at("2024-01-08T09:00:00")


def test_next_fire_cron_follows_the_timezone_across_dst() -> None:
    timer = {"cron": "0 9 * * *", "timezone": "Europe/Paris"}
    before_dst = at("2024-03-30T08:00:00", "Europe/Paris")  # DST starts on the 31st at 02:00
    first = next_fire(timer, before_dst)
    second = next_fire(timer, first)
    assert datetime.fromtimestamp(first, UTC).hour == 8  # 09:00 CET
    assert datetime.fromtimestamp(second, UTC).hour == 7  # 09:00 CEST
    assert second - first == 23 * 3600


# -- is_expression ------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("{{steps.trigger.event.body}}", True),
        ("  {{ steps.a.$return_value }}\n", True),
        ("{{ {a: 1} }}", True),
        ("{{}}", False),
        ("{{   }}", False),
        ("Hello {{name}}", False),
        ("{{name}} says hi", False),
        ("plain text", False),
        ("", False),
    ],
)
def test_is_expression(value: str, expected: bool) -> None:
    assert is_expression(value) is expected


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=10,
)


@settings(deadline=None)
@given(configured=st.dictionaries(st.sampled_from([p["name"] for p in PROPS] + ["stray"]), JSON))
def test_any_json_gives_a_prop_error_or_a_result(configured: dict) -> None:
    """Whatever a client sends, the answer is a result or a PropError, never a crash."""
    try:
        result = validate(configured)
    except PropError as error:
        assert error.prop in configured or error.prop in {p["name"] for p in PROPS}
    else:
        assert set(result) <= {p["name"] for p in PROPS}
