"""Text bound for a terminal, or for any other program (an assistant over MCP, an exported file): nothing in it
(from a model, a file, an assistant or the store) may move the cursor, rewrite the line or reorder what is shown.
Free of the rest of the app, so every front end can use it before anything loads."""

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

# Escape sequences a terminal acts on: CSI (7- and 8-bit), then OSC/DCS/SOS/PM/APC up to their BEL or ST
# terminator, then any other ESC sequence or a lone ESC. Unterminated strings lose only their ESC.
_ESCAPE_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)"
    r"|\x1b[ -/]*[0-~]?"
)
# What is left that moves the cursor, rewrites the line or reorders text: C0 and C1 controls, DEL, bidi overrides.
_UNSAFE_CHARACTERS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
_CONTROL = re.compile(f"[{_UNSAFE_CHARACTERS}]")
_LINE_BREAKS = re.compile(r"[\n\t]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def unbroken(text: str) -> str:
    """`text` with each lone UTF-16 surrogate (which no file, database or pipe can hold) as U+FFFD; a pair that
    arrived split in two becomes its one character, so nothing readable is lost."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def terminal_safe(text: str, multiline: bool = True) -> str:
    """`text` (from a model, a file or the store) without anything a terminal would act on; newlines and
    tabs stay where the field may span lines, and become spaces where it is one line."""
    text = _CONTROL.sub("", _ESCAPE_SEQUENCE.sub("", unbroken(text)))
    return text if multiline else _LINE_BREAKS.sub(" ", text)


def each_string(value: Any, change: Callable[[str], str]) -> Any:
    """JSON-like `value` with `change` made to every string in it, the keys of its objects too."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, Mapping):
        return {change(str(key)): each_string(item, change) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [each_string(item, change) for item in value]
    return value


def safe_data(value: Any) -> Any:
    """JSON-like `value` bound for another program (an assistant, a file) with every string `terminal_safe`."""
    return each_string(value, terminal_safe)


def unbroken_data(value: Any) -> Any:
    """JSON-like `value` (a request's arguments, a model's answer) with every string made `unbroken`."""
    return each_string(value, unbroken)


def dumps(data: Mapping[str, Any] | Sequence[Any]) -> str:
    """JSON with every character a terminal could act on escaped as \\uXXXX (json escapes only C0 itself),
    so the output is safe to print and parses to the same values."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    return _CONTROL.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
