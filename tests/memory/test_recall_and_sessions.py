"""What was said before, through the real `murmur` and the local test server: recall from the CLI and as
the model's tool, a session summed up by one request without tools, and that synthesis in the next
session's first request; a question answered counts as done."""

from pathlib import Path
from typing import Any

import pytest

from tests.support.llm_server import Fail, FakeLlmServer, Reply, Step, call
from tests.support.murmur_cli import Murmur, assert_one_line_error

SYNTHESIS = "The user noted that Tom fixes the neighbours' fence on Saturday."


def last_user(body: dict[str, Any]) -> str:
    return str([m for m in body["messages"] if m["role"] == "user"][-1]["content"])


def tool_results(body: dict[str, Any]) -> list[str]:
    return [str(m["content"]) for m in body["messages"] if m["role"] == "tool"]


def model(body: dict[str, Any]) -> Step:
    """A model for the whole story: notes the fence, sums the session up, answers from recall."""
    if "tools" not in body:
        return Reply(SYNTHESIS)
    said, results = last_user(body), tool_results(body)
    if "what did I say" in said:
        if not results:
            return Reply(tool_calls=[call("recall", {"query": "fence", "from": "last week"})])
        return Reply("You said Tom will fix the fence on Saturday.")
    if results:
        return Reply("Noted the fence.")
    entry = {
        "content": "Tom fixes the fence on Saturday",
        "summary": "Tom fixes the fence",
        "category": "note",
        "source_text": said,
    }
    return Reply(tool_calls=[call("create_entries", {"entries": [entry]})])


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "m.db", tmp_path, MURMUR_LLM_MODEL="m")


def test_recall_from_the_command_line(murmur: Murmur) -> None:
    assert murmur.run("add", "--offline", "remind me to ask Tom about the neighbours fence").returncode == 0
    assert murmur.run("add", "--offline", "buy milk").returncode == 0
    found = murmur.run("recall", "fence")
    assert found.returncode == 0, found.stderr
    assert "ask Tom about the neighbours fence" in found.stdout and "milk" not in found.stdout
    assert 'created "' in found.stdout  # what was done about it
    assert found.stdout.startswith("[1] ")  # the number `murmur play` and `murmur retry` take
    [hit] = murmur.json("recall", "fences", "--since", "yesterday")  # stemmed: fences finds fence
    assert hit["done"] and hit["said"].startswith("remind me")
    nothing = murmur.run("recall", "zebra")
    assert nothing.returncode == 1 and "Nothing you said matches" in nothing.stdout
    assert_one_line_error(murmur.run("recall", "fence", "--since", "the day after the flood"), 2, "not a time")


def test_a_session_is_summed_up_and_recalled_in_the_next(murmur: Murmur) -> None:
    with FakeLlmServer(model) as server:
        murmur.env["MURMUR_LLM_BASE_URL"] = server.base_url
        noted = murmur.run("add", "the neighbours fence is broken, Tom will fix it on Saturday")
        assert noted.returncode == 0, noted.stderr
        ended = murmur.run("session", "end")
        assert ended.returncode == 0, ended.stderr
        assert SYNTHESIS in ended.stdout
        synthesis_request = server.requests[-1]
        assert "tools" not in synthesis_request and "Tom will fix it" in last_user(synthesis_request)

        asked = murmur.run("add", "what did I say about the fence?")
        first, second = server.requests[-2:]
    assert asked.returncode == 0, asked.stderr  # answered: done, not left in the inbox
    assert "You said Tom will fix the fence on Saturday." in asked.stdout
    assert murmur.json("inbox") == []
    assert f"): {SYNTHESIS}" in first["messages"][0]["content"]  # "Previous session (...): ..."
    assert "the neighbours fence is broken, Tom will fix it on Saturday" in tool_results(second)[-1]
    assert "what did I say" not in tool_results(second)[-1]  # the talk in progress is not recalled
    [latest, previous] = murmur.json("session", "list")
    assert previous["synthesis"] == SYNTHESIS and previous["end_reason"] == "asked"
    assert latest["ended_at"] is None
    assert len(murmur.json("log")) == len(server.requests) == 5  # the synthesis is in the ledger too
    assert SYNTHESIS in murmur.run("log").stdout


def test_a_failed_synthesis_never_blocks_the_next_utterance(murmur: Murmur) -> None:
    def failing(body: dict[str, Any]) -> Step:
        return Fail(500, "synthesis broke") if "tools" not in body else model(body)

    with FakeLlmServer(failing) as server:
        murmur.env["MURMUR_LLM_BASE_URL"] = server.base_url
        assert murmur.run("add", "the fence is broken").returncode == 0
        ended = murmur.run("session", "end")
        assert ended.returncode == 0 and "not summed up" in ended.stdout
        tried = len(server.requests)
        again = murmur.run("add", "the gate is broken too")
        assert again.returncode == 0, again.stderr
        assert all("tools" in r for r in server.requests[tried:])  # not tried again on every utterance
    [_, ended_session] = murmur.json("session", "list")
    assert ended_session["synthesis"] is None and "500" in ended_session["synthesis_error"]


def test_an_answer_is_followed_up_in_the_same_talk(murmur: Murmur) -> None:
    def dentist(body: dict[str, Any]) -> Step:
        if "tools" not in body:
            return Reply("A short session.")
        if "when is" in last_user(body):
            return Reply("The dentist is on Thursday at 9:00.")
        return Reply("I moved it to Friday.")

    with FakeLlmServer(dentist) as server:
        murmur.env["MURMUR_LLM_BASE_URL"] = server.base_url
        answered = murmur.run("add", "when is the dentist?")
        assert answered.returncode == 0 and "Thursday" in answered.stdout
        murmur.run("add", "move it to Friday")
        follow_up = [(m["role"], m["content"]) for m in server.requests[-1]["messages"][1:]]
    assert follow_up[:2] == [("user", "when is the dentist?"), ("assistant", "The dentist is on Thursday at 9:00.")]
