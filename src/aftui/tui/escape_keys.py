"""The key Textual reads when esc and a digit arrive together.

A terminal sends esc as a lone byte, and Textual waits a moment (its escape
delay) to tell it from the start of a sequence. A digit typed at once, or
bundled with it by an SSH link, makes the two bytes one sequence, which
Textual's table reads as a Mac's Option+digit (Option+4 types "¢"): the key
`cent_sign`, the esc gone. aftui binds those keys to do both: what esc does
where the user is, then the pane key (`AftuiApp.action_escape_then_pane`).
"""

from __future__ import annotations

import unicodedata

# What Option+0 ... Option+9 type on a Mac (US layout), the characters Textual gives esc 0 ... esc 9.
OPTION_DIGITS = "º¡™£¢∞§¶•ª"


def option_key(digit: str) -> str:
    """The key name Textual gives esc then `digit`: the character's Unicode name, as its key names are made."""
    character = OPTION_DIGITS[int(digit)]
    if character.isalnum():  # º and ª: letters to Unicode, so named by themselves
        return character
    return unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")


# Not keys to learn (the Keys screen leaves them out): what esc and a digit become.
OPTION_KEYS = frozenset(option_key(digit) for digit in "0123456789")
