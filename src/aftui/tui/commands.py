"""The palette (ctrl+p or `:`): go to a pane, open an id or a thing by name (and act on it: `palette_items.py`),
switch workspace, environment or profile."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.dom import DOMNode
from textual.fuzzy import Matcher
from textual.markup import escape

from ..config import ConfigError, Profile, load_config
from ..ids import KINDS
from ..text import visible
from .host import host
from .opener import kind_of
from .palette_items import resource_actions
from .panes import pane_specs
from .screens.profile import edit_profile, stored_profile, switch_profile
from .screens.sources import deploy_form

Command = tuple[str, Callable[[], object], str]  # title, what it does, help


# The palette reads a plain string as markup, and its matcher's highlight parses the title as markup too: a
# source named "[bold red]ALERT[/]" was drawn red with its brackets gone. Titles hold the service's names, so
# they go in as Content, highlighted here, and the help as escaped markup.
def plain(title: str, matcher: Matcher | None = None) -> Content:
    """`title` as it is, with the letters `matcher` matched in its match style."""
    content = Content(title)
    if matcher is None:
        return content
    _, offsets = matcher.fuzzy_search.match(matcher.query, title)
    for offset in offsets:
        if not title[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


def discovery(title: str, action: Callable[[], object], help_text: str) -> DiscoveryHit:
    return DiscoveryHit(plain(title), action, text=title, help=escape(help_text))


def hit(score: float, title: str, matcher: Matcher, action: Callable[[], object], help_text: str) -> Hit:
    return Hit(score, plain(title, matcher), action, text=title, help=escape(help_text))


class AftuiCommands(Provider):
    def _commands(self) -> list[Command]:
        app = host(self)
        session = app.session
        if session is None:
            return []
        commands: list[Command] = [
            (f"Go to {spec.title}", partial(app.go_to_pane, spec.id), f"pane {spec.key}") for spec in pane_specs()
        ]
        if session.user is not None:
            for org in session.user.orgs:
                if org.id == session.client.org_id:
                    continue  # the one the header names: switching to it changes nothing
                label = visible(org.name or org.orgname or org.id, 40)
                commands.append((f"Switch workspace: {label}", partial(app.set_workspace, org.id), org.id))
        commands.append(("Live monitor: events and errors as they arrive", app.action_monitor, "m"))
        commands.append(("Alerts of this session: what fired, and is it still failing", app.action_alerts, "!"))
        commands.append(("Deploy a source", partial(_push_form, self.app, "deploy"), "Sources n"))
        commands.append(("New workflow from a template", partial(_push_form, self.app, "template"), "Workflows n"))
        other = "development" if session.environment == "production" else "production"
        commands.append(
            (f"Connect environment: {other}", partial(app.set_environment, other), f"now {session.environment}")
        )
        return commands

    async def discover(self) -> Hits:
        for title, action, help_text in self._commands():
            yield discovery(title, action, help_text)

    async def search(self, query: str) -> Hits:
        ident = query.strip()
        prefix = kind_of(ident)
        app = host(self)
        if prefix is not None and " " not in ident:
            yield Hit(
                1.0,
                Text(f"Open {KINDS[prefix]} {visible(ident, 60)}"),
                partial(app.open_id, ident),
                help="open by id",
            )
        if prefix == "tch_" and " " not in ident:
            yield Hit(
                0.9,
                Text(f"New workflow from template {visible(ident, 60)}"),
                partial(_push_form, self.app, "template", ident),
                help="create",
            )
        matcher = self.matcher(query)
        for title, action, help_text in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield hit(score, title, matcher, action, help_text)
        if prefix is not None and " " not in ident:
            return  # an id: opened above; names would only crowd it
        for item in resource_actions(self.app):
            score = matcher.match(item.title)
            if score > 0:
                yield hit(score, item.title, matcher, item.run, visible(item.help, 60))


def _push_form(node: DOMNode, which: str, ident: str = "") -> None:
    """The props forms from the palette (the workflow form imported here: the palette loads before any form is needed)."""
    if which == "deploy":
        deploy_form(node)
    else:
        from .forms.workflow import TemplateWorkflowForm

        node.app.push_screen(TemplateWorkflowForm(ident))


class ProfileCommands(Provider):
    """Palette: switch to another profile, edit this one, add one."""

    profiles: dict[str, Profile] = {}

    async def startup(self) -> None:
        try:
            self.profiles = load_config().profiles
        except ConfigError:
            self.profiles = {}

    def _commands(self) -> list[Command]:
        app = host(self)
        session = app.session
        if session is None:
            return []
        commands: list[Command] = [
            (f"Switch profile: {visible(name, 40)}", partial(switch_profile, self.app, name), _profile_help(profile))
            for name, profile in sorted(self.profiles.items())
            if session.demo or name != session.profile_name
        ]
        if app.profile is not None:
            label = visible(app.profile.name, 40)
            commands.append(
                (
                    f"Edit profile: {label}",
                    partial(edit_profile, self.app, stored_profile(app.profile)),
                    "base URL, key, workspace",
                )
            )
        commands.append(("Add a profile", partial(edit_profile, self.app, None), "tests the key, then saves it"))
        return commands

    async def discover(self) -> Hits:
        for title, action, help_text in self._commands():
            yield discovery(title, action, help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, action, help_text in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield hit(score, title, matcher, action, help_text)


def _profile_help(profile: Profile) -> str:
    parts = [visible(profile.base_url, 50), profile.org_id or "", "read-only" if profile.read_only else ""]
    return " · ".join(part for part in parts if part)
