"""The exit codes of every aftui command (documented in `--help`)."""

OK, USAGE, AUTH, NOT_FOUND, NETWORK = 0, 2, 3, 4, 5

HELP = """exit codes:
  0  ok
  2  usage error (bad arguments, bad configuration, refused request)
  3  authentication failed (401/403)
  4  not found
  5  network or server error
"""
