"""What the user chose in the TUI, kept in the config file (`[ui]`) and found again on the next run.

The theme (the palette's "Change theme") and the sidebar (ctrl+b). They are
written when they change, on a thread (the main thread never waits on a
disk), through `save_ui_choice`: the config is read again, so a profile added
meanwhile by `aftui config add` is kept, and replaced atomically, 0600.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.theme import Theme

from ..config import ConfigError, UiChoices, load_config, save_ui_choice


def saved_choices() -> UiChoices:
    """The choices in the config file; none when it cannot be read (the CLI says why at start)."""
    try:
        return load_config().ui
    except ConfigError:
        return UiChoices()


def restore_theme(app: App[Any], choices: UiChoices) -> None:
    """Put the saved theme back, then save the theme whenever it changes."""
    if choices.theme and choices.theme in app.available_themes:
        app.theme = choices.theme
    saved = [app.theme]

    def changed(theme: Theme) -> None:
        if theme.name != saved[0]:
            saved[0] = theme.name
            remember(app, theme=theme.name)

    app.theme_changed_signal.subscribe(app, changed)


def remember(app: App[Any], **choice: Any) -> None:
    """Write `choice` to the config file on a thread; a failure is said, the choice still holds for this run."""

    def write() -> None:
        try:
            save_ui_choice(**choice)
        except ConfigError as error:
            app.call_from_thread(
                app.notify, f"Not saved for next time: {error}", severity="warning", markup=False, timeout=8
            )

    app.run_worker(write, thread=True, group="ui-choice", exit_on_error=False)
