"""The monitor's lines: each stream's state for the header, and the selected event's heading."""

from __future__ import annotations

from rich.text import Text

from ...api.stream import StreamState
from ...monitor import Record, Target
from ...replay.states import replay_id_of
from ...text import visible

LABEL_LIMIT = 28  # characters of a stream's label in the header's line (three fit at 120 columns)
# A workflow's name said once for its two feeds: the line's 44 cells at 80 columns hold it, the kinds and the state.
ONE_EMITTER_NAME_LIMIT = 18

_PHASES: dict[str, tuple[str, str]] = {
    "live": ("●", "green"),
    "connecting": ("◌", "yellow"),
    "reconnecting": ("◌", "yellow"),
    "failed": ("✖", "red"),
    "closed": ("○", "dim"),
}


def streams_text(states: dict[str, tuple[Target, StreamState]], width: int = 0) -> Text:
    """Each stream's state; with more than three, the count of each state and the troubled ones by name.
    `width`: the line's cells, once known (a workflow's name then takes what its feeds' states leave)."""
    if not states:
        return Text("no streams", style="dim")
    pairs = sorted(states.values(), key=lambda pair: (pair[1].phase == "live", pair[0].label.lower()))
    if len(pairs) > 1 and len({target.emitter_id for target, _ in pairs}) == 1:
        return _one_line(_one_emitter(pairs, width))
    if len(pairs) <= 3:
        return _one_line(Text("  ").join(_one_state(target, state) for target, state in pairs))
    counts: dict[str, int] = {}
    for _, state in pairs:
        counts[state.phase] = counts.get(state.phase, 0) + 1
    # The troubled by name first, with why: the line is cut at its end, and at 80 columns the counts
    # before them left "◌ Order…" of a stream's reason.
    troubled = [_one_state(t, s) for t, s in pairs if s.phase in ("reconnecting", "failed")][:2]
    # "● 30 feeds live": "● 30 live" did not say 30 of what (an on-call walk).
    tallies = [
        Text(
            f"{_PHASES.get(phase, ('?', ''))[0]} {n} feed{'s' * (n != 1)} {phase}",
            style=_PHASES.get(phase, ("", ""))[1],
        )
        for phase, n in sorted(counts.items())
    ]
    return _one_line(Text("  ").join([*troubled, *tallies]))


def _one_line(text: Text) -> Text:
    """Cut at the end of its one line, visibly: wrapped, what did not fit went to a second line never shown."""
    text.no_wrap, text.overflow = True, "ellipsis"
    return text


def _one_state(target: Target, state: StreamState) -> Text:
    # The name is cut, not the kind: "Validate and forward orders…" twice said nothing of which feed was which.
    return _stated(
        visible(target.name or target.emitter_id, LABEL_LIMIT - len(target.kind_word)) + target.kind_word, state
    )


def _stated(label: str, state: StreamState) -> Text:
    """`● label live`: the state's mark and words in its colour."""
    dot, style = _PHASES.get(state.phase, ("?", ""))
    return Text.assemble((f"{dot} ", style), label, (f" {visible(str(state), 60)}", style))


def _one_emitter(pairs: list[tuple[Target, StreamState]], width: int) -> Text:
    """A workflow's events and `$errors`: its name once, then each feed by its kind. Named with each, the
    second feed's state was cut off at 80 columns, and the timeline below leaves the name out. The name is
    cut to the room the rest leaves (at least ONE_EMITTER_NAME_LIMIT): cut to that at 120 columns, it hid
    which of two workflows named alike was watched."""
    target = pairs[0][0]
    full = target.name or target.emitter_id
    phases = {state.phase for _, state in pairs}
    if len(phases) == 1:  # the usual case, in one state: "● orders: $errors, events live"
        kinds = ", ".join(t.kind_word.strip() for t, _ in pairs)
        rest = len(f"● : {kinds} {visible(str(pairs[0][1]), 60)}")
        name = visible(full, max(ONE_EMITTER_NAME_LIMIT, width - rest))
        return _stated(f"{name}: {kinds}", pairs[0][1])
    name = visible(full, ONE_EMITTER_NAME_LIMIT)
    feeds = Text("  ").join(_stated(t.kind_word.strip(), s) for t, s in pairs)  # the troubled first (sorted)
    return Text.assemble(f"{name}: ", feeds)


def detail_head(record: Record) -> Text:
    event = record.event
    size = event.metadata.event_size
    cut = event.truncated
    return Text.assemble(
        (visible(event.id or "(no id)", 30), "bold"),
        "  ",
        record.stamp() + " UTC",
        "  ",
        (visible(record.name, 40), "cyan"),
        " ",
        (visible(record.emitter_id, 20), "dim"),
        "  ",
        (visible(record.channel, 20), "magenta"),
        (
            f"  cut, {size:,} B: fetching the full event…"
            if cut and size
            else "  cut: fetching the full event…"
            if cut
            else "",
            "yellow",
        ),
        ("  from the journal" if record.history else "", "dim"),
        ("  ↻ a replay of an earlier error, failed again" if record.is_error and replay_id_of(event) else "", "cyan"),
    )
