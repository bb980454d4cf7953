"""The commands that run without the TUI: config, whoami, events, tail."""
