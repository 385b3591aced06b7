"""`murmur --version` and the commands for the running app load only the socket client: a key bound to
`murmur start` must reach the app before the user's first word is lost. Each command runs in a fresh
interpreter (sys.modules is only clean there), with no app running; the other commands' handlers are
checked to resolve, since the parser names them as text."""

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import __version__
from app.cli import handler
from app.cli.args import build_parser, parse_args

ROOT = Path(__file__).resolve().parents[2]
HEAVY = {"sqlalchemy", "sqlmodel", "PySide6", "dateparser", "openai", "numpy", "vosk", "sounddevice"}
# The modules' names go on the last line of stdout, after whatever the command printed.
RUN = """
import json, sys
from app.cli import main
try:
    status = main(sys.argv[1:])
except SystemExit as exit:
    status = exit.code
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""
# What only an export, an import or a sync needs: the formats and the CalDAV client, with their libraries.
DATA_AND_SYNC = ("app.portable", "app.sync", "icalendar", "caldav")


def run_fresh(tmp_path: Path, *argv: str) -> tuple[int, list[str], str, str]:
    """The command's exit status, the top-level modules it loaded, and what it printed (stdout, stderr)."""
    status, loaded, stdout, stderr = run_fresh_in_full(tmp_path, *argv)
    return status, sorted({name.split(".")[0] for name in loaded}), stdout, stderr


def run_fresh_in_full(tmp_path: Path, *argv: str) -> tuple[int, list[str], str, str]:
    """As `run_fresh`, with every module it loaded by its full name."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "MURMUR_DATA_DIR": str(tmp_path / "data"),
        "MURMUR_CONFIG_DIR": str(tmp_path / "config"),
        "MURMUR_LOG_DIR": str(tmp_path / "logs"),
        "XDG_RUNTIME_DIR": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-c", RUN, *argv], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60
    )
    *printed, last = done.stdout.splitlines()
    outcome = json.loads(last)
    return outcome["status"], outcome["modules"], "\n".join(printed), done.stderr


@pytest.mark.parametrize("command", ["toggle", "start", "stop", "cancel", "show", "quit"])
def test_an_app_command_loads_nothing_heavy_and_says_the_app_is_not_running(tmp_path: Path, command: str) -> None:
    tmp_path.chmod(0o700)  # a private runtime dir, as a session's is
    status, modules, _, stderr = run_fresh(tmp_path, command)
    assert status == 1
    assert stderr == "murmur: error: Murmur is not running; start it with `murmur` (no arguments)\n"
    assert HEAVY.isdisjoint(modules)


def test_the_version_loads_nothing_heavy(tmp_path: Path) -> None:
    status, modules, stdout, _ = run_fresh(tmp_path, "--version")
    assert (status, stdout) == (0, f"murmur {__version__}")
    assert HEAVY.isdisjoint(modules)


def test_adding_an_entry_loads_no_export_format_and_no_sync(tmp_path: Path) -> None:
    """`murmur add` is what a hotkey or a script runs many times a day: the export formats and the sync (with
    icalendar and caldav) load only for a command that exports, imports or syncs."""
    status, loaded, stdout, _ = run_fresh_in_full(tmp_path, "add", "--offline", "buy milk")
    assert status == 0 and "Buy milk" in stdout
    assert [name for name in loaded if name.split(".")[0] in DATA_AND_SYNC or name.startswith(DATA_AND_SYNC)] == []


def registered_handlers(parser: argparse.ArgumentParser) -> Iterator[str]:
    """The "module:function" name of every command and action, however deep its subcommands go."""
    func = parser.get_default("func")
    if func is not None:
        yield func
    for action in parser._actions:  # argparse lists subcommands nowhere public
        if isinstance(action, argparse._SubParsersAction):
            for subparser in action.choices.values():
                yield from registered_handlers(subparser)


def test_every_registered_command_names_a_function_that_exists() -> None:
    names = set(registered_handlers(build_parser()))
    assert "app.cli.app_control:cmd_app_command" in names and len(names) > 40
    for name in names:
        assert callable(handler(name)), name


def test_what_the_quick_parser_does_not_take_the_full_one_parses_as_ever() -> None:
    assert vars(parse_args(["--db", "toggle", "list"])) == vars(build_parser().parse_args(["--db", "toggle", "list"]))
    assert parse_args(["toggle", "--db", "x.db"]).command == "toggle"


@pytest.mark.parametrize("argv", [["--help"], ["toggle", "extra"], ["togle"], ["toggle", "--db"]])
def test_help_and_mistakes_are_the_full_parser_s(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as quick:
        parse_args(argv)
    said = capsys.readouterr()
    with pytest.raises(SystemExit) as full:
        build_parser().parse_args(argv)
    assert (quick.value.code, said) == (full.value.code, capsys.readouterr())
    assert "list entries" in said.out or "murmur: error:" in said.err
