"""A run of an utterance, across processes: all or nothing to the user, and held by one process at a time.

The model is the local test server, scripted to stall at a chosen request, so a `murmur` process is caught
in the middle of a multi-turn run: killed there, or raced by a second `murmur retry` of the same utterance.
"""

import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.llm_server import Fail, FakeLlmServer, Reply, Step, call
from tests.support.murmur_cli import ROOT, Murmur, assert_one_line_error, world_reachable

# Left out of `make test-fast`: real `murmur` processes stalled, killed and raced in the middle of a run.
pytestmark = pytest.mark.slow

CREATE_MILK = Reply(tool_calls=[call("create_entries", {"entries": [{"content": "Buy milk", "category": "todo"}]})])


def stalling_at(request_number: int, reached: threading.Event, release: threading.Event) -> Callable[..., Step]:
    """A script: a create call, then closing words; request `request_number` first says it was reached,
    then waits for `release` (the server answers one request at a time meanwhile)."""

    def script(body: dict[str, Any]) -> Step:
        number = sum(1 for m in body["messages"] if m["role"] == "tool") + 1
        if number == request_number:
            reached.set()
            release.wait(timeout=30)
        return CREATE_MILK if number == 1 else Reply("Added milk.")

    return script


def start(murmur: Murmur, *args: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "app", *args]
    return subprocess.Popen(
        command, env=murmur.env, cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def failed_utterance(murmur: Murmur) -> int:
    """An utterance waiting in the inbox, its first run refused by the server (no fallback to the rules)."""
    assert murmur.run("config", "set", "llm.fallback", "inbox").returncode == 0
    with FakeLlmServer([Fail(503)]) as failing:
        murmur.env["MURMUR_LLM_BASE_URL"] = failing.base_url
        assert murmur.run("add", "buy milk").returncode == 5  # the model server failed
    [waiting] = murmur.json("inbox")
    return int(waiting["id"])


def test_a_run_killed_after_its_first_turn_is_reverted_at_the_next_start(tmp_path: Path) -> None:
    reached, release = threading.Event(), threading.Event()
    with FakeLlmServer(stalling_at(2, reached, release)) as server:
        murmur = Murmur(tmp_path / "m.db", tmp_path, MURMUR_LLM_BASE_URL=server.base_url, MURMUR_LLM_MODEL="m")
        running = start(murmur, "add", "buy milk")
        assert reached.wait(timeout=30), "the run never reached its second turn"
        assert murmur.count("entries") == 1  # turn 1 applied, the utterance not done
        running.send_signal(signal.SIGKILL)
        running.communicate()
        release.set()
    assert murmur.json("list") == []  # the next start reverted the run
    [waiting] = murmur.json("inbox")
    assert (waiting["outcome"], waiting["error"]) == ("failed", "interrupted")
    assert murmur.count("entries") == 0


def test_a_read_only_database_holding_an_interrupted_run_can_still_be_listed() -> None:
    reached, release = threading.Event(), threading.Event()
    with FakeLlmServer(stalling_at(2, reached, release)) as server:
        murmur = world_reachable(MURMUR_LLM_BASE_URL=server.base_url, MURMUR_LLM_MODEL="m")
        running = start(murmur, "add", "buy milk")
        assert reached.wait(timeout=30), "the run never reached its second turn"
        running.send_signal(signal.SIGKILL)
        running.communicate()
        release.set()
    listed = murmur.run_read_only("list", folder_writable=True)
    assert listed.returncode == 0, listed.stderr
    assert "Buy milk" in listed.stdout  # the file as it is: the revert waits for a start that can write
    assert murmur.json("list") == []  # and that start reverts it
    assert murmur.count("entries") == 0


def test_a_retry_while_another_process_runs_the_utterance_is_refused_and_it_applies_once(tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "m.db", tmp_path, MURMUR_LLM_MODEL="m")
    utterance_id = failed_utterance(murmur)
    reached, release = threading.Event(), threading.Event()
    with FakeLlmServer(stalling_at(1, reached, release)) as server:
        murmur.env["MURMUR_LLM_BASE_URL"] = server.base_url
        first = start(murmur, "retry", str(utterance_id))
        assert reached.wait(timeout=30), "the first retry never asked the model"
        second = murmur.run("retry", str(utterance_id))
        release.set()
        _, err = first.communicate(timeout=60)
        assert first.returncode == 0, err
        assert len(server.requests) == 2  # the second retry never asked the model
    assert_one_line_error(second, 1, f"utterance {utterance_id} is being run by process {first.pid}")
    assert murmur.count("entries") == 1 and murmur.json("inbox") == []
