"""The assistant's requests as they are read from stdin: a lone UTF-16 surrogate escaped in a request's JSON
("\\ud800") is valid JSON but no text the SDK's parser takes, so without this the request would go unanswered."""

import json
import sys
from io import TextIOWrapper
from typing import Any

import anyio

from app.bounds.checks import unbroken_data


def cleaned_line(line: str) -> str:
    """`line` (one JSON-RPC message) with its lone surrogates as U+FFFD; a line that is not JSON stays as it is,
    for the SDK to answer with its parse error."""
    if "\\u" not in line.lower():
        return line
    try:
        message: Any = json.loads(line)
    except ValueError:
        return line
    return json.dumps(unbroken_data(message), ensure_ascii=False) + "\n"


class _CleanLines(anyio.AsyncFile[str]):
    async def readline(self) -> str:
        return cleaned_line(await super().readline())


def requests_in() -> anyio.AsyncFile[str]:
    """stdin, as the SDK reads it (UTF-8, a bad byte replaced), each message cleaned."""
    return _CleanLines(TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
