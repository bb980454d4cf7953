"""Pydantic models of every resource of the service.

Every model keeps the fields it does not know (`extra="allow"`): the real
service sends more than the spec shows, and a field we drop is a field the
user cannot see. Where the real service and the emulator differ (docs/architecture.md),
both forms are accepted: timestamps as epoch seconds, epoch milliseconds or
ISO 8601; a last page's `end_cursor` as null or "".
"""

from __future__ import annotations

from datetime import UTC, datetime
from types import UnionType
from typing import Annotated, Any, Generic, Self, TypeVar, Union, get_args, get_origin

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticUndefined

from . import jsontext
from .eventid import event_key as event_key  # defined apart, to be read without pydantic; still found here


def _to_datetime(value: Any) -> Any:
    if value is None or isinstance(value, datetime):
        return value
    if isinstance(value, bool):
        raise ValueError("a timestamp cannot be a boolean")
    if isinstance(value, (int, float)):
        seconds = value / 1000 if abs(value) > 1e11 else value  # epoch ms vs s
        try:
            return datetime.fromtimestamp(seconds, tz=UTC)
        except (OverflowError, OSError, ValueError):  # beyond year 9999, or NaN: refused like any non-timestamp
            raise ValueError(f"timestamp out of range: {value!r}") from None
    if isinstance(value, str):
        text = value.strip()
        if text.lstrip("-").isdecimal():
            return _to_datetime(int(text))
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    raise ValueError(f"not a timestamp: {value!r}")


Timestamp = Annotated[datetime | None, BeforeValidator(_to_datetime)]


def _nullable(annotation: Any) -> bool:
    """Whether a field's type takes None (Any, Optional, a union with None, an Annotated of one)."""
    if annotation is Any or annotation is None or annotation is type(None):
        return True
    origin = get_origin(annotation)
    if origin is Annotated:
        return _nullable(get_args(annotation)[0])
    if origin in (Union, UnionType):
        return any(_nullable(arg) for arg in get_args(annotation))
    return False


def _empty(annotation: Any) -> Any:
    """What a required field gets for a null: the empty value of its type."""
    origin = get_origin(annotation) or annotation
    for kind, value in ((str, ""), (bool, False), (int, 0), (float, 0.0), (list, []), (dict, {})):
        if origin is kind:
            return value
    return PydanticUndefined  # no empty value: the null stays, and is refused as before


def _without_nulls(model: type[BaseModel], data: dict[str, Any]) -> dict[str, Any] | None:
    """`data` with a null in a field that takes none replaced by the field's default; None if there is none to replace.

    Nulls inside lists of values that take none are dropped (a null among an app's categories).
    """
    cleaned: dict[str, Any] | None = None
    for name, field in model.model_fields.items():
        key = name if name in data else field.alias
        if key is None or key not in data:
            continue
        value = data[key]
        if value is None and not _nullable(field.annotation):
            if not field.is_required():
                replacement = field.get_default(call_default_factory=True, validated_data={})
            else:
                replacement = _empty(field.annotation)
            if replacement is PydanticUndefined:
                continue
        elif isinstance(value, list) and None in value and get_origin(field.annotation) is list:
            (item,) = get_args(field.annotation) or (Any,)
            if _nullable(item):
                continue
            replacement = [v for v in value if v is not None]
        else:
            continue
        if cleaned is None:
            cleaned = dict(data)
        cleaned[key] = replacement
    return cleaned


def without_nulls(model: type[BaseModel], data: Any) -> Any:
    """`data` with nulls where `model` expects values replaced by defaults (for models that do not do it themselves).

    `EventSummary` is validated tens of thousands of times a second on the stream's path, where a
    model validator in Python would double the cost: its readers retry with this when it fails.
    """
    cleaned = _without_nulls(model, data) if isinstance(data, dict) else None
    return data if cleaned is None else cleaned


