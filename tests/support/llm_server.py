"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol, scripted per test.

The real `openai` client talks to it over a real socket, streaming (server-sent events, tool-call
arguments split across chunks as real servers do) or not. Each request takes the next scripted
step; every request body is kept so a test can assert what the model was sent.

    with FakeLlmServer([Reply(tool_calls=[call("create_entries", {...})]), Reply("Done.")]) as server:
        ... base_url=server.base_url ...
        assert "sk-" not in json.dumps(server.requests)
"""

import json
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

from app.agent.provider import Price, ProviderConfig

# How often the serving loop looks whether it is to stop: the default half second was waited at each end of a server.
POLL_SECONDS = 0.02


@dataclass(frozen=True)
class ToolCallSpec:
    name: str
    arguments: str  # raw text, so a test can send invalid or truncated JSON
    id: str = ""


def call(name: str, arguments: Any, call_id: str = "") -> ToolCallSpec:
    """A tool call whose arguments are `arguments` as JSON (or as given, when already a string)."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return ToolCallSpec(name=name, arguments=raw, id=call_id)


@dataclass(frozen=True)
class Reply:
    """One assistant message; `finish_reason` defaults to tool_calls/stop as a real server says."""

    content: str = ""
    tool_calls: Sequence[ToolCallSpec] = ()
    finish_reason: str | None = None
    prompt_tokens: int = 100
    completion_tokens: int = 20
    chunk_size: int = 7  # characters per streamed piece of content or arguments
    cut_after_chunks: int | None = None  # close the connection mid-stream after this many chunks
    chunk_delay: float = 0.0  # seconds between streamed chunks, as a slow model writes
    first_chunk_delay: float = 0.0  # seconds between the headers and the first chunk, as a CPU server reads the prompt
    pause: tuple[int, float] | None = None  # (after this many chunks, this many seconds of silence)
    headers_delay: float = 0.0  # seconds before the headers, as llama.cpp sends them with its first token


@dataclass(frozen=True)
class Fail:
    """An HTTP error answer, e.g. Fail(401), Fail(429), Fail(503)."""

    status: int
    message: str = "scripted failure"


@dataclass(frozen=True)
class Hang:
    """Answer nothing for `seconds` (longer than the client's timeout), then close."""

    seconds: float


@dataclass(frozen=True)
class Empty:
    """A 200 answer with an empty body."""


Step = Reply | Fail | Hang | Empty
Script = Sequence[Step] | Callable[[dict[str, Any]], Step]


@dataclass
class _State:
    script: Script
    model_names: list[str]
    stream_capable: bool
    props: dict[str, Any] | None = None  # llama.cpp's /props, for a server that has it
    get_delay: float = 0.0  # seconds before a GET (/models, /props) is answered, as a frozen server
    requests: list[dict[str, Any]] = field(default_factory=list)
    stream_ends: list[float] = field(default_factory=list)  # time.monotonic() when each stream was complete
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_step(self, body: dict[str, Any]) -> Step:
        with self.lock:
            self.requests.append(body)
            if callable(self.script):
                return self.script(body)
            index = len(self.requests) - 1
            if index >= len(self.script):
                return Fail(500, f"the test scripted {len(self.script)} replies; this is request {index + 1}")
            return self.script[index]


def _finish(reply: Reply) -> str:
    return reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")


def _message(reply: Reply) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content or None}
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": spec.id or f"call_{i}",
                "type": "function",
                "function": {"name": spec.name, "arguments": spec.arguments},
            }
            for i, spec in enumerate(reply.tool_calls)
        ]
    return message


def _usage(reply: Reply) -> dict[str, int]:
    total = reply.prompt_tokens + reply.completion_tokens
    return {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens, "total_tokens": total}


def _pieces(text: str, size: int) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start : start + size]


