"""aftui's log: the file in the data dir, its level, the masking of secrets, and who writes to it."""

from __future__ import annotations

import logging
import logging.config
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import uvicorn.config

from aftui import cli, logs
from aftui.api.models import EventSummary
from aftui.config import Profile
from aftui.emulator.server import Options, serve_in_thread
from aftui.journal import Journal, JournalWriter

# Shaped like the service's credentials: 32 letters and digits, and a longer client secret.
KEY = "Xk3f9QzL0pR7sT2vW8yB4nM6cD1eF5gH"
CLIENT_SECRET = "cs_4T9mQ2xL7vR0pZ8kW3nB6yH1dF5sJ9gC2"
PASSWORD = "hunter2-battery"

log = logging.getLogger("aftui.tests.logs")


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The data dir (not created yet), a config file of no profiles, and none of the caller's AFTUI_* variables."""
    for variable in list(os.environ):
        if variable.startswith(("AFTUI_", "XDG_")):
            monkeypatch.delenv(variable)
    monkeypatch.setenv("AFTUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("AFTUI_CONFIG", str(tmp_path / "config.toml"))
    return tmp_path / "data"


@pytest.fixture
def lax_umask() -> Iterator[None]:
    previous = os.umask(0)  # what a careless shell might have: everything world-writable
    try:
        yield
    finally:
        os.umask(previous)


def aftui(*args: str, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`aftui ARGS` in a subprocess, with the environment the `data` fixture set up."""
    env = {**os.environ, **(extra or {})}
    return subprocess.run(
        [sys.executable, "-m", "aftui.cli", *args], env=env, capture_output=True, text=True, timeout=30
    )


# --- the file ----------------------------------------------------------------------------------------


def test_the_file_is_created_0600_in_the_data_dir(data: Path, lax_umask: None) -> None:
    with logs.configured(logging.WARNING) as path:
        log.warning("hello %s", "there")
    assert path == data / "aftui.log"
    assert mode(path) == 0o600 and mode(data) == 0o700
    assert " WARNING aftui.tests.logs: hello there\n" in path.read_text()


def test_an_old_file_readable_by_others_is_made_private(data: Path) -> None:
    data.mkdir()
    (data / "aftui.log").write_text("from before\n")
    (data / "aftui.log").chmod(0o644)
    with logs.configured(logging.WARNING) as path:
        log.warning("appended")
    assert path is not None and mode(path) == 0o600
    assert path.read_text().startswith("from before\n") and "appended" in path.read_text()


def test_rotated_files_are_private_too(data: Path, lax_umask: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logs, "MAX_BYTES", 400)
    with logs.configured(logging.WARNING):
        for n in range(60):
            log.warning("line %d of a log that fills its file quickly", n)
    files = sorted(p.name for p in data.iterdir())
    assert files == ["aftui.log", "aftui.log.1", "aftui.log.2", "aftui.log.3"]  # three old files, no more
    assert {mode(data / name) for name in files} == {0o600}


def test_the_demo_logs_beside_its_data(data: Path) -> None:
    with logs.configured(logging.WARNING, demo=True) as path:
        log.warning("in the demo")
    assert path == data / "demo" / "aftui.log"
    assert mode(data / "demo") == 0o700 and "in the demo" in path.read_text()


def test_the_tree_is_put_back_afterwards(data: Path) -> None:
    tree = logging.getLogger("aftui")
    before = (tree.level, list(tree.handlers))
    with logs.configured(logging.INFO):
        assert log.getEffectiveLevel() == logging.INFO
        assert len(tree.handlers) == len(before[1]) + 1
    assert (tree.level, tree.handlers) == before


def test_the_file_survives_uvicorns_logging_setup(data: Path) -> None:
    # The demo's emulator starts uvicorn, whose dictConfig closes every handler of the process.
    with logs.configured(logging.WARNING) as path:
        logging.config.dictConfig(uvicorn.config.LOGGING_CONFIG)
        log.warning("after uvicorn")
    assert path is not None and "after uvicorn" in path.read_text() and mode(path) == 0o600


# --- no data dir to write to -------------------------------------------------------------------------


@pytest.fixture
def no_data_dir(data: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data dir that cannot be made: its parent is a file (as root too, unlike a chmod)."""
    blocker = data.parent / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("AFTUI_DATA_DIR", str(blocker / "data"))
    return blocker / "data"


def test_without_a_data_dir_logging_goes_nowhere_and_says_so_once(
    no_data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with logs.configured(logging.DEBUG) as path:
        log.warning("lost")
        log.error("lost too")
    assert path is None
    err = capsys.readouterr().err
    assert err.count(f"aftui: not logging: cannot write {no_data_dir.parent}: ") == 1
    assert "lost" not in err  # no stderr handler was asked for, and Python's last resort is kept out


def test_a_command_still_runs_without_a_data_dir(no_data_dir: Path) -> None:
    done = aftui("config", "path")
    assert done.returncode == 0 and done.stdout.strip().endswith("config.toml")
    assert done.stderr.count("not logging") == 1 and "Traceback" not in done.stderr


# --- the level ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("debug", "variable", "level"),
    [
        (False, None, logging.WARNING),
        (False, "", logging.WARNING),
        (False, "info", logging.INFO),
        (False, " ERROR ", logging.ERROR),
        (False, "Critical", logging.CRITICAL),
        (True, None, logging.DEBUG),
        (True, "error", logging.DEBUG),
    ],
)
def test_the_level_from_debug_and_the_variable(debug: bool, variable: str | None, level: int) -> None:
    environ = {} if variable is None else {"AFTUI_LOG_LEVEL": variable}
    assert logs.level_from(debug, environ) == level


@pytest.mark.parametrize("bad", ["loud", "10", "notset", "warn"])
def test_a_bad_level_is_refused_with_the_good_ones(bad: str) -> None:
    with pytest.raises(
        logs.LevelError, match=rf'^AFTUI_LOG_LEVEL must be one of debug, info, warning, error, critical, got "{bad}"$'
    ):
        logs.level_from(True, {"AFTUI_LOG_LEVEL": bad})


def test_by_default_the_command_logs_no_debug(data: Path) -> None:
    assert aftui("config", "path").returncode == 0
    assert mode(data / "aftui.log") == 0o600
    assert " DEBUG " not in (data / "aftui.log").read_text()


@pytest.mark.parametrize(
    ("args", "variable"),
    [(("--debug",), None), ((), "debug"), ((), "DEBUG"), (("--debug",), "critical")],
)
def test_debug_from_the_flag_or_the_variable(data: Path, args: tuple[str, ...], variable: str | None) -> None:
    done = aftui(*args, "config", "path", extra={} if variable is None else {"AFTUI_LOG_LEVEL": variable})
    assert done.returncode == 0, done.stderr
    assert " DEBUG aftui.cli: aftui config started\n" in (data / "aftui.log").read_text()


def test_the_variable_above_debug_keeps_debug_out(data: Path) -> None:
    assert aftui("config", "path", extra={"AFTUI_LOG_LEVEL": "info"}).returncode == 0
    assert " DEBUG " not in (data / "aftui.log").read_text()


@pytest.mark.parametrize("args", [("config", "path"), ("--debug", "config", "path")])
def test_a_bad_level_is_a_usage_error(data: Path, args: tuple[str, ...]) -> None:
    done = aftui(*args, extra={"AFTUI_LOG_LEVEL": "loud"})
    assert done.returncode == 2
    assert done.stderr.startswith("usage: aftui")
    assert 'AFTUI_LOG_LEVEL must be one of debug, info, warning, error, critical, got "loud"' in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


# --- stderr: the headless commands, never the TUI ----------------------------------------------------


def probe(name: str) -> Callable[[object], int]:
    """A stand-in for a command's body: it logs a warning as the real one might, without drawing a TUI."""

    def run(args: object) -> int:
        logging.getLogger(f"aftui.{name}").warning("%s warns", name)
        return 0

    return run


@pytest.mark.parametrize(("argv", "runner"), [([], "_run_tui"), (["demo"], "_run_demo")])
def test_the_tui_logs_nothing_on_stderr(
    data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], runner: str
) -> None:
    monkeypatch.setattr(cli, runner, probe("tui"))
    assert cli.main(argv) == 0
    assert capsys.readouterr().err == ""
    folder = data / "demo" if argv else data
    assert "WARNING aftui.tui: tui warns" in (folder / "aftui.log").read_text()


def test_the_demos_emulator_logs_to_the_file_not_over_the_tui(
    data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """uvicorn runs the demo's emulator in this process: its warnings go to the log file, never to stderr."""

    def demo(args: object) -> int:
        handle = serve_in_thread(Options(port=0))
        try:
            logging.getLogger("uvicorn.error").warning("the emulator's server warns")
            logging.getLogger("uvicorn.error").info("Started server process")
        finally:
            handle.stop()
        return 0

    monkeypatch.setattr(cli, "_run_demo", demo)
    server = logging.getLogger("uvicorn")
    before = (list(server.handlers), server.propagate, server.level)
    assert cli.main(["demo"]) == 0
    assert capsys.readouterr().err == ""
    text = (data / "demo" / "aftui.log").read_text()
    assert "WARNING uvicorn.error: the emulator's server warns" in text and "Started server process" not in text
    assert (server.handlers, server.propagate, server.level) == before, "uvicorn's loggers are put back"


def test_a_headless_command_warns_on_stderr_too(
    data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "_run_headless", probe("headless"))
    assert cli.main(["whoami"]) == 0
    assert capsys.readouterr().err == "aftui: headless warns\n"  # as every message of a command on stderr reads
    assert "WARNING aftui.headless: headless warns" in (data / "aftui.log").read_text()


# --- secrets -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"Authorization: Bearer {KEY}", KEY),
        (f"{{'Authorization': 'Bearer {KEY}'}}", KEY),
        (f'{{"api_key": "{KEY}", "org_id": "o_abc"}}', KEY),
        (f"POST /oauth/token client_id=abc&client_secret={CLIENT_SECRET}&grant_type=x", CLIENT_SECRET),
        (f"AFTUI_CLIENT_SECRET={CLIENT_SECRET}", CLIENT_SECRET),
        (f"x-api-key: {KEY}", KEY),
        (f"https://dana:{PASSWORD}@api.example.com/v1", PASSWORD),
        (f"the key {KEY} was refused", KEY),
        ("token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkYW5hIn0.c2lnbmF0dXJl", "eyJzdWIiOiJkYW5hIn0"),
        (f"password = '{PASSWORD}'", PASSWORD),
    ],
)
def test_redact_masks_what_looks_like_a_credential(text: str, secret: str) -> None:
    masked = logs.redact(text)
    assert secret not in masked and logs.MASK in masked


