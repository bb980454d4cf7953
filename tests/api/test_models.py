"""The models: unknown fields kept, every timestamp form read, odd last pages and odd JSON strings tolerated."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pydantic
import pytest

from aftui.api.models import (
    AccessToken,
    Account,
    App,
    Component,
    ConnectToken,
    EventSummary,
    Page,
    PageInfo,
    Source,
    Step,
    Subscription,
    Trigger,
    User,
    Webhook,
    Workflow,
)

WHEN = datetime(2026, 11, 1, 9, 0, 0, tzinfo=UTC)
EPOCH_S = int(WHEN.timestamp())


@pytest.mark.parametrize(
    "value",
    [
        EPOCH_S,
        EPOCH_S * 1000,
        float(EPOCH_S),
        str(EPOCH_S),
        str(EPOCH_S * 1000),
        "2026-11-01T09:00:00Z",
        "2026-11-01T09:00:00.000Z",
        "2026-11-01T09:00:00+00:00",
        "2026-11-01T10:00:00+01:00",
        "2026-11-01T09:00:00",  # no zone: read as UTC
        WHEN,
    ],
)
def test_every_timestamp_form_is_the_same_instant(value: object) -> None:
    hook = Webhook.model_validate({"id": "wh_1", "url": "https://x.example", "created_at": value, "updated_at": value})
    assert hook.created_at == WHEN and hook.created_at.tzinfo is not None
    assert hook.updated_at == WHEN


def test_millisecond_precision_is_kept() -> None:
    source = Source.model_validate({"id": "dc_1", "created_at": EPOCH_S * 1000 + 250})
    assert source.created_at == WHEN + timedelta(milliseconds=250)


def test_null_timestamps_are_none() -> None:
    account = Account.model_validate({"id": "apn_1", "created_at": None, "expires_at": None})
    assert account.created_at is None and account.expires_at is None and account.updated_at is None


@pytest.mark.parametrize("bad", [True, "yesterday", [1], {"s": 1}])
def test_a_timestamp_that_is_not_one_is_refused(bad: object) -> None:
    with pytest.raises(pydantic.ValidationError):
        Webhook.model_validate({"id": "wh_1", "url": "https://x.example", "created_at": bad})


@pytest.mark.parametrize("expires_at", ["2026-11-01T13:00:00.000Z", EPOCH_S + 4 * 3600, (EPOCH_S + 4 * 3600) * 1000])
def test_connect_token_expiry_as_iso_or_epoch(expires_at: object) -> None:
    token = ConnectToken.model_validate({"token": "ctok_secret", "expires_at": expires_at})
    assert token.expires_at == WHEN + timedelta(hours=4)
    assert "ctok_secret" not in repr(token)


def test_access_token_repr_hides_the_token() -> None:
    token = AccessToken.model_validate(
        {"access_token": "eyJ.secret.sig", "token_type": "Bearer", "expires_in": 3600, "created_at": EPOCH_S}
    )
    assert "secret" not in repr(token) and token.created_at == WHEN


@pytest.mark.parametrize("end_cursor", [None, ""])
def test_a_last_page_cursor_null_or_empty(end_cursor: str | None) -> None:
    info = PageInfo.model_validate({"total_count": 3, "count": 3, "start_cursor": "abc", "end_cursor": end_cursor})
    assert not info.has_more
    page = Page[Source](items=[Source(id="dc_1")], page_info=info)
    assert not page.has_more and page.total == 3


def test_a_page_info_missing_fields() -> None:
    info = PageInfo.model_validate({})
    assert not info.has_more and info.total_count is None
    assert PageInfo.model_validate({"end_cursor": "next"}).has_more


@pytest.mark.parametrize(
    ("model", "record"),
    [
        (Source, {"id": "dc_1", "owner_id": "u_1", "shiny_new_field": {"a": 1}}),
        (Webhook, {"id": "wh_1", "url": "https://x.example", "secret_header": "X-Sig"}),
        (Account, {"id": "apn_1", "app": {"id": "app_1", "name": "Slack", "logo_dark": "x.svg"}, "scopes": ["a"]}),
        (User, {"id": "u_1", "orgs": [{"id": "o_1", "plan": "team"}], "avatar": "a.png"}),
        (
            Component,
            {"id": "sc_1", "configurable_props": [{"name": "p", "type": "string", "withLabel": True}], "stars": 3},
        ),
        (
            Workflow,
            {
                "id": "p_1",
                "triggers": [{"id": "hi_1", "method": "POST"}],
                "steps": [{"namespace": "s", "params_json": "{}"}],
                "memory": 256,
            },
        ),
        (EventSummary, {"id": "1-0", "metadata": {"emitter_id": "dc_1", "summary": "hi"}, "extra_top": 1}),
        (Subscription, {"emitter_id": "dc_1", "listener_id": "wh_1", "created_at": 5}),
    ],
)
def test_unknown_fields_are_kept(model: type[pydantic.BaseModel], record: dict) -> None:
    parsed = model.model_validate(record)
    dumped = parsed.model_dump(exclude_unset=True)

    def contains(whole: object, part: object) -> bool:
        if isinstance(part, dict):
            return isinstance(whole, dict) and all(k in whole and contains(whole[k], v) for k, v in part.items())
        if isinstance(part, list):
            return (
                isinstance(whole, list)
                and len(whole) == len(part)
                and all(contains(w, p) for w, p in zip(whole, part, strict=False))
            )
        return whole == part or isinstance(whole, datetime)

    assert contains(dumped, record)
    assert parsed.model_extra  # the top-level unknown field


def test_nested_unknown_fields_are_reachable() -> None:
    account = Account.model_validate({"id": "apn_1", "app": {"id": "app_1", "logo_dark": "x.svg"}})
    assert account.app is not None and account.app.model_extra == {"logo_dark": "x.svg"}
    workflow = Workflow.model_validate({"triggers": [{"id": "hi_1", "method": "POST"}]})
    assert workflow.triggers[0].model_extra == {"method": "POST"}


# --- helpers on the models ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("record", "kind"),
    [
        ({"id": "hi_1"}, "http"),
        ({"id": "ti_1"}, "timer"),
        ({"id": "ei_1"}, "email"),
        ({"id": "dc_1"}, "source"),
        ({"id": "x1", "endpoint_url": "https://e.example/e/k"}, "http"),
        ({"id": "x2", "email_address": "a@b.example"}, "email"),
        ({"id": "x3", "cron": "0 * * * *"}, "timer"),
        ({"id": "x4", "interval_seconds": 0}, "timer"),
        ({"id": "x5", "configured_props": {}}, "source"),
    ],
)
def test_trigger_kind(record: dict, kind: str) -> None:
    assert Trigger.model_validate(record).kind == kind


@pytest.mark.parametrize(
    ("raw", "props"),
    [
        ('{"a": 1, "b": [1, 2]}', {"a": 1, "b": [1, 2]}),
        (None, {}),
        ("", {}),
        ("not json", {}),
        ("[1, 2]", {}),
    ],
)
def test_step_configured_props(raw: str | None, props: dict) -> None:
    assert Step.model_validate({"namespace": "s", "configured_props_json": raw}).configured_props() == props


@pytest.mark.parametrize(
    ("raw", "names"),
    [
        ('[{"name": "api_key", "type": "password"}, {"name": "region", "optional": true}]', ["api_key", "region"]),
        ('[{"label": "no name"}, 5, {"name": "ok"}]', ["ok"]),
        ('{"name": "not a list"}', []),
        ("broken", []),
        (None, []),
    ],
)
def test_app_custom_fields(raw: str | None, names: list[str]) -> None:
    assert [f.name for f in App.model_validate({"id": "app_1", "custom_fields_json": raw}).custom_fields()] == names


def test_event_error_on_an_errors_event() -> None:
    summary = EventSummary.model_validate(
        {
            "id": "1793523360000-0",
            "indexed_at_ms": 1793523360000,
            "event": {
                "original_event": {"order_id": "o1"},
                "original_context": {
                    "id": "ctx",
                    "ts": "2026-11-01T08:56:00.000Z",
                    "workflow_id": "p_1",
                    "verified": False,
                },
                "error": {
                    "code": "Error",
                    "msg": "boom",
                    "cellId": "c_1",
                    "ts": "2026-11-01T08:56:00.000Z",
                    "stack": "Error: boom",
                },
            },
            "metadata": {"emitter_id": "p_1", "emit_id": "e", "name": "$errors"},
        }
    )
    error = summary.error()
    assert error is not None and error.error.code == "Error" and error.error.cellId == "c_1"
    assert error.original_event == {"order_id": "o1"} and error.original_context.workflow_id == "p_1"
    assert error.error.ts == WHEN - timedelta(minutes=4)
    assert summary.channel == "$errors" and summary.key == (1793523360000, 0)


@pytest.mark.parametrize(
    "event", [{"order_id": 1}, 'truncated {"error": ...', None, [1], {"error": "a string, not an object"}]
)
def test_event_error_on_other_events(event: object) -> None:
    assert EventSummary.model_validate({"id": "1-0", "event": event}).error() is None


def test_event_defaults() -> None:
    summary = EventSummary.model_validate({"id": "5-1"})
    assert summary.channel == "default" and not summary.truncated and summary.key == (5, 1)


def test_subscription_default_channel_is_empty() -> None:
    assert Subscription(emitter_id="dc_1", listener_id="wh_1").event_name == ""
