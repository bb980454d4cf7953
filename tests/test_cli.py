"""The headless commands, run as a user runs them: `aftui ...` in a subprocess."""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from aftui.emulator.server import ServerHandle


def aftui(*args: str, env: dict[str, str], timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "aftui.cli", *args], env=env, capture_output=True, text=True, timeout=timeout
    )


@pytest.fixture
def env(tmp_path: Path, emulator: ServerHandle, info: dict) -> dict[str, str]:
    """A user with one profile pointing at the emulator, and nothing else of ours in the environment."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("AFTUI_", "XDG_"))}
    base.update(
        AFTUI_CONFIG=str(tmp_path / "config.toml"),
        XDG_CONFIG_HOME=str(tmp_path / "xdg"),
        AFTUI_DATA_DIR=str(tmp_path / "data"),
    )
    added = aftui(
        "config",
        "add",
        "local",
        "--base-url",
        emulator.base_url,
        "--api-key",
        info["api_key"],
        "--org-id",
        info["org_id"],
        "--project-id",
        info["project_id"],
        env=base,
    )
    assert added.returncode == 0, added.stderr
    return base


def source_id(emulator: ServerHandle, name: str) -> str:
    return next(s.id for s in emulator.emulator.store.sources.values() if s.name == name)


def test_config_show_masks_the_key(env: dict[str, str], info: dict) -> None:
    shown = aftui("config", "show", env=env)
    assert shown.returncode == 0
    assert "[local] (default)" in shown.stdout
    assert info["api_key"] not in shown.stdout
    assert info["api_key"][:4] in shown.stdout


def test_config_file_is_private(env: dict[str, str]) -> None:
    assert Path(env["AFTUI_CONFIG"]).stat().st_mode & 0o777 == 0o600


def test_config_path_use_and_remove(env: dict[str, str], emulator: ServerHandle) -> None:
    assert aftui("config", "path", env=env).stdout.strip() == env["AFTUI_CONFIG"]
    assert (
        aftui(
            "config", "add", "other", "--base-url", emulator.base_url, "--api-key-env", "OTHER_KEY", env=env
        ).returncode
        == 0
    )
    used = aftui("config", "use", "other", env=env)
    assert used.returncode == 0
    assert used.stdout == "" and "default profile is now 'other'" in used.stderr  # a message, not data
    assert "[other] (default)" in aftui("config", "show", env=env).stdout
    assert aftui("config", "remove", "other", env=env).returncode == 0
    assert "other" not in aftui("config", "show", env=env).stdout
    bare = aftui("config", "add", "bare", "--base-url", emulator.base_url, env=env)  # AFTUI_API_KEY may give it
    assert bare.returncode == 0 and "'bare' has no credential: each use needs AFTUI_API_KEY" in bare.stderr


def test_malformed_config_is_named_with_its_line_and_no_traceback(env: dict[str, str]) -> None:
    Path(env["AFTUI_CONFIG"]).write_text(
        'default = "local"\n[profiles.local]\nbase_url = "http://x/v1"\nenvironment = "prod"\n'
    )
    result = aftui("whoami", env=env)
    assert result.returncode == 2
    assert "line 4" in result.stderr and "environment" in result.stderr
    assert "Traceback" not in result.stderr


def test_config_import_reads_the_official_cli_profiles(env: dict[str, str]) -> None:
    cli_config = Path(env["XDG_CONFIG_HOME"]) / "pipedream" / "config"
    cli_config.parent.mkdir(parents=True)
    cli_config.write_text("api_key = pd_default_key_123456\norg_id = o_abc\n\n[work]\napi_key = pd_work_key_123456\n")
    result = aftui("config", "import", env=env)
    assert result.returncode == 0, result.stderr
    shown = aftui("config", "show", env=env).stdout
    assert "[default]" in shown and "[work]" in shown and "o_abc" in shown
    assert "pd_work_key_123456" not in shown


def test_whoami_prints_the_user_and_workspaces(env: dict[str, str], info: dict) -> None:
    result = aftui("whoami", env=env)
    assert result.returncode == 0, result.stderr
    assert "dana" in result.stdout
    assert f"* {info['org_id']}" in result.stdout


def test_whoami_json_parses(env: dict[str, str]) -> None:
    result = aftui("whoami", "--json", env=env)
    assert json.loads(result.stdout)["username"] == "dana"


def test_bad_key_exits_3(env: dict[str, str]) -> None:
    result = aftui("whoami", env={**env, "AFTUI_API_KEY": "not-a-key"})
    assert result.returncode == 3
    assert "invalid API key" in result.stderr


def test_unknown_source_exits_4(env: dict[str, str]) -> None:
    result = aftui("events", "dc_nothere", env=env)
    assert result.returncode == 4
    assert "not found" in result.stderr


def test_unreachable_service_exits_5(env: dict[str, str]) -> None:
    result = aftui("whoami", env={**env, "AFTUI_BASE_URL": "http://127.0.0.1:9/v1"})
    assert result.returncode == 5
    assert "cannot connect" in result.stderr


def test_usage_error_exits_2(env: dict[str, str]) -> None:
    assert aftui("events", env=env).returncode == 2
    assert aftui("events", "dc_x", "-n", "500", env=env).returncode == 2


def test_help_documents_exit_codes(env: dict[str, str]) -> None:
    out = aftui("tail", "--help", env=env).stdout
    assert "3  authentication failed" in out and "5  network or server error" in out


def test_events_prints_the_last_n_oldest_first(env: dict[str, str], emulator: ServerHandle) -> None:
    sid = source_id(emulator, "Heartbeat every 5 minutes")
    result = aftui("events", sid, "-n", "5", "--json", env=env)
    assert result.returncode == 0, result.stderr
    ids = [json.loads(line)["id"] for line in result.stdout.splitlines()]
    retained = [e.id for e in emulator.emulator.store.log(sid).newest_first()][:5]
    assert ids == list(reversed(retained))


def test_events_for_people_make_control_characters_visible(
    env: dict[str, str], emulator: ServerHandle, root: httpx.Client
) -> None:
    sid = source_id(emulator, "Sandbox endpoint")
    hostile = {"event": {"note": "\x1b]52;c;aGVsbG8=\x07\x1b[2J"}, "channel": "\x1b[31mred\u202e"}
    root.post(f"/_emulator/sources/{sid}/emit", json=hostile).raise_for_status()
    result = aftui("events", sid, "-n", "1", env=env)
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout and "\u202e" not in result.stdout
    assert "\\e[31mred\\u202e" in result.stdout  # the channel, escaped by aftui
    assert "\\u001b]52" in result.stdout  # the payload, escaped as JSON


def as_from_a_terminal() -> None:
    """SIGINT at its default, as at a terminal (a shell's background job passes it on ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _read_lines(proc: subprocess.Popen[str], want: int, deadline: float, stream: str = "stdout") -> list[str]:
    lines: list[str] = []

    def reader() -> None:
        pipe = proc.stdout if stream == "stdout" else proc.stderr
        assert pipe is not None
        for line in pipe:
            lines.append(line)
            if len(lines) >= want:
                return

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    thread.join(max(0.0, deadline - time.monotonic()))
    return lines


def test_tail_json_streams_events_and_errors_as_ndjson(
    env: dict[str, str], emulator: ServerHandle, root: httpx.Client, info: dict
) -> None:
    sid = source_id(emulator, "Sandbox endpoint")
    workflow_id = emulator.emulator.demo.order_workflow_id
    endpoint = emulator.emulator.demo.order_endpoint_key
    proc = subprocess.Popen(
        [sys.executable, "-m", "aftui.cli", "tail", sid, "--errors", workflow_id, "--json"],
        env=env,
        preexec_fn=as_from_a_terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # The stream says it is connected, the poll that it has noted where the $errors list stands.
        said = _read_lines(proc, 2, time.monotonic() + 20, stream="stderr")
        assert any("connected" in line for line in said) and any("polling $errors" in line for line in said), said
        for n in range(5):
            root.post(f"/_emulator/sources/{sid}/emit", json={"event": {"n": n}}).raise_for_status()
        root.post(f"/e/{endpoint}", json={"order_id": "ord_1"}).raise_for_status()  # no customer_email: fails
        lines = _read_lines(proc, 6, time.monotonic() + 15)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
    records = [json.loads(line) for line in lines]
    streamed = [r for r in records if r["metadata"].get("emitter_id") == sid]
    errors = [r for r in records if r["metadata"].get("name") == "$errors"]
    assert [r["event"]["n"] for r in streamed] == [0, 1, 2, 3, 4]
    assert len(errors) == 1
    assert errors[0]["event"]["error"]["msg"] == "Missing required field: customer_email"
    assert proc.returncode == 0


def test_a_debug_log_of_a_command_holds_no_key(env: dict[str, str], info: dict) -> None:
    done = aftui("--debug", "whoami", env={**env, "AFTUI_API_KEY": info["api_key"]})
    assert done.returncode == 0, done.stderr
    log = Path(env["AFTUI_DATA_DIR"]) / "aftui.log"
    assert log.stat().st_mode & 0o777 == 0o600
    text = log.read_text()
    assert "DEBUG aftui.cli: aftui whoami started" in text
    assert info["api_key"] not in text and info["api_key"][:4] + "…" not in text


def test_the_command_collects_garbage_again_once_a_command_is_chosen(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`entry` pauses collections for the TUI's imports; a command that is not the TUI turns them back on."""
    from aftui import cli

    enabled: list[bool] = []
    monkeypatch.setattr(cli, "skip_unused_imports", lambda: None)  # this process has them: nothing to skip
    monkeypatch.setattr(cli, "_run_headless", lambda args: enabled.append(gc.isenabled()) or 0)
    monkeypatch.setattr(sys, "argv", ["aftui", "sources"])
    monkeypatch.setenv("AFTUI_DATA_DIR", str(tmp_path / "data"))
    try:
        assert cli.entry() == 0
    finally:
        gc.enable()
    assert enabled == [True]


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["-p", "work", "--read-only"],
        ["--debug"],
        ["demo"],
        ["--read-only", "demo", "--seed", "3", "--hostile"],
        ["-p", "work", "demo", "--seed=7"],
        ["--debug", "demo", "--see", "2"],  # an abbreviation, as argparse allows
    ],
)
def test_the_tui_and_the_demo_are_parsed_without_the_commands_parsers_as_those_parsers_would(argv) -> None:
    from aftui.cli import build_parser, tui_only

    quick = tui_only(argv)
    assert quick is not None
    assert vars(quick) == vars(build_parser().parse_args(argv))


@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "--read-only"],  # the TUI's options go before the command
        ["demo", "--seed", "x"],
        ["demo", "--help"],
        ["demo", "demo"],
        ["-p", "demo"],  # a profile named demo: left to the full parser
        ["--seed", "3", "demo"],
        ["sources"],
        ["--help"],
    ],
)
def test_anything_else_is_left_to_the_commands_parsers(argv) -> None:
    from aftui.cli import tui_only

    assert tui_only(argv) is None


@pytest.mark.parametrize(("given", "drawn"), [(None, 120), ("30", 30)])
def test_the_tui_draws_120_frames_a_second_unless_textual_fps_says_otherwise(
    tmp_path: Path, given: str | None, drawn: int
) -> None:
    """Set before Textual is imported, which reads it then: checked in a process where nothing imported it yet."""
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"} | {"AFTUI_DATA_DIR": str(tmp_path / "data")}
    if given is not None:
        env["TEXTUAL_FPS"] = given
    code = (
        "import aftui.cli as cli\n"
        "def tui(args):\n"
        "    from textual import constants\n"
        "    print(constants.MAX_FPS)\n"
        "    return 0\n"
        "cli._run_tui = tui\n"
        "raise SystemExit(cli.main([]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(drawn)]
