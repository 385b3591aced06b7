"""The model's remember and forget tools through the real `murmur` and the local test server: a fact kept
across processes, in every later request's system prompt, acted on, undone by `murmur undo`; a secret is
never remembered."""

import re
from pathlib import Path
from typing import Any

import pytest

from tests.support.llm_server import FakeLlmServer, Reply, Step, call
from tests.support.murmur_cli import Murmur

MORNING = "By morning the user means 8 am"


def system_prompt(body: dict[str, Any]) -> str:
    return str(body["messages"][0]["content"])


def tool_results(body: dict[str, Any]) -> list[str]:
    return [str(m["content"]) for m in body["messages"] if m["role"] == "tool"]


def said(body: dict[str, Any]) -> str:
    return str([m for m in body["messages"] if m["role"] == "user"][-1]["content"])


def model(body: dict[str, Any]) -> Step:
    if tool_results(body):
        return Reply("Done.")
    if "I mean 8" in said(body):
        return Reply(tool_calls=[call("remember", {"text": MORNING})])
    if "wifi" in said(body):  # what the model saw was redacted; it tries to keep it anyway
        return Reply(tool_calls=[call("remember", {"text": f"The wifi password is {said(body).split()[-1]}"})])
    if "forget" in said(body):
        memory_id = re.search(r'^\[([0-9a-f]+)\] "' + MORNING, system_prompt(body), re.MULTILINE)
        assert memory_id, system_prompt(body)
        return Reply(tool_calls=[call("forget", {"id": memory_id.group(1)})])
    due = "tomorrow 8am" if MORNING in system_prompt(body) else "tomorrow morning"
    entry = {
        "content": "Call the bank",
        "summary": "Call the bank",
        "category": "reminder",
        "due_date": due,
        "source_text": said(body),
    }
    return Reply(tool_calls=[call("create_entries", {"entries": [entry]})])


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "m.db", tmp_path, MURMUR_LLM_MODEL="m")


def test_a_remembered_fact_is_kept_shown_acted_on_and_undone(murmur: Murmur) -> None:
    with FakeLlmServer(model) as server:
        murmur.env["MURMUR_LLM_BASE_URL"] = server.base_url
        kept = murmur.run("add", "by morning I mean 8 am")
        assert kept.returncode == 0, kept.stderr
        assert "remembered" in kept.stdout and MORNING in kept.stdout
        [memory] = murmur.json("memory", "list")
        assert memory["text"] == MORNING and memory["source"] == "model"

        reminded = murmur.run("add", "remind me to call the bank tomorrow morning")  # a new process
        assert reminded.returncode == 0, reminded.stderr
        assert MORNING in system_prompt(server.requests[-2])
        [bank] = murmur.json("list")
        assert bank["due_at"].endswith("08:00:00+01:00")

        assert murmur.run("undo").returncode == 0  # the bank reminder
        assert murmur.run("undo").returncode == 0  # the remembered fact
        assert murmur.json("memory", "list") == []
        murmur.run("add", "remind me to call the bank tomorrow morning")
        assert "nothing yet" in system_prompt(server.requests[-2])


def test_the_model_forgets_what_the_user_takes_back(murmur: Murmur) -> None:
    with FakeLlmServer(model) as server:
        murmur.env["MURMUR_LLM_BASE_URL"] = server.base_url
        murmur.run("add", "by morning I mean 8 am")
        forgot = murmur.run("add", "forget what I said about mornings")
        assert forgot.returncode == 0, forgot.stderr
        assert "Forgot [" in tool_results(server.requests[-1])[-1]
    assert murmur.json("memory", "list") == []


def test_a_secret_is_never_remembered(murmur: Murmur) -> None:
    with FakeLlmServer(model) as server:
        murmur.env["MURMUR_LLM_BASE_URL"] = server.base_url
        murmur.run("add", "the wifi password is Blue42Sky")
        assert tool_results(server.requests[-1])[-1] == "Error: that looks like a secret; secrets are never remembered"
    assert murmur.json("memory", "list") == []
    assert not any("Blue42Sky" in str(body) for body in server.requests)
