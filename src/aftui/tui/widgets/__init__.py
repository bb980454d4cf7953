"""Reusable widgets, the bottom of the TUI: they import no form, screen or modal."""
