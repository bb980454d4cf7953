"""Names wherever ids are taken: `aftui events "Order webhooks"` as well as `aftui events dc_abc123`.

An argument that looks like an id of a kind the command takes is used as it
is. Anything else is a name, looked up where that kind can be listed:

- sources: the workspace's source list (name, then its slug);
- workflows: the workflows aftui knows, then the names the journal's
  `$errors` events carry, then (only if still unknown) the workspace's
  subscriptions and those workflows' details, as the Workflows pane finds
  them. What is found joins the known workflows;
- webhooks: the user's webhook list (name, else URL);
- accounts: the account list (nickname).

A name is matched exactly first, then without regard to case. Two matches
are an `Ambiguous` error (exit 2) listing every candidate with its id; none
is `NoSuchName` (exit 4) with the nearest names offered.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

from ..api import ApiError, Client, is_transient, iterate
from ..api.models import Account, EventSummary, Source, Webhook
from ..api.paging import Fetch
from ..ids import KINDS
from ..known import KnownWorkflows
from ..masking import url_secrets_masked
from ..text import visible
from .workflows import discover, org_key

__all__ = ["ID", "Ambiguous", "Candidate", "Names", "NoSuchName", "kind_of", "looks_like_id"]

ID = re.compile(r"^(dc|p|wh|sub|apn|app|oa|sc|tch|o|u|proj|hi|ti|ei)_[A-Za-z0-9]{3,}$")
GLOBS = ("p_*", "dc_*")
WORDS = {"source": "sources", "workflow": "workflows", "webhook": "webhooks", "account": "accounts"}
MAX_SUGGESTIONS = 5
SPELLED_ALIKE = 0.75  # difflib's ratio from which a name is offered ("Validate ordres")
JOURNAL_ERRORS = 500  # `$errors` events of the journal read for a workflow's name


def looks_like_id(text: str) -> bool:
    return bool(ID.match(text))


def kind_of(text: str) -> str | None:
    """The kind an id names by its prefix (None for anything that is not an id)."""
    if not looks_like_id(text):
        return None
    return next(kind for prefix, kind in KINDS.items() if text.startswith(prefix))


@dataclass(frozen=True)
class Candidate:
    kind: str
    id: str
    name: str
    note: str = ""  # where it was found, its state: shown when the name is ambiguous
    slug: str | None = None


def _kinds_words(kinds: Sequence[str]) -> str:
    words = list(kinds)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


class Ambiguous(ValueError):
    """More than one thing has that name: exit 2, the candidates listed."""

    def __init__(self, text: str, candidates: Sequence[Candidate]) -> None:
        self.text = text
        self.candidates = list(candidates)
        lines = [f"{len(candidates)} things are named {visible(text, 80)!r}; give one of their ids:"]
        width = max(len(c.id) for c in candidates)
        for c in candidates:
            note = f"  ({c.note})" if c.note else ""
            lines.append(f"  {c.id.ljust(width)}  {c.kind:<8}  {visible(c.name, 60)}{note}")
        super().__init__("\n".join(lines))


class NoSuchName(LookupError):
    """Nothing has that name (or id): exit 4, with the nearest names when there are some."""

    def __init__(self, text: str, kinds: Sequence[str], near: Sequence[Candidate] = (), where: str = "") -> None:
        self.text = text
        message = f"no {_kinds_words(kinds)} named {visible(text, 80)!r}{where}"
        if near:
            message += "; did you mean: " + ", ".join(f"{visible(c.name, 40)!r} ({c.id})" for c in near)
        super().__init__(message)


def workflow_names_in(errors: Iterable[EventSummary]) -> Iterator[tuple[str, str]]:
    """(workflow id, workflow name) of each `$errors` event that carries both, in the events' order."""
    for event in errors:
        error = event.error()
        context = error.original_context if error else None
        if context is not None and context.workflow_id and context.workflow_name:
            yield context.workflow_id, context.workflow_name


def match(text: str, candidates: Iterable[Candidate]) -> list[Candidate]:
    """The candidates named `text`: exactly if any is, else regardless of case, else by slug."""
    pool = list({(c.kind, c.id): c for c in candidates}.values())
    folded = text.casefold()
    for rule in ("exact", "case", "slug"):
        found = [c for c in pool if c.name and _same(rule, c, text, folded)]
        if found:
            return _merge(found)
    return []


