"""The palette (ctrl+p or `:`): go to a pane, open an id, switch workspace, environment or profile."""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider

from ..text import visible
from .opener import kind_of

KIND_NAMES = {
    "dc_": "source",
    "p_": "workflow",
    "wh_": "webhook",
    "sub_": "subscription",
    "apn_": "account",
    "app_": "app",
    "sc_": "component",
    "tch_": "workflow template",
    "o_": "workspace",
}


class AftuiCommands(Provider):
    def _commands(self) -> list[tuple[str, Any, str]]:
        app: Any = self.app
        session = app.session
        commands: list[tuple[str, Any, str]] = [
            (f"Go to {spec.title}", partial(app.show_pane, spec.id), f"pane {n + 1}")
            for n, spec in enumerate(app.specs)
        ]
        if session.user is not None:
            for org in session.user.orgs:
                label = visible(org.name or org.orgname or org.id, 40)
                commands.append((f"Switch workspace: {label}", partial(app.set_workspace, org.id), org.id))
        commands.append(("Live monitor: events and errors as they arrive", app.action_monitor, "m"))
        commands.append(("Deploy a source", partial(_push_form, app, "deploy"), "Sources n"))
        commands.append(("New workflow from a template", partial(_push_form, app, "template"), "Workflows n"))
        other = "development" if session.environment == "production" else "production"
        commands.append(
            (f"Connect environment: {other}", partial(app.set_environment, other), f"now {session.environment}")
        )
        return commands

    async def discover(self) -> Hits:
        for title, action, help_text in self._commands():
            yield DiscoveryHit(title, action, help=help_text)

    async def search(self, query: str) -> Hits:
        ident = query.strip()
        prefix = kind_of(ident)
        app: Any = self.app
        if prefix is not None and " " not in ident:
            yield Hit(
                1.0,
                Text(f"Open {KIND_NAMES[prefix]} {visible(ident, 60)}"),
                partial(app.open_id, ident),
                help="open by id",
            )
        if prefix == "tch_" and " " not in ident:
            yield Hit(
                0.9,
                Text(f"New workflow from template {visible(ident, 60)}"),
                partial(_push_form, app, "template", ident),
                help="create",
            )
        matcher = self.matcher(query)
        for title, action, help_text in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), action, help=help_text)


def _push_form(app: Any, which: str, ident: str = "") -> None:
    """The props forms from the palette (imported here: the palette loads before any form is needed)."""
    if which == "deploy":
        from .forms.source import deploy_form

        deploy_form(app)
    else:
        from .forms.workflow import TemplateWorkflowForm

        app.push_screen(TemplateWorkflowForm(ident))