class Plain(BaseModel):
    """A record that keeps unknown fields, without `Model`'s second look at nulls (see `without_nulls`)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True, defer_build=True)


class Model(BaseModel):
    """A record of the service: unknown fields kept, and a null where a value was expected read as the default.

    The service, or a newer one, may send null for a field the spec gives a value (a source's
    `configured_props`, an app's `categories`, a prop's `type`): the record is read with the field's
    default (the empty value of its type when it has none) rather than refused. Only a record that
    fails is looked at again, so records without nulls cost nothing more.
    """

    model_config = ConfigDict(extra="allow", populate_by_name=True, defer_build=True)

    @model_validator(mode="wrap")
    @classmethod
    def _tolerate_nulls(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        try:
            return handler(data)
        except ValidationError:
            cleaned = _without_nulls(cls, data) if isinstance(data, dict) else None
            if cleaned is None:
                raise
            return handler(cleaned)


# --- paging -------------------------------------------------------------------------------


class PageInfo(Model):
    total_count: int | None = None
    count: int | None = None
    start_cursor: str | None = None
    end_cursor: str | None = None

    @property
    def has_more(self) -> bool:
        return bool(self.end_cursor)


T = TypeVar("T")


def share_alike(items: list[Any]) -> None:
    """The models of a page share what they hold alike: one set of given field names (`model_fields_set`) for
    models given the same fields, one string or timestamp for equal ones (a user, a component, a day).

    pydantic gives each model a set of its own, 730 bytes, half of what a source costs: 7 MB in a list of
    10,000 sources that all came with the same dozen fields. The set is read (`exclude_unset`) and copied
    before a copy changes it (`model_copy`); only assigning a field of a listed model in place would mark it
    given in the others too, and lists are read, not assigned to. Strings and timestamps cannot change.
    """
    sets: dict[frozenset[str], set[str]] = {}
    values: dict[tuple[type, object], object] = {}
    for item in items:
        if not isinstance(item, BaseModel):
            continue
        given = item.__pydantic_fields_set__
        object.__setattr__(item, "__pydantic_fields_set__", sets.setdefault(frozenset(given), given))
        fields = item.__dict__
        for name, value in fields.items():
            if isinstance(value, (str, datetime)):
                fields[name] = values.setdefault((type(value), value), value)


class Page(BaseModel, Generic[T]):
    """One page of a list, as the service sent it."""

    model_config = ConfigDict(defer_build=True)

    items: list[T]
    page_info: PageInfo = Field(default_factory=PageInfo)

    @property
    def has_more(self) -> bool:
        return self.page_info.has_more

    @property
    def total(self) -> int | None:
        return self.page_info.total_count


# --- users and workspaces ------------------------------------------------------------------


class Org(Model):
    id: str
    name: str | None = None
    orgname: str | None = None
    email: str | None = None
    daily_credits_quota: int | None = None
    daily_credits_used: int | None = None
    daily_compute_time_quota: int | None = None
    daily_compute_time_used: int | None = None
    daily_invocations_quota: int | None = None
    daily_invocations_used: int | None = None


class User(Model):
    id: str
    username: str | None = None
    email: str | None = None
    orgs: list[Org] = Field(default_factory=list)
    daily_compute_time_quota: int | None = None
    daily_compute_time_used: int | None = None
    daily_invocations_quota: int | None = None
    daily_invocations_used: int | None = None
    billing_period_start_ts: Timestamp = None
    billing_period_end_ts: Timestamp = None
    billing_period_credits: int | None = None

    @property
    def plan(self) -> str:
        return "paid" if self.billing_period_start_ts is not None else "free"


# --- accounts and apps -----------------------------------------------------------------------


class CustomField(Model):
    name: str
    label: str | None = None
    description: str | None = None
    default: Any = None
    optional: bool | None = None
    type: str | None = None


class App(Model):
    id: str
    name: str | None = None
    name_slug: str | None = None
    auth_type: str | None = None
    description: str | None = None
    img_src: str | None = None
    custom_fields_json: str | None = None
    categories: list[str] = Field(default_factory=list)

    def custom_fields(self) -> list[CustomField]:
        """`custom_fields_json` parsed; a malformed value gives no fields rather than an error."""
        try:
            raw = jsontext.loads(self.custom_fields_json or "[]")
        except ValueError:
            return []
        if not isinstance(raw, list):
            return []
        return [CustomField.model_validate(f) for f in raw if isinstance(f, dict) and isinstance(f.get("name"), str)]


class Account(Model):
    """An account of the management API or of Connect (which adds external_id and dead)."""

    id: str
    name: str | None = None
    app: App | None = None
    healthy: bool | None = None
    dead: bool | None = None
    external_id: str | None = None
    created_at: Timestamp = None
    updated_at: Timestamp = None
    expires_at: Timestamp = None
    credentials: dict[str, Any] | None = None
    project_id: int | str | None = None
    user_id: str | None = None
    error: Any = None
    last_refreshed_at: Timestamp = None
    next_refresh_at: Timestamp = None


class WorkspaceAccount(Model):
    id: str
    name: str | None = None


# --- components -------------------------------------------------------------------------------


class ComponentProp(Model):
    name: str
    type: str
    label: str | None = None
    description: str | None = None
    optional: bool | None = None
    default: Any = None
    secret: bool | None = None
    min: int | None = None
    max: int | None = None
    options: list[Any] | None = None
    app: str | None = None
    disabled: bool | None = None
    hidden: bool | None = None
    reloadProps: bool | None = None


class Component(Model):
    id: str
    code: str | None = None
    code_hash: str | None = None
    name: str | None = None
    key: str | None = None
    version: str | None = None
    type: str | None = None
    description: str | None = None
    configurable_props: list[ComponentProp] = Field(default_factory=list)
    component_url: str | None = None
    created_at: Timestamp = None
    updated_at: Timestamp = None


class ComponentSearch(Model):
    sources: list[str] = Field(default_factory=list)
    actions: list[str] = Field(default_factory=list)


# --- sources and events --------------------------------------------------------------------------


class Source(Model):
    id: str
    name: str | None = None
    name_slug: str | None = None
    user_id: str | None = None
    owner_id: str | None = None
    component_id: str | None = None
    configured_props: dict[str, Any] = Field(default_factory=dict)
    active: bool | None = None
    created_at: Timestamp = None
    updated_at: Timestamp = None

    @property
    def endpoint_url(self) -> str | None:
        for value in self.configured_props.values():
            url = value.get("endpoint_url") if isinstance(value, dict) else None
            if isinstance(url, str):
                return url
        return None


class EventMetadata(Plain):
    emitter_id: str | None = None
    emit_id: str | None = None
    name: str | None = None
    truncated: bool | None = None
    event_size: int | None = None


class EventSummary(Plain):
    id: str | None = None
    indexed_at_ms: int | None = None
    event: Any = None
    metadata: EventMetadata = Field(default_factory=EventMetadata)

    @property
    def channel(self) -> str:
        return self.metadata.name or "default"

    @property
    def key(self) -> tuple[int, int] | None:
        return event_key(self.id)

    @property
    def truncated(self) -> bool:
        return bool(self.metadata.truncated)

    def error(self) -> WorkflowError | None:
        """The `$errors` shape of this event, when it has it."""
        if not isinstance(self.event, dict) or "error" not in self.event:
            return None
        try:
            return WorkflowError.model_validate(self.event)
        except ValueError:
            return None


class ErrorInfo(Model):
    code: str | None = None
    msg: str | None = None
    cellId: str | None = None
    ts: Timestamp = None
    stack: str | None = None


class ErrorContext(Model):
    id: str | None = None
    ts: Timestamp = None
    workflow_id: str | None = None
    deployment_id: str | None = None
    source_type: str | None = None
    verified: bool | None = None
    owner_id: str | None = None
    platform_version: str | None = None
    workflow_name: str | None = None
    emitter_id: str | None = None


class WorkflowError(Model):
    original_event: Any = None
    original_context: ErrorContext = Field(default_factory=ErrorContext)
    error: ErrorInfo = Field(default_factory=ErrorInfo)


# --- routing ----------------------------------------------------------------------------------------


class Subscription(Model):
    id: str | None = None
    emitter_id: str
    listener_id: str
    event_name: str | None = ""


class Webhook(Model):
    id: str
    user_id: str | None = None
    name: str | None = None
    description: str | None = None
    url: str
    active: bool | None = None
    created_at: Timestamp = None
    updated_at: Timestamp = None


# --- workflows ----------------------------------------------------------------------------------------

_TRIGGER_KINDS = {"hi_": "http", "ti_": "timer", "ei_": "email", "dc_": "source"}


class Trigger(Model):
    """One of the four trigger kinds; `kind` is read from the id prefix, else from the fields."""

    id: str
    key: str | None = None
    endpoint_url: str | None = None
    custom_response: bool | None = None
    interval_seconds: int | None = None
    cron: str | None = None
    timezone: str | None = None
    schedule_changed_at: Timestamp = None
    email_address: str | None = None
    name: str | None = None
    configured_props: dict[str, Any] | None = None
    configurable_props: list[ComponentProp] | None = None
    created_at: Timestamp = None
    updated_at: Timestamp = None

    @property
    def kind(self) -> str:
        """http, timer, email or source; a kind aftui does not know is named by the id's prefix (shown as text)."""
        for prefix, kind in _TRIGGER_KINDS.items():
            if self.id.startswith(prefix):
                return kind
        if self.endpoint_url:
            return "http"
        if self.email_address:
            return "email"
        if self.interval_seconds is not None or self.cron:
            return "timer"
        if self.configured_props is not None or self.configurable_props is not None or self.name:
            return "source"
        prefix, sep, _ = self.id.partition("_")
        return prefix if sep and prefix else "unknown"