def _same(rule: str, candidate: Candidate, text: str, folded: str) -> bool:
    if rule == "exact":
        return candidate.name == text
    if rule == "case":
        return candidate.name.casefold() == folded
    return candidate.slug is not None and candidate.slug == text


def _merge(found: list[Candidate]) -> list[Candidate]:
    """One candidate per (kind, id): the same workflow known and in the journal is one."""
    seen: dict[tuple[str, str], Candidate] = {}
    for c in found:
        seen.setdefault((c.kind, c.id), c)
    return list(seen.values())


def near(text: str, candidates: Iterable[Candidate]) -> list[Candidate]:
    """Names for a "did you mean", nearest first: those that hold the text (or that it holds), those that have
    each of its words ("Validate orders": "Validate and forward orders"), then those spelled alike."""
    folded = text.casefold()
    words = folded.split()

    def closeness(candidate: Candidate) -> float:
        name = candidate.name.casefold()
        if folded in name or name in folded:
            return 3.0
        if words and all(word in name.split() for word in words):
            return 2.0
        return SequenceMatcher(None, folded, name).ratio()

    scored = [(closeness(c), c) for c in candidates if c.name]
    pool = _merge([c for score, c in sorted(scored, key=lambda pair: -pair[0]) if score >= SPELLED_ALIKE])
    return pool[:MAX_SUGGESTIONS]


