"""Shell completion (argcomplete) of commands, options, profiles and ids; help text for every option."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from aftui import cli
from aftui.config.demo import record_running_demo

from .conftest import Aftui


def complete(line: str, tmp_path: Path) -> list[str]:
    """What a TAB at the end of `line` offers, as the shell's completion script asks for it."""
    out = tmp_path / "completions"
    env = {
        **os.environ,
        "_ARGCOMPLETE": "1",
        "COMP_LINE": line,
        "COMP_POINT": str(len(line)),
        "_ARGCOMPLETE_STDOUT_FILENAME": str(out),
    }
    done = subprocess.run([sys.executable, "-m", "aftui.cli"], env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return [word.strip() for word in out.read_text().split("\v") if word.strip()]


def test_commands_and_options_complete(profile: str, tmp_path: Path) -> None:
    assert complete("aftui sou", tmp_path) == ["sources"]
    assert complete("aftui sources --ina", tmp_path) == ["--inactive"]
    assert set(complete("aftui delete ", tmp_path)) >= {"source", "webhook", "subscription", "events", "end-user"}
    assert complete("aftui completion f", tmp_path) == ["fish"]


def test_profiles_complete(profile: str, tmp_path: Path, emulator, info: dict) -> None:
    assert complete("aftui -p lo", tmp_path) == ["local"]
    assert complete("aftui config use lo", tmp_path) == ["local"]
    assert complete("aftui -p ", tmp_path) == ["local"]  # no demo runs: `-p demo` would be refused
    forget = record_running_demo({**info, "base_url": emulator.base_url})
    try:
        assert complete("aftui -p ", tmp_path) == ["demo", "local"]  # while one runs, -p demo reaches it
        assert complete("aftui config use l", tmp_path) == ["local"]  # not in the file: use cannot take it
        assert complete("aftui config use d", tmp_path) == []
    finally:
        forget()


def test_ids_and_names_complete_from_what_was_listed(aftui: Aftui, emulator, tmp_path: Path) -> None:
    assert complete("aftui events dc_", tmp_path) == []  # nothing listed yet: nothing offered, nothing asked
    assert aftui("sources").code == 0
    order = next(s for s in emulator.emulator.store.sources.values() if s.name == "Order webhooks")
    assert order.id in complete("aftui events dc_", tmp_path)
    assert complete("aftui events Order\\ w", tmp_path) == ["Order\\ webhooks"]
    assert aftui("workflows").code == 0
    workflow = emulator.emulator.demo.order_workflow_id
    assert workflow in complete("aftui errors p_", tmp_path)
    assert "Validate\\ and\\ forward\\ orders" in complete("aftui replay --workflow Val", tmp_path)
    assert aftui("delete", "source", "Order webhooks", "--yes").code == 0
    assert order.id not in complete("aftui events dc_", tmp_path)  # deleted: no longer offered


def test_the_completion_script_for_each_shell(aftui: Aftui) -> None:
    bash = aftui("completion", "bash")
    assert bash.code == 0 and "complete " in bash.out and "aftui" in bash.out
    for shell in ("zsh", "fish"):
        assert aftui("completion", shell).out.strip()


def walk(parser: argparse.ArgumentParser, path: str = "aftui") -> list[tuple[str, argparse.Action]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helped = {choice.dest for choice in action._choices_actions if choice.help}
            for name, sub in action.choices.items():
                assert name in helped, f"{path} {name} has no help in the list of commands"
                found += walk(sub, f"{path} {name}")
        elif not isinstance(action, argparse._HelpAction):
            found.append((path, action))
    return found


def test_every_option_and_argument_has_help() -> None:
    actions = walk(cli.build_parser())
    assert len(actions) > 150
    missing = [f"{path}: {'/'.join(a.option_strings) or a.dest}" for path, a in actions if not a.help]
    assert not missing, missing


@pytest.mark.parametrize("command", ["sources", "events", "tail", "errors", "replay", "deploy", "delete", "config"])
def test_help_names_the_exit_codes(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        cli.main([command, "--help"])
    assert exit.value.code == 0
    out = capsys.readouterr().out
    assert "exit codes:" in out and "4  not found" in out


def test_building_the_parser_imports_no_client() -> None:
    """Completion builds the parser on every TAB: pydantic, httpx and the client stay out of it."""
    code = (
        "import sys; from aftui import cli; cli.build_parser(); "
        "print(sorted(m for m in ('pydantic', 'httpx', 'aftui.api', 'argcomplete', 'aftui.journal') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_an_option_of_aftuis_after_the_command_says_where_it_goes(aftui: Aftui) -> None:
    """`aftui health --failing --max-time 5` said only "unrecognized arguments" to a cron job's log."""
    done = aftui("health", "--failing", "--max-time", "5")
    assert done.code == 2 and done.out == ""
    assert "--max-time is aftui's own option: it goes before the command, `aftui --max-time … COMMAND`" in done.err
    other = aftui("health", "--bogus")
    assert other.code == 2 and "unrecognized arguments: --bogus" in other.err and "own option" not in other.err
