"""The protocol's own stdin and stdout: a request's lone surrogates cleaned before the SDK parses it, and a client
that stops reading its answers stops the server reading its requests (a bounded backlog, not a queue that grows).

A lone UTF-16 surrogate escaped in a request's JSON ("\\ud800") is valid JSON but no text the SDK's parser takes:
without the cleaning the request would go unanswered. Stray output of the process (a library's print) goes to
stderr, so nothing but the protocol reaches the client.
"""

import json
import os
import sys
from io import TextIOWrapper
from typing import Any

import anyio

from app.api.terminal import unbroken_data

# Requests read and not yet answered: an assistant waits for each answer, or sends a few at once; a client that
# sends on without reading is held here, its requests waiting in the pipe (and then in its own process).
MAX_WAITING = 32
_PAUSE_SECONDS = 0.005


class _Backlog:
    def __init__(self) -> None:
        self.waiting = 0


def read_line(line: str) -> tuple[str, bool]:
    """`line` (one JSON-RPC message) with its lone surrogates as U+FFFD, and whether it is a request (one to be
    answered); a line that is not JSON stays as it is, for the SDK to answer with its parse error."""
    try:
        message: Any = json.loads(line)
    except ValueError:
        return line, False
    request = isinstance(message, dict) and "method" in message and "id" in message
    if "\\u" in line.lower():  # only an escape can hold a lone surrogate: the rest goes on as it came
        line = json.dumps(unbroken_data(message), ensure_ascii=False) + "\n"
    return line, request


class _Requests(anyio.AsyncFile[str]):
    def __init__(self, file: TextIOWrapper, backlog: _Backlog) -> None:
        super().__init__(file)
        self._backlog = backlog

    async def readline(self) -> str:
        while self._backlog.waiting >= MAX_WAITING:
            await anyio.sleep(_PAUSE_SECONDS)
        line, request = read_line(await super().readline())
        if request:
            self._backlog.waiting += 1
        return line


class _Answers(anyio.AsyncFile[str]):
    def __init__(self, file: TextIOWrapper, backlog: _Backlog) -> None:
        super().__init__(file)
        self._backlog = backlog

    async def write(self, text: str) -> int:
        written = await super().write(text)
        # an answer carries its request's id and a result or an error (the server's own requests carry a method)
        if '"id"' in text and '"method"' not in text:
            self._backlog.waiting = max(0, self._backlog.waiting - 1)
        return written


def protocol_streams() -> tuple[anyio.AsyncFile[str], anyio.AsyncFile[str]]:
    """The requests in and the answers out, on private copies of fds 0 and 1; fd 0 then reads nothing and fd 1
    writes to stderr, so neither a child process nor a stray print touches the protocol."""
    requests_in = os.fdopen(os.dup(0), "rb")
    answers_out = os.fdopen(os.dup(1), "wb")
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.close(nothing)
    os.dup2(2, 1)
    sys.stdout.flush()
    backlog = _Backlog()
    return (
        _Requests(TextIOWrapper(requests_in, encoding="utf-8", errors="replace"), backlog),
        _Answers(TextIOWrapper(answers_out, encoding="utf-8"), backlog),
    )