class Names:
    """Resolves names for one client; each list is read once per command."""

    def __init__(self, client: Client, *, known: KnownWorkflows | None = None, journal: Path | None = None) -> None:
        self.client = client
        self.known = known
        self.journal = journal
        self._sources: list[Source] | None = None
        self._webhooks: list[Webhook] | None = None
        self._accounts: list[Account] | None = None

    # --- the lists ----------------------------------------------------------------------------------

    async def sources(self) -> list[Source]:
        if self._sources is None:
            client = self.client
            fetch: Fetch[Source] = (
                (lambda **p: client.list_workspace_sources(client.org_id, **p))
                if client.org_id
                else client.list_sources
            )
            self._sources = [s async for s in iterate(fetch)]
        return self._sources

    async def webhooks(self) -> list[Webhook]:
        if self._webhooks is None:
            self._webhooks = [w async for w in iterate(self.client.list_webhooks)] if self.client.uses_user_key else []
        return self._webhooks

    async def accounts(self) -> list[Account]:
        if self._accounts is None:
            self._accounts = [a async for a in iterate(self.client.list_accounts)]
        return self._accounts

    def known_workflows(self) -> list[Candidate]:
        if self.known is None:
            return []
        out = []
        for ident, name in self.known.names_in(org_key(self.client)).items():
            if name:
                out.append(Candidate("workflow", ident, name, "known workflow"))
        return out

    def journal_workflows(self, text: str) -> list[Candidate]:
        """Workflows named `text` in the `$errors` events the journal keeps (their `workflow_name`)."""
        if self.journal is None or not self.journal.exists():
            return []
        import sqlite3

        from ..journal.store import Journal

        try:
            with Journal(self.journal) as journal:
                phrase = '"' + text.replace('"', '""') + '"'
                events = journal.search(phrase, channel="$errors", limit=JOURNAL_ERRORS)
        except (sqlite3.Error, OSError):
            return []
        return [Candidate("workflow", ident, name, "in the journal") for ident, name in workflow_names_in(events)]

    async def _candidates(self, kind: str, text: str) -> list[Candidate]:
        try:
            return await self._listed(kind, text)
        except ApiError as error:
            if kind not in ("source", "webhook") or not is_transient(error):
                raise
            # In an outage, the names the last list printed (kept for completion): `tail "Order webhooks"` exited
            # 5 at once where `tail dc_…` waited for the service to come back.
            from . import output, seen

            last = seen.offered(org_key(self.client), [kind])
            if not any(name.strip().casefold() == text.casefold() for name in last.values()):
                raise
            output.say(f"the {kind}s could not be listed ({error.message}): {text!r} is named from the last list")
            return [Candidate(kind, ident, name) for ident, name in last.items()]

    async def _listed(self, kind: str, text: str) -> list[Candidate]:
        if kind == "source":
            return [
                Candidate("source", s.id, s.name or "", "active" if s.active else "inactive", s.name_slug)
                for s in await self.sources()
            ]
        if kind == "webhook":
            return [
                Candidate("webhook", w.id, w.name or w.url, _webhook_note(w.url, w.active))
                for w in await self.webhooks()
            ]
        if kind == "account":
            return [
                Candidate("account", a.id, a.name or "", a.app.name or "" if a.app else "")
                for a in await self.accounts()
            ]
        if kind == "workflow":
            return self.known_workflows() + self.journal_workflows(text)
        return []

    async def _discovered_workflows(self) -> list[Candidate]:
        """The workflows the workspace's subscriptions and errors name, remembered as the TUI would."""
        if self.known is None:
            return []
        problems: list[str] = []
        found = await discover(self.client, self.known, None, problems)
        out = []
        for ident, workflow in found.details.items():
            if workflow.name:
                out.append(Candidate("workflow", ident, workflow.name, "found in subscriptions or errors"))
        return out + self.known_workflows()

    # --- resolving -------------------------------------------------------------------------------------

    async def resolve(self, text: str, kinds: Sequence[str], *, globs: bool = False) -> Candidate:
        """The one thing of one of `kinds` that `text` names (an id of such a kind is taken as it is)."""
        text = text.strip()
        if not text:
            raise ValueError(f"an empty name: give a {_kinds_words(kinds)} id or name")
        if globs and text in GLOBS:
            return Candidate(
                "source" if text == "dc_*" else "workflow", text, "all sources" if text == "dc_*" else "all workflows"
            )
        kind = kind_of(text)
        if kind is not None:
            if kind not in kinds:
                raise ValueError(f"{text} is a {kind} id; a {_kinds_words(kinds)} is expected here")
            return Candidate(kind, text, "")
        pool: list[Candidate] = []
        problems: list[str] = []
        for wanted in kinds:
            try:
                pool += await self._candidates(wanted, text)
            except ApiError as error:
                if len(kinds) == 1:
                    raise
                problems.append(f"{WORDS.get(wanted, wanted)}: {error.message}")
        found = match(text, pool)
        if not found and "workflow" in kinds:
            found = match(text, pool + await self._discovered_workflows())
        if len(found) > 1:
            raise Ambiguous(text, found)
        if found:
            chosen = found[0]
            if chosen.kind == "workflow" and self.known is not None:
                self.known.add(org_key(self.client), chosen.id, name=chosen.name, found="name")
            return chosen
        where = f" ({'; '.join(problems)})" if problems else ""
        other = await self._named_otherwise(text, kinds)
        if other is not None:  # `aftui errors "Order webhooks"`: it is a source, said as such
            where += f"; {visible(text, 80)!r} is a {other.kind} ({other.id})"
        raise NoSuchName(text, kinds, near(text, pool), where)

    async def _named_otherwise(self, text: str, kinds: Sequence[str]) -> Candidate | None:
        """A source, workflow or webhook of that very name, when another kind was asked for (None if none, or
        if they cannot be read: this only adds to a message)."""
        for kind in ("source", "workflow", "webhook"):
            if kind in kinds:
                continue
            try:
                found = match(text, await self._candidates(kind, text))
            except ApiError:
                continue
            if found:
                return found[0]
        return None

    async def label(self, chosen: Candidate) -> str:
        """What people's lines call `chosen`: its name, as the TUI shows it; its id where it has none.

        A source named by its id is looked up (one request); a workflow named by its id takes the name
        aftui remembers for it, if any (the API has no read of a workflow).
        """
        name = chosen.name
        if not name and chosen.kind == "workflow":
            name = next((c.name for c in self.known_workflows() if c.id == chosen.id), "")
        if not name and chosen.kind == "source":
            with contextlib.suppress(ApiError):
                name = (await self.client.get_source(chosen.id)).name or ""
        return name or chosen.id

    async def id_of(self, text: str, kinds: Sequence[str], *, globs: bool = False) -> str:
        return (await self.resolve(text, kinds, globs=globs)).id

    async def source(self, text: str) -> str:
        return await self.id_of(text, ("source",))

    async def workflow(self, text: str) -> str:
        return await self.id_of(text, ("workflow",))

    async def webhook(self, text: str) -> str:
        return await self.id_of(text, ("webhook",))


def _webhook_note(url: str, active: bool | None) -> str:
    """Its state, as a source's, then where it posts (masked): two of one name differ by one or the other."""
    state = "" if active is None else ("active, " if active else "inactive, ")
    return state + url_secrets_masked(url)