@pytest.mark.parametrize(
    "text",
    [
        "source dc_abc1234 failed 3 times",
        "event 1700000000000-0 of workflow p_xyz789",
        "the journal at /home/dana/.local/share/aftui/journal.sqlite3 cannot be opened",
        "api_key_env=WORK_KEY client_secret_cmd=pass",
        "max_tokens=500, 12 credentials checked",
    ],
)
def test_redact_leaves_ordinary_text_alone(text: str) -> None:
    assert logs.redact(text) == text


def test_a_secret_passed_through_a_log_call_is_masked(data: Path, caplog: pytest.LogCaptureFixture) -> None:
    with logs.configured(logging.DEBUG) as path:
        log.info("request headers %s", {"Authorization": f"Bearer {KEY}"})
        log.debug("profile %r", Profile(name="work", api_key=KEY))
        log.warning("a key in passing: %s", KEY)
        log.warning("url %s", f"https://dana:{PASSWORD}@api.example.com/v1")
        try:
            raise RuntimeError(f"token request refused for client_secret={CLIENT_SECRET}")
        except RuntimeError:
            log.exception("the client failed")
    assert path is not None
    text = path.read_text()
    for secret in (KEY, KEY[:4] + "…", CLIENT_SECRET, PASSWORD):
        assert secret not in text
        assert secret not in caplog.text  # the records themselves are masked, for every handler
    assert "request headers {'Authorization': '****'}" in text
    assert "RuntimeError: token request refused for client_secret=****" in text and "Traceback" in text


