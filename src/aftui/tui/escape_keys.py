"""The keys Textual reads when esc and a digit or a letter arrive together.

A terminal sends esc as a lone byte, and Textual waits a moment (its escape
delay) to tell it from the start of a sequence. A key typed at once, or
bundled with it by an SSH link, makes the two bytes one sequence:

- a digit is read as a Mac's Option+digit (Option+4 types "¢"): the key
  `cent_sign`, the esc gone;
- a letter is read as alt+letter (esc m is `alt+m`, esc E `alt+shift+e`),
  which nothing in aftui binds: both keys gone.

aftui binds those keys to do both: what esc does where the user is, then the
key (`AftuiApp.action_escape_then_pane`, `AftuiApp.action_escape_then_key`).
Not b and f: Textual reads esc b and esc f as ctrl+left and ctrl+right (a
Mac's Option+arrow), which move by word in a field. Nor punctuation: esc /
reaches aftui as / alone, the esc dropped by Textual's parser, with nothing
left to tell it from a / typed alone.
"""

from __future__ import annotations

import string
import unicodedata

# What Option+0 ... Option+9 type on a Mac (US layout), the characters Textual gives esc 0 ... esc 9.
OPTION_DIGITS = "º¡™£¢∞§¶•ª"


def option_key(digit: str) -> str:
    """The key name Textual gives esc then `digit`: the character's Unicode name, as its key names are made."""
    character = OPTION_DIGITS[int(digit)]
    if character.isalnum():  # º and ª: letters to Unicode, so named by themselves
        return character
    return unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")


def alt_letter_keys() -> dict[str, str]:
    """The key name Textual gives esc then a letter, to the letter's own key name (`alt+shift+e` to `E`)."""
    keys = {f"alt+{c}": c for c in string.ascii_lowercase} | {
        f"alt+shift+{c.lower()}": c for c in string.ascii_uppercase
    }
    return {alt: letter for alt, letter in keys.items() if letter.lower() not in "bf"}  # b, f: ctrl+left, ctrl+right


# Not keys to learn (the Keys screen leaves them out): what esc and a digit or a letter become.
OPTION_KEYS = frozenset(option_key(digit) for digit in "0123456789") | frozenset(alt_letter_keys())