def _stream_deltas(reply: Reply) -> Iterator[dict[str, Any]]:
    """The deltas a real server sends: role first, content in pieces, each tool call's name, then its
    arguments in pieces (so one call's JSON spans many chunks)."""
    yield {"role": "assistant", "content": ""}
    for piece in _pieces(reply.content, reply.chunk_size):
        yield {"content": piece}
    for index, spec in enumerate(reply.tool_calls):
        head = {"index": index, "id": spec.id or f"call_{index}", "type": "function"}
        yield {"tool_calls": [{**head, "function": {"name": spec.name, "arguments": ""}}]}
        for piece in _pieces(spec.arguments, reply.chunk_size):
            yield {"tool_calls": [{"index": index, "function": {"arguments": piece}}]}


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass  # keep test output clean

    def _json(self, status: int, data: Any) -> None:
        body = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        time.sleep(self.server.state.get_delay)
        if self.path.rstrip("/").endswith("/models"):
            models = [{"id": name, "object": "model", "owned_by": "test"} for name in self.server.state.model_names]
            self._json(200, {"object": "list", "data": models})
        elif self.path.rstrip("/") == "/props" and self.server.state.props is not None:
            self._json(200, self.server.state.props)
        else:
            self._json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        body["_headers"] = {"authorization": self.headers.get("Authorization", "")}
        step = self.server.state.next_step(body)
        if isinstance(step, Fail):
            self._json(step.status, {"error": {"message": step.message, "type": "test", "code": step.status}})
        elif isinstance(step, Hang):
            time.sleep(step.seconds)
            self.close_connection = True
        elif isinstance(step, Empty):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            time.sleep(step.headers_delay)
            if body.get("stream") and self.server.state.stream_capable:
                self._stream(step, body)
            else:
                self._whole(step, body)

    def _whole(self, reply: Reply, body: dict[str, Any]) -> None:
        self._json(
            200,
            {
                "id": "chatcmpl-test",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "test-model"),
                "choices": [{"index": 0, "message": _message(reply), "finish_reason": _finish(reply)}],
                "usage": _usage(reply),
            },
        )

    def _stream(self, reply: Reply, body: dict[str, Any]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        base = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": int(time.time())}
        base["model"] = body.get("model", "test-model")
        chunks = [{**base, "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in _stream_deltas(reply)]
        chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": _finish(reply)}]})
        if body.get("stream_options", {}).get("include_usage"):
            chunks.append({**base, "choices": [], "usage": _usage(reply)})
        self.wfile.flush()
        time.sleep(reply.first_chunk_delay)
        for number, chunk in enumerate(chunks):
            if reply.cut_after_chunks is not None and number >= reply.cut_after_chunks:
                return  # the connection closes with no [DONE]: a stream cut in the middle
            if reply.pause is not None and number == reply.pause[0]:
                time.sleep(reply.pause[1])
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()
            time.sleep(reply.chunk_delay)
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
        self.server.state.stream_ends.append(time.monotonic())


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, state: _State) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.state = state

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that hung up (a deadline the test is about) is no error; its traceback on stderr would land in
        whatever a later test of this worker reads from stderr."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


class FakeLlmServer:
    """The server, running in a thread for the life of a `with` block."""

    def __init__(
        self,
        script: Script = (),
        *,
        model_names: Sequence[str] = ("test-model",),
        stream_capable: bool = True,
        props: dict[str, Any] | None = None,
        get_delay: float = 0.0,
    ) -> None:
        self.state = _State(script, list(model_names), stream_capable, props, get_delay)
        self._server = _Server(self.state)
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(POLL_SECONDS,), name="fake-llm", daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        return self.state.requests

    def __enter__(self) -> "FakeLlmServer":
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self._server.shutdown()
        self._server.server_close()


def provider_for(base_url: str, price: Price | None = None, **overrides: Any) -> ProviderConfig:
    """A provider configuration for a test server: short timeouts, defaults otherwise."""
    config = ProviderConfig(
        base_url=base_url,
        model="test-model",
        api_key="sk-test-key",
        timeout_seconds=5.0,
        max_turns=8,
        max_mutations=25,
        stream=True,
        monthly_budget=0.0,
        follow_up_seconds=120.0,
        price=price or Price(),
    )
    return replace(config, **overrides)


def closed_port_url() -> str:
    """The base URL of a server that is not there."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"  # nothing listens there once the probe is closed
