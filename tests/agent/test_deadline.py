"""The overall request deadline (llm.request_seconds): a server that answers, then drips its body a byte at a
time, never trips a per-read timeout, yet the request still ends on time with one clear line."""

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from app.domain.enums import UtteranceOutcome
from app.errors import LlmError
from app.store import Store
from tests.support.agent_service import ServiceFactory, all_entries
from tests.support.llm_server import FakeLlmServer, Reply, call

# Left out of `make test-fast`: each test waits a deadline out in real seconds.
pytestmark = pytest.mark.slow

DRIP_SECONDS = 1.0  # one byte per this, forever: well inside any per-read timeout


class _DripServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _DripHandler)
        self.stopping = threading.Event()
        self.requests = 0
        self.bytes_sent = 0


class _DripHandler(BaseHTTPRequestHandler):
    server: _DripServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.requests += 1
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()  # no length, no chunking: the body runs until the connection closes
        self.wfile.flush()
        self.close_connection = True
        keepalive = b": still thinking\n\n"  # a server-sent-events comment, which a reader skips
        position = 0
        while not self.server.stopping.wait(DRIP_SECONDS):
            try:
                self.wfile.write(keepalive[position : position + 1])
                self.wfile.flush()
            except OSError:
                return  # the client hung up
            self.server.bytes_sent += 1
            position = (position + 1) % len(keepalive)


@pytest.fixture
def drip_server() -> Iterator[_DripServer]:
    server = _DripServer()
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), name="drip-llm", daemon=True)
    thread.start()
    yield server
    server.stopping.set()
    server.shutdown()
    server.server_close()


def test_a_server_that_drips_forever_is_cut_at_the_request_deadline(
    agent_service: ServiceFactory, store: Store, drip_server: _DripServer
) -> None:
    host, port = drip_server.server_address[:2]
    # The per-read timeout (10 s) is never reached by a byte a second; only the 2 s deadline can end this.
    service = agent_service(f"http://{host!s}:{port}/v1", timeout_seconds=10.0, request_seconds=2.0)
    started = time.monotonic()
    with pytest.raises(LlmError) as raised:
        service.submit("buy milk")
    elapsed = time.monotonic() - started
    message = str(raised.value)
    assert 2.0 <= elapsed < 5.0, f"the request ended after {elapsed:.1f} s"
    assert "took longer than 2 s" in message and "\n" not in message
    assert drip_server.requests == 1  # the cut request was not sent again
    assert drip_server.bytes_sent >= 1  # the server did answer and was dripping when cut
    assert all_entries(store) == []
    [waiting] = service.inbox()
    assert waiting.text == "buy milk" and waiting.outcome is UtteranceOutcome.FAILED
    assert "took longer than 2 s" in (waiting.error or "")


def test_a_model_that_never_stops_is_cut_at_the_utterance_deadline(agent_service: ServiceFactory, store: Store) -> None:
    """Turn 1 applies a change at once; turn 2 streams words forever. The utterance's deadline (across its
    turns, while tokens stream) ends the run; what turn 1 did is taken back, so nothing half-done stays."""
    create = call(
        "create_entries",
        {"entries": [{"content": "Buy milk", "summary": "Buy milk", "category": "todo", "source_text": "buy milk"}]},
    )
    endless = Reply(" ".join(f"and then {n}" for n in range(5_000)), chunk_size=4, chunk_delay=0.01)  # no loop
    with FakeLlmServer([Reply(tool_calls=[create]), endless]) as server:
        service = agent_service(server, deadline_seconds=1.5, request_seconds=30.0, timeout_seconds=10.0)
        started = time.monotonic()
        with pytest.raises(LlmError) as raised:
            service.submit("buy milk")
        elapsed = time.monotonic() - started
    assert 1.5 <= elapsed < 4.0, f"the run ended after {elapsed:.1f} s"
    assert "did not finish within 1.5 s (llm.deadline_seconds)" in str(raised.value)
    assert all(body["max_tokens"] == 1024 for body in server.requests)
    assert all_entries(store) == []
    [waiting] = service.inbox()
    assert waiting.outcome is UtteranceOutcome.FAILED and "llm.deadline_seconds" in (waiting.error or "")


def test_the_first_word_may_take_long_but_a_silence_after_it_may_not(
    agent_service: ServiceFactory, store: Store
) -> None:
    """A CPU server reads a long prompt before its first word (here 1.5 s, over llm.timeout_seconds): that
    wait is llm.first_token_seconds'. Once it talks, a silence as long as llm.timeout_seconds cuts it."""
    milk = call("create_entries", {"entries": [{"content": "Buy milk", "summary": "Buy milk", "category": "todo"}]})
    slow_start = [Reply(tool_calls=[milk], first_chunk_delay=1.5), Reply("Added milk.", first_chunk_delay=1.5)]
    with FakeLlmServer(slow_start) as server:
        agent_service(server, timeout_seconds=1.0, first_token_seconds=5.0).submit("buy milk")
    assert [e.summary for e in all_entries(store)] == ["Buy milk"]

    stalls = [Reply("Added bread, and then", pause=(2, 3.0), chunk_size=3)]
    with FakeLlmServer(stalls) as server:
        started = time.monotonic()
        with pytest.raises(LlmError, match=r"stopped in the middle of its answer \(1 s without a word"):
            agent_service(server, timeout_seconds=1.0, first_token_seconds=5.0).submit("buy bread")
    assert time.monotonic() - started < 2.8  # cut at the silence, not when the server spoke again
