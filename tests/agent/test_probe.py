"""`murmur config test` tries the model with one tiny request that needs a tool call, against the local test
server (real openai client): which protocol works, how fast the model writes, and what to do when neither does."""

import re
from pathlib import Path
from typing import Any

from app.agent.connection import test_connection as check_connection
from app.config import LlmSettings
from tests.support.llm_server import Fail, FakeLlmServer, Reply, Step, call
from tests.support.murmur_cli import Murmur

MILK = call("create_entries", {"entries": [{"content": "Buy milk", "summary": "Buy milk", "category": "todo"}]})
MILK_BLOCK = '<execute>[{"name": "create_entries", "args": {"entries": [{"content": "Buy milk"}]}}]</execute>'


def report(server: FakeLlmServer) -> list[str]:
    return check_connection(LlmSettings(base_url=server.base_url, model="test-model"), None).lines


def test_a_model_with_native_tool_calls(tmp_path: Path) -> None:
    slow = Reply(tool_calls=[MILK], completion_tokens=40, chunk_size=4, chunk_delay=0.02)
    with FakeLlmServer([slow]) as server:
        lines = report(server)
    assert lines[0] == f"Connected to {server.base_url}; model 'test-model' is ready"
    assert re.fullmatch(r"Native tool calls work \(\d+\.\d s, \d+ tokens/s\)\.", lines[1]), lines
    [request] = server.requests
    assert [tool["function"]["name"] for tool in request["tools"]] == ["create_entries"]
    assert request["max_tokens"] == 200  # the probe is small, whatever llm.max_output_tokens says


def test_a_server_that_refuses_tools_gets_the_text_protocol(tmp_path: Path) -> None:
    def server_without_tools(body: dict[str, Any]) -> Step:
        return Fail(500, "tools param requires --jinja flag") if "tools" in body else Reply(MILK_BLOCK)

    with FakeLlmServer(server_without_tools) as server:
        lines = report(server)
    assert lines[1].startswith("Only the text protocol works (")


def test_a_template_without_tools_is_believed_and_named(tmp_path: Path) -> None:
    props = {"chat_template_caps": {"supports_tool_calls": False}}
    with FakeLlmServer([Reply(MILK_BLOCK)], props=props) as server:
        lines = report(server)
    assert lines[1].startswith("The server says this model's chat template takes no tools (llama.cpp: start ")
    assert "--jinja" in lines[1]
    assert lines[2].startswith("Only the text protocol works")
    assert ["tools" in body for body in server.requests] == [False]  # no native try that could only fail


def test_a_model_that_follows_neither_is_told_so_with_what_to_do(tmp_path: Path) -> None:
    prose = Reply("Sure, milk is a great choice! Anything else?")
    with FakeLlmServer([prose, prose]) as server:
        murmur = Murmur(tmp_path / "m.db", tmp_path)
        done = murmur.run("config", "test", "--base-url", server.base_url, "--model", "test-model")
    assert done.returncode == 1, done.stderr  # a model that cannot do the work is a failed test
    lines = done.stdout.splitlines()
    assert lines[1].startswith("This model does not follow tool instructions (")
    assert "use a bigger model (for example" in lines[1] and "--offline" in lines[1]
    assert "--jinja" not in done.stdout  # the server did not say its template lacks tools
    assert lines[2] == "It answered: Sure, milk is a great choice! Anything else?"


def test_what_config_test_finds_is_used_from_the_next_utterance(tmp_path: Path) -> None:
    """A model that ignores native tools (it answers in words) but follows the text protocol: auto could not
    tell from its answers alone; the test tells, and the next utterance goes straight to the text protocol."""

    def text_only(body: dict[str, Any]) -> Step:
        if "tools" in body:
            return Reply("Sure, I can help with your list!")
        if "<results>" in (body["messages"][-1].get("content") or ""):
            return Reply("Added milk.")
        return Reply(MILK_BLOCK)

    with FakeLlmServer(text_only) as server:
        murmur = Murmur(tmp_path / "m.db", tmp_path, MURMUR_LLM_BASE_URL=server.base_url, MURMUR_LLM_MODEL="m")
        tested = murmur.run("config", "test")
        assert tested.stdout.splitlines()[1].startswith("Only the text protocol works"), tested.stdout
        tried = len(server.requests)
        added = murmur.json("add", "buy milk")
        assert "tools" not in server.requests[tried]
    assert added["interpreter"] == "llm" and [a["entry"]["summary"] for a in added["applied"]] == ["Buy milk"]
