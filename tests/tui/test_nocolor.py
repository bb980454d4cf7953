"""NO_COLOR: greys that stay readable on the grey behind them."""

from __future__ import annotations

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.color import Color

from aftui.tui.nocolor import MIN_CONTRAST, ReadableMonochrome, readable_grey

DARK_BACKGROUND = Color(18, 18, 18)


def brightness(style: Style, background: Color) -> tuple[float, float]:
    fore = Color.from_rich_color(style.color).brightness if style.color is not None else 1.0
    back = Color.from_rich_color(style.bgcolor).brightness if style.bgcolor is not None else background.brightness
    return fore, back


@pytest.mark.parametrize("colour", ["red", "bold red", "#ba3c5b", "dark_red", "blue", "grey23"])
def test_a_dark_colour_on_a_dark_background_comes_out_light(colour: str) -> None:
    """Textual's Monochrome drew "2 failing in the last hour" (bold red) as grey 237 on 233."""
    fore, back = brightness(readable_grey(Style.parse(colour), DARK_BACKGROUND), DARK_BACKGROUND)
    assert fore - back >= MIN_CONTRAST


def test_greys_with_contrast_enough_are_kept_and_styles_and_light_backgrounds_too() -> None:
    kept = readable_grey(Style(color="#c0c0c0", bold=True), DARK_BACKGROUND)
    assert kept.bold and kept.color is not None and Color.from_rich_color(kept.color) == Color(192, 192, 192)
    on_light = readable_grey(Style(color="#e0e040", bgcolor="#f0f0f0"), DARK_BACKGROUND)
    fore, back = brightness(on_light, DARK_BACKGROUND)
    assert back - fore >= MIN_CONTRAST  # dark on the light background it has of its own
    assert readable_grey(Style(reverse=True), DARK_BACKGROUND).reverse


def test_the_filter_keeps_the_text_and_the_app_uses_it_under_no_color(make_app, monkeypatch) -> None:
    (segment,) = ReadableMonochrome().apply([Segment("failing", Style(color="red"))], DARK_BACKGROUND)
    assert segment.text == "failing" and segment.style is not None
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    assert any(isinstance(f, ReadableMonochrome) for f in app._filters)
    assert not any(type(f).__name__ == "Monochrome" for f in app._filters)