class SavedComponent(Model):
    id: str | None = None
    code: str | None = None
    codeHash: str | None = None
    configurableProps: list[ComponentProp] = Field(default_factory=list)
    key: str | None = None
    description: str | None = None
    version: str | None = None


class Step(Model):
    id: str | None = None
    namespace: str
    type: str | None = None
    disabled: bool | None = None
    lang: str | None = None
    component_key: str | None = None
    savedComponent: SavedComponent | None = None
    configured_props_json: str | None = None
    authProvisionIdMap: dict[str, Any] | None = None

    def configured_props(self) -> dict[str, Any]:
        try:
            value = jsontext.loads(self.configured_props_json or "{}")
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}


class Workflow(Model):
    id: str | None = None
    name: str | None = None
    active: bool | None = None
    triggers: list[Trigger] = Field(default_factory=list)
    steps: list[Step] = Field(default_factory=list)
    created_at: Timestamp = None
    updated_at: Timestamp = None


# --- auth and Connect ---------------------------------------------------------------------------------


class AccessToken(Model):
    access_token: str
    token_type: str = "Bearer"
    expires_in: int = 3600
    created_at: Timestamp = None

    def __repr__(self) -> str:  # never print the token
        return f"AccessToken(token_type={self.token_type!r}, expires_in={self.expires_in})"


class ConnectToken(Model):
    token: str
    expires_at: Timestamp = None
    connect_link_url: str | None = None  # the hosted connect page for this token (the SDK reads it)

    def __repr__(self) -> str:
        return f"ConnectToken(expires_at={self.expires_at!r})"


class ConnectInfo(Model):
    id: str | None = None
    name: str | None = None
    app_name: str | None = None
    environment: str | None = None
