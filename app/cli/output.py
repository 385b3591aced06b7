"""How every command prints: human lines, JSON, and errors and warnings as one line on stderr, none of it able
to drive the terminal. Light on purpose: `murmur toggle` prints through it before anything heavy loads."""

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from app.api.terminal import dumps, terminal_safe
from app.errors import Command, MurmurError, Remedy, Setting, Words, typed, with_remedy


def print_json(data: Mapping[str, Any] | Sequence[Any]) -> None:
    print(dumps(data))


def say(text: str = "") -> None:
    """Human output: what a model, a file or the store wrote never reaches the terminal as escape sequences."""
    print(terminal_safe(text))


def remedy_words(remedy: Remedy) -> str:
    """What to do, as the command line says it: the `murmur` command that does it."""
    match remedy:
        case Command():
            return typed(remedy)
        case Setting(key=key):
            return f"`murmur config set {key} VALUE`"
        case Words(text=text):
            return text


def cli_text(message: str, remedy: Remedy | None) -> str:
    """`message` for the terminal, with the command that helps."""
    return with_remedy(message, remedy, remedy_words)


def cli_line(error: MurmurError) -> str:
    """`error` in one line for the terminal, with the command that helps."""
    return cli_text(str(error), error.remedy)


def print_error(error: str | MurmurError) -> None:
    line = error if isinstance(error, str) else cli_line(error)
    print(f"murmur: error: {terminal_safe(line, multiline=False)}", file=sys.stderr)


def print_warning(message: str) -> None:
    print(f"murmur: warning: {terminal_safe(message, multiline=False)}", file=sys.stderr)
