"""How every command prints: human lines, JSON, and errors and warnings as one line on stderr, none of it able
to drive the terminal. Light on purpose: `murmur toggle` prints through it before anything heavy loads."""

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from app.terminal import dumps, terminal_safe


def print_json(data: Mapping[str, Any] | Sequence[Any]) -> None:
    print(dumps(data))


def say(text: str = "") -> None:
    """Human output: what a model, a file or the store wrote never reaches the terminal as escape sequences."""
    print(terminal_safe(text))


def print_error(message: str) -> None:
    print(f"murmur: error: {terminal_safe(message, multiline=False)}", file=sys.stderr)


def print_warning(message: str) -> None:
    print(f"murmur: warning: {terminal_safe(message, multiline=False)}", file=sys.stderr)
