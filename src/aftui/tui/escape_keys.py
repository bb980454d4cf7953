"""The keys Textual reads when esc and a digit or a letter arrive together.

A terminal sends esc as a lone byte, and Textual waits a moment (its escape
delay) to tell it from the start of a sequence. A key typed at once, or
bundled with it by an SSH link, makes the two bytes one sequence, which
Textual reads as alt and the key: esc m is `alt+m`, esc E `alt+shift+e`,
esc 4 `alt+4`. Nothing in aftui binds those, so both keys were lost; aftui
binds them to do both: what esc does where the user is, then the key
(`AftuiApp.action_escape_then_pane`, `AftuiApp.action_escape_then_key`).

Textual's own table read esc and a digit as a Mac's Option+digit character
instead (esc 4 was "¢", the key `cent_sign`), which a field being typed in
took as text: esc 2 in a filter typed "™" into it and emptied the list.
`read_esc_digits_as_alt` drops those ten entries. A "£" typed on a UK
keyboard is its own character, not esc 3, and is still typed.

Not b and f: Textual reads esc b and esc f as ctrl+left and ctrl+right (a
Mac's Option+arrow), which move by word in a field. Nor punctuation: esc /
reaches aftui as / alone, the esc dropped by Textual's parser, with nothing
left to tell it from a / typed alone.
"""

from __future__ import annotations

import string

from textual._ansi_sequences import ANSI_SEQUENCES_KEYS


def read_esc_digits_as_alt() -> None:
    """Have Textual read esc then a digit as alt+digit, as it reads esc then a letter (idempotent).

    The table is Textual's, typed as a Mapping; were it ever made read-only, esc 4 would be "¢" again, and
    tests/tui/test_keys.py, which reads esc 4 through Textual's parser, says so."""
    if isinstance(ANSI_SEQUENCES_KEYS, dict):
        for digit in string.digits:
            ANSI_SEQUENCES_KEYS.pop(f"\x1b{digit}", None)


def alt_digit_keys() -> dict[str, str]:
    """The key name Textual gives esc then a digit (once `read_esc_digits_as_alt` ran), to the digit."""
    return {f"alt+{digit}": digit for digit in string.digits}


def alt_letter_keys() -> dict[str, str]:
    """The key name Textual gives esc then a letter, to the letter's own key name (`alt+shift+e` to `E`)."""
    keys = {f"alt+{c}": c for c in string.ascii_lowercase} | {
        f"alt+shift+{c.lower()}": c for c in string.ascii_uppercase
    }
    return {alt: letter for alt, letter in keys.items() if letter.lower() not in "bf"}  # b, f: ctrl+left, ctrl+right


# Not keys to learn (the Keys screen leaves them out): what esc and a digit or a letter become.
ESCAPED_KEYS = frozenset(alt_digit_keys()) | frozenset(alt_letter_keys())
