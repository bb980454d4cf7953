"""Props the service shapes: timers, HTTP interfaces, connected accounts, service-filled props and alerts."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Select, Static, Switch

from ...api import ApiError
from ...api.models import Account, ComponentProp
from ...props import OMIT, Omitted, extra, read_timer, timer_minimum, timer_text, timer_words
from ...text import visible
from ..host import session_of
from .in_order_input import InOrderInput
from .prop_fields import PropField, markdown_text
from .safe_select import SafeSelect

ACCOUNTS_LIMIT = 100  # one page: more accounts of one app than this is not a list to pick from


class TimerField(PropField):
    """`$.interface.timer`: seconds (900, 15m, 2h) or a cron expression, its meaning shown as you type.

    The line under the input says what a good schedule means; what is wrong
    with a bad one is said once, on the row's error line, as for every prop.
    """

    DEFAULT_CSS = """
    TimerField > .words { height: auto; color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        text = timer_text(self.start())
        yield InOrderInput(text, placeholder=self.placeholder(), compact=True)
        yield Static(self._words(text), classes="words")

    @property
    def minimum(self) -> int:
        return timer_minimum(self.prop)

    def placeholder(self) -> str:
        return f"seconds, at least {self.minimum} (900, 15m, 2h), or cron (0 9 * * 1-5)"

    @property
    def zone(self) -> str | None:
        start = self.start()
        zone = start.get("timezone") if isinstance(start, dict) else None
        return zone if isinstance(zone, str) else None

    def _words(self, text: str) -> Text:
        if not text.strip() and isinstance(self.prop.default, dict):
            default = timer_words(timer_text(self.prop.default), self.zone, 1).removeprefix("runs ")
            return Text(f"empty: the default applies ({default})")
        words = timer_words(text, self.zone, self.minimum)
        if words.startswith("✖"):  # the row's error line says it
            return Text(f"an interval of {self.minimum} seconds or more, or a 5-field cron expression")
        return Text(words)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one(".words", Static).update(self._words(event.value))
        self._edited(event)

    def read(self) -> Any:
        timer = read_timer(self.query_one(Input).value, self.minimum)
        if not isinstance(timer, Omitted) and "cron" in timer and self.zone:
            timer = {**timer, "timezone": self.zone}  # a cron's zone is kept; the field edits only the schedule
        return timer


class HttpField(PropField):
    """`$.interface.http`: the endpoint the service assigns (read-only) and `customResponse` as a switch.

    `customResponse` is declared in the component's code (spec: a property of
    the prop, not a configured value), so the switch shows it and cannot be
    turned: changing it means changing the code. Nothing is sent for the
    prop; the service gives the endpoint.
    """

    DEFAULT_CSS = """
    HttpField > .endpoint { height: auto; }
    HttpField > Horizontal { height: auto; }
    HttpField .switch-label { padding: 0 1; color: $text-muted; width: 1fr; }
    """

    def __init__(
        self, prop: ComponentProp, initial: Any = OMIT, *, endpoint: str | None = None, id: str | None = None
    ) -> None:
        super().__init__(prop, initial, id=id)
        self.endpoint = endpoint

    def compose(self) -> ComposeResult:
        start = self.initial if isinstance(self.initial, dict) else {}
        endpoint = self.endpoint or start.get("endpoint_url")
        shown = (
            Text.assemble(("endpoint ", "dim"), visible(endpoint, 300))
            if endpoint
            else Text("endpoint: given by the service when the source is deployed", style="dim")
        )
        yield Static(shown, classes="endpoint")
        custom = bool(extra(self.prop, "customResponse", start.get("customResponse", False)))
        with Horizontal():
            yield Switch(custom, disabled=True)
            words = (
                "custom response: run() answers the caller ($.respond)"
                if custom
                else "no custom response: the service answers callers at once"
            )
            yield Static(Text(f"{words} · set in the component's code"), classes="switch-label")

    def read(self) -> Any:
        return OMIT


class AccountField(PropField):
    """`app`: one of the user's connected accounts of that app, sent as {authProvisionId}."""

    DEFAULT_CSS = """
    AccountField > .status { height: auto; color: $text-muted; }
    AccountField > .status.bad { color: $warning; }
    """

    def __init__(self, prop: ComponentProp, initial: Any = OMIT, *, id: str | None = None) -> None:
        super().__init__(prop, initial, id=id)
        self.account_ids: list[str] = []  # the accounts offered, once loaded
        self.loaded = False  # True once the list came back (or failed)

    def compose(self) -> ComposeResult:
        yield SafeSelect([], prompt="loading accounts…", allow_blank=True, compact=True)
        yield Static(Text(f"connected {visible(self.prop.app or '?', 40)} accounts", style="dim"), classes="status")

    def on_mount(self) -> None:
        self.load_accounts()

    @property
    def chosen_id(self) -> str | None:
        start = self.start()
        ident = start.get("authProvisionId") if isinstance(start, dict) else None
        return ident if isinstance(ident, str) else None

    @work(group="accounts", exclusive=True, exit_on_error=False)
    async def load_accounts(self) -> None:
        select = self.query_one(Select)
        app = self.prop.app or ""
        try:
            page = await session_of(self).client.list_accounts(app=app, limit=ACCOUNTS_LIMIT)
        except ApiError as error:
            select.prompt = "accounts could not be read"
            self._say(f"Could not list {app} accounts: {visible(error.message, 200)}", bad=True)
            self.loaded = True
            return
        accounts = page.items
        self.account_ids = [a.id for a in accounts]
        options = [(account_label(a), a.id) for a in accounts]
        kept = self.chosen_id
        if kept and all(a.id != kept for a in accounts):
            options.append((Text(f"{kept} (set now; not among your accounts)"), kept))
        select.set_options(options)
        select.prompt = "choose an account…" if options else "no account to choose"
        if kept:
            select.value = kept
        if accounts:
            self._say(
                f"{len(accounts)} connected {app} account{'s' if len(accounts) != 1 else ''}{' (first 100)' if page.has_more else ''}",
                bad=False,
            )
        else:
            self._say(f"No connected {app} account: connect one in the service first, then reopen this form.", bad=True)
        self.loaded = True

    def _say(self, message: str, *, bad: bool) -> None:
        status = self.query_one(".status", Static)
        status.update(Text(visible(message, 300)))
        status.set_class(bad, "bad")

    def read(self) -> Any:
        value = self.query_one(Select).value
        return {"authProvisionId": value} if isinstance(value, str) else OMIT


def account_label(account: Account) -> Text:
    name = account.name or (account.app.name if account.app and account.app.name else None) or "(no name)"
    label = Text.assemble(visible(name, 50), (f"  {account.id}", "dim"))
    if account.healthy is False:
        label.append("  unhealthy", "yellow")
    return label


class NoteField(PropField):
    """A prop the service fills (`$.service.db`, `data_store`): said in words; a value already set is kept."""

    DEFAULT_CSS = "NoteField > Static { height: auto; color: $text-muted; }"

    def __init__(self, prop: ComponentProp, initial: Any = OMIT, *, note: str, id: str | None = None) -> None:
        super().__init__(prop, initial, id=id)
        self.note = note

    def compose(self) -> ComposeResult:
        yield Static(Text(self.note))

    def read(self) -> Any:
        return self.initial


class AlertBox(Static):
    """`alert`: its content in a box styled by `alertType` (info, neutral, warning, error)."""

    DEFAULT_CSS = """
    AlertBox { height: auto; padding: 0 1; margin: 0 0 1 0; border: round $primary; }
    AlertBox.alert-warning { border: round $warning; }
    AlertBox.alert-error { border: round $error; }
    AlertBox.alert-neutral { border: round $panel-lighten-2; }
    """

    TYPES = ("info", "neutral", "warning", "error")

    def __init__(self, prop: ComponentProp) -> None:
        kind = extra(prop, "alertType", "info")
        kind = kind if kind in self.TYPES else "info"
        content = extra(prop, "content", "") or prop.description or ""
        super().__init__(markdown_text(str(content)), classes=f"alert-{kind}")
        self.border_title = kind