# --- the journal writer ------------------------------------------------------------------------------


def ev(i: int) -> EventSummary:
    ms = 1_700_000_000_000 + i * 1000
    return EventSummary(id=f"{ms}-0", indexed_at_ms=ms, event={"n": i}, metadata={"emitter_id": "dc_a"})


def refuse_inserts(journal: Journal, message: str) -> None:
    """Make SQLite itself refuse every new row with `message`, as a full disk would refuse them."""
    with sqlite3.connect(journal.path) as other:
        other.execute("DROP TRIGGER IF EXISTS refuse")
        other.execute(f"CREATE TRIGGER refuse BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, '{message}'); END")


def test_a_journal_writer_failure_reaches_the_log_once_per_distinct_failure(data: Path, tmp_path: Path) -> None:
    with logs.configured(logging.WARNING) as path, Journal(tmp_path / "j.sqlite3") as journal:
        writer = JournalWriter(journal, batch_size=10_000, interval=60)
        refuse_inserts(journal, "database or disk is full")
        for i in range(3):  # three batches, one failure
            writer.add([ev(i)])
            writer.flush()
        assert isinstance(writer.last_error, sqlite3.IntegrityError)
        refuse_inserts(journal, "disk I/O error")
        writer.add([ev(3)])
        writer.flush()
        writer.close()
    assert path is not None
    text = path.read_text()
    assert text.count("ERROR aftui.journal.writer: journal write failed: database or disk is full\n") == 1
    assert text.count("ERROR aftui.journal.writer: journal write failed: disk I/O error\n") == 1
    assert "Traceback" in text and "sqlite3.IntegrityError: database or disk is full" in text
