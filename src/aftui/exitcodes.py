"""The exit codes of every aftui command (documented in `--help`)."""

OK, USAGE, AUTH, NOT_FOUND, NETWORK = 0, 2, 3, 4, 5

# The codes every command shares; `health --failing` and `replay` say their own 0 and 1 before them.
SHARED = """  2  usage error (bad arguments, bad configuration, refused request)
  3  authentication failed (401/403)
  4  not found
  5  network or server error
"""

HELP = "exit codes:\n  0  ok\n  1  only from health --failing and replay: see their --help\n" + SHARED
