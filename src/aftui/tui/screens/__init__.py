"""The panes of the sidebar and the screens they open: details, the monitor, replay, start and profile."""
