"""NO_COLOR: every colour drawn as a grey, and every grey readable on the grey behind it.

Textual honours NO_COLOR with its `Monochrome` filter: each colour becomes the grey of its brightness.
Red is a dark colour, so the words aftui draws in red (what is failing, the failing rows' marks and
counts) came out as grey 237 on a background of 233: the exact rows a paged user looks for, unreadable.
`ReadableMonochrome` makes the same greys, then moves a foreground too close to its background to the
far end of the scale. Emphasis stays with bold and reverse video, which NO_COLOR leaves alone.
"""

from __future__ import annotations

from functools import lru_cache

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

# Brightness runs 0-1: a foreground nearer its background than this is moved to the far end of the scale.
MIN_CONTRAST = 0.4
LIGHT = Color(238, 238, 238)
DARK = Color(18, 18, 18)


@lru_cache(4096)
def readable_grey(style: Style, background: Color) -> Style:
    """`style` in greys, its foreground at least MIN_CONTRAST away from its background (its own, or the
    one behind it when it has none)."""
    back = Color.from_rich_color(style.bgcolor).monochrome if style.bgcolor is not None else background.monochrome
    fore = Color.from_rich_color(style.color).monochrome if style.color is not None else None
    if fore is not None and abs(fore.brightness - back.brightness) < MIN_CONTRAST:
        fore = LIGHT if back.brightness < 0.5 else DARK
    return style + Style.from_color(
        fore.rich_color if fore is not None else None,
        back.rich_color if style.bgcolor is not None else None,
    )


class ReadableMonochrome(LineFilter):
    """Textual's Monochrome, with the contrast kept (see the module's docstring)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        grey = readable_grey
        return [Segment(text, None if style is None else grey(style, background), None) for text, style, _ in segments]
