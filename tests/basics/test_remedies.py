"""What to do about a failure: the core's messages name no `murmur` command, each front end says the remedy in its
own terms (the command line its commands, as it always has; the window its fields and plain words)."""

import ast
import re
from pathlib import Path

import pytest

from app.cli.output import cli_line, remedy_words
from app.doctor.advice import NO_TRAY
from app.errors import Command, ConfirmationNeeded, ErrorCode, LlmError, MurmurError, Setting, UsageError, Words
from app.errors import command as one_command
from app.presentation.assistants import assistant_remedy
from app.ui.remedies import SETTING_PLACES, window_line
from app.ui.remedies import remedy_words as window_words

APP = Path(__file__).resolve().parents[2] / "app"
NAMES_A_COMMAND = re.compile(r"\bmurmur [a-z]")
# A desktop shortcut runs a command line, so these window texts name the one to bind; a bug report is made at a
# terminal. The language model page's FIELD_WORDS are words it looks for in a message, not words it shows.
WINDOW_TEXTS_OF_A_TERMINAL = {
    "app/ui/hotkey.py": {"toggle", "start", "stop"},
    "app/shortcuts/problems.py": {"start", "stop"},  # no talk key from the desktop: bind these to a key instead
    "app/shortcuts/choice.py": {"start", "stop"},
    "app/ui/single_instance.py": {"toggle"},
    "app/ui/about.py": {"doctor"},
}


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes in `tree`: they describe the code, for its reader."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def commands_named(path: Path) -> list[tuple[int, str]]:
    """(line, command) for each string in `path`, docstrings aside, that names a `murmur` command."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    return [
        (node.lineno, match[0].split()[1])
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
        for match in re.finditer(r"\bmurmur ([a-z][a-z-]*)", node.value)
    ]


def test_no_message_outside_the_cli_names_a_murmur_command() -> None:
    offenders = [
        f"{name}:{line} names `murmur {word}`"
        for path in sorted(APP.rglob("*.py"))
        if "cli" not in path.relative_to(APP).parts[:1]
        for name in [str(path.relative_to(APP.parent))]
        for line, word in commands_named(path)
        if word not in WINDOW_TEXTS_OF_A_TERMINAL.get(name, set())
    ]
    assert offenders == []


def test_the_scan_finds_a_command_in_a_message_and_not_in_a_docstring(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text(
        '"""Run `murmur undo`."""\n\n\ndef f() -> str:\n    return f"no batch {1}; `murmur history` lists them"\n'
    )
    assert commands_named(module) == [(5, "history")]


def test_every_setting_a_remedy_names_has_its_place_in_the_window() -> None:
    named = {
        node.args[0].value
        for path in APP.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Setting"
        if node.args and isinstance(node.args[0], ast.Constant)
    }
    assert named and named <= set(SETTING_PLACES)


def test_the_command_line_says_the_command_as_it_always_has() -> None:
    yes = one_command("retry", "12", "--confirm", instead=Words("confirm it"), phrase="confirm with {}", joint=": ")
    waiting = ConfirmationNeeded("that would archive 6 entries; nothing was changed", yes)
    assert cli_line(waiting) == (
        "that would archive 6 entries; nothing was changed: confirm with `murmur retry 12 --confirm`"
    )
    assert str(waiting) == "that would archive 6 entries; nothing was changed"
    two = Command((("backups",), ("restore",)), Words("restore a backup"), "{}, then {}")
    assert remedy_words(two) == "`murmur backups`, then `murmur restore`"
    assert remedy_words(Setting("llm.model")) == "`murmur config set llm.model VALUE`"
    assert cli_line(UsageError("empty text")) == "empty text"


def test_a_word_with_a_space_is_quoted_as_a_shell_reads_it() -> None:
    again = one_command("import", "/home/me/My lists/todo.txt", "--confirm", instead=Words("say yes"))
    assert remedy_words(again) == "`murmur import '/home/me/My lists/todo.txt' --confirm`"
    assert (
        assistant_remedy(again)
        == "say yes in Murmur's window, or `murmur import '/home/me/My lists/todo.txt' --confirm`"
    )


def test_the_window_says_the_field_or_the_words_never_a_command() -> None:
    key = one_command("config", "set-key", instead=Setting("llm.api_key"))
    refused = LlmError("the model server refused the API key (HTTP 401)", key)
    assert window_line(refused) == (
        "the model server refused the API key (HTTP 401); see the API key field in Settings → Language model"
    )
    assert window_words(Words("plug one in")) == "plug one in"
    assert "murmur" not in window_words(NO_TRAY) and "Start or stop listening" in window_words(NO_TRAY)
    assert "`murmur toggle`" in remedy_words(NO_TRAY)


@pytest.mark.parametrize(
    ("error", "code"),
    [(UsageError("x"), ErrorCode.USAGE), (LlmError("x"), ErrorCode.LLM), (MurmurError("x"), ErrorCode.USAGE)],
)
def test_every_error_carries_its_code(error: MurmurError, code: ErrorCode) -> None:
    assert error.code is code and error.remedy is None
