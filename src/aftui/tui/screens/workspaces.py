"""Workspaces: the user, their plan, and each workspace's daily quotas as gauges."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...api import ApiError
from ...api.models import Org, User
from ...text import visible
from ..host import host
from ..safe import plain, when
from ..widgets.pane import Pane

GAUGE_WIDTH = 20


def gauge(used: int | None, quota: int | None, width: int = GAUGE_WIDTH) -> Text:
    """`████████░░░░  1,420 / 10,000 (14%)`, red past 90%."""
    if not quota:
        return Text("—", style="dim")
    share = min(1.0, max(0.0, (used or 0) / quota))
    filled = round(share * width)
    style = "red" if share >= 0.9 else "yellow" if share >= 0.7 else "green"
    return Text.assemble(
        ("█" * filled, style), ("░" * (width - filled), "dim"), f"  {used or 0:,} / {quota:,} ({share:.0%})"
    )


def quotas(org: Org) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    table.add_row("Credits today", gauge(org.daily_credits_used, org.daily_credits_quota))
    if org.daily_compute_time_quota:
        table.add_row("Compute time", gauge(org.daily_compute_time_used, org.daily_compute_time_quota))
    if org.daily_invocations_quota:
        table.add_row("Invocations", gauge(org.daily_invocations_used, org.daily_invocations_quota))
    return table


def plan(user: User, now: object) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    table.add_row("User", Text.assemble(plain(user.username, 40), "  ", plain(user.email, 60, "dim")))
    table.add_row("ID", plain(user.id, 40))
    table.add_row("Plan", Text(user.plan))
    if user.plan == "paid":
        table.add_row(
            "Billing period", Text.assemble(when(user.billing_period_start_ts), " → ", when(user.billing_period_end_ts))
        )
        table.add_row("Credits this period", Text(f"{user.billing_period_credits or 0:,}"))
    else:
        table.add_row("Compute time today", gauge(user.daily_compute_time_used, user.daily_compute_time_quota))
        table.add_row("Invocations today", gauge(user.daily_invocations_used, user.daily_invocations_quota))
    return table


class _Page(VerticalScroll, can_focus=False):
    """The pane's sections, scrolled as one. Not focusable: tab went to it, and nothing on screen said where the
    keys went; they belong to the workspaces' list."""


class WorkspacesPane(Pane):
    """Enter on a workspace scopes every other pane to it."""

    TITLE = "Workspaces"
    BINDINGS = [Binding("r", "refresh", "Refresh")]

    def compose(self) -> ComposeResult:
        yield Static(Text("Workspaces"), classes="pane-title")
        with _Page():
            yield Static(id="user", classes="section")
            yield Static(Text("Workspaces (enter to choose)", style="bold"), classes="section")
            yield OptionList(id="orgs")
            yield Static(id="quotas", classes="section")
            yield Static(id="note", classes="note")

    def on_mount(self) -> None:
        self.show_user()

    def show_user(self) -> None:
        user: User | None = self.session.user
        note = self.query_one("#note", Static)
        if user is None:
            note.update(Text(self._no_user_words()))
            return
        note.update("")
        self.query_one("#user", Static).update(plan(user, self.session.now()))
        options = self.query_one("#orgs", OptionList)
        options.clear_options()
        for org in user.orgs:
            mark = "● " if org.id == self.session.org_id else "  "
            options.add_option(
                Option(
                    Text.assemble(mark, plain(org.name or org.orgname, 40), "  ", plain(org.id, 20, "cyan")), id=org.id
                )
            )
        # The cursor on the workspace in use: with none, nothing said which row enter would choose.
        ids, current = [org.id for org in user.orgs], self.session.org_id
        options.highlighted = ids.index(current) if current in ids else (0 if ids else None)
        self._show_quotas()

    def _no_user_words(self) -> str:
        """Why there is no user to show, as it is: an OAuth token cannot read it; a user key has not read it yet."""
        workspace = (
            f"Workspace: {visible(self.session.org_id, 40)}"
            if self.session.org_id
            else "Set org_id in the profile to name it."
        )
        if not self.client.uses_user_key:
            return (
                "This profile uses a workspace OAuth token: it carries one workspace and cannot read /users/me. "
                + workspace
            )
        return (
            f"Who you are (/users/me) could not be read from {visible(self.client.base_url, 80)}: "
            "the header shows the connection. It is read again by itself once the service answers; r tries now."
        )

    def _show_quotas(self) -> None:
        org = self.session.workspace
        box = self.query_one("#quotas", Static)
        if org is None:
            box.update("")
            return
        box.update(_stack(Text.assemble((visible(org.name or org.id, 40), "bold"), " — daily quotas"), quotas(org)))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            host(self).set_workspace(event.option.id)

    def workspace_changed(self) -> None:
        self.show_user()

    def action_refresh(self) -> None:
        self._refresh_user()

    @work(group="user", exclusive=True, exit_on_error=False)
    async def _refresh_user(self) -> None:
        try:
            self.session.user = await self.client.me()
        except ApiError as error:
            self.notify(f"Could not refresh: {visible(error.message, 200)}", severity="error", markup=False)
            return
        self.show_user()


def _stack(title: Text, body: Table) -> Table:
    table = Table.grid()
    table.add_row(title)
    table.add_row(body)
    return table
