"""`murmur log` keeps exactly what a request was sent (the text protocol's instructions, the stop sequences,
the token and time limits), and `murmur usage` counts a request cut short (its tokens estimated when the server
never said). The real command, the real openai client, the local test server."""

from pathlib import Path

import pytest

from tests.support.llm_server import FakeLlmServer, Hang, Reply
from tests.support.murmur_cli import Murmur

MILK_BLOCK = '<execute>[{"name": "create_entries", "args": {"entries": [{"content": "Buy milk"}]}}]</execute>'


def murmur_for(tmp_path: Path, server: FakeLlmServer, *settings: tuple[str, str]) -> Murmur:
    murmur = Murmur(tmp_path / "m.db", tmp_path, MURMUR_LLM_BASE_URL=server.base_url, MURMUR_LLM_MODEL="m")
    for key, value in settings:
        assert murmur.run("config", "set", key, value).returncode == 0
    return murmur


def test_a_text_protocol_request_is_logged_as_sent(tmp_path: Path) -> None:
    with FakeLlmServer([Reply(MILK_BLOCK), Reply("Added milk.")]) as server:
        murmur = murmur_for(tmp_path, server, ("llm.tool_protocol", "text"), ("llm.deadline_seconds", "30"))
        assert murmur.json("add", "buy milk")["interpreter"] == "llm"
        sent = server.requests[0]
    first = murmur.json("log")[-1]
    assert first["messages"] == sent["messages"]  # the instructions the text protocol added included
    assert "Tools: you call them by writing a block" in first["messages"][0]["content"]
    assert first["sent_with"]["stop"] == sent["stop"]
    assert {"</execute>", "<|im_start|>", "<|im_end|>", "<start_of_turn>"} <= set(sent["stop"])
    assert first["sent_with"]["max_tokens"] == sent["max_tokens"] == 1024
    assert 0 < first["sent_with"]["time_limit_seconds"] <= 30
    assert first["tokens_estimated"] is False
    human = murmur.run("log").stdout
    assert 'sent with: {"max_tokens": 1024, "stop": ["</execute>", "<|im_end|>", "<|im_start|>"' in human


@pytest.mark.slow  # waits the deadline out in real seconds
def test_a_request_cut_at_the_deadline_is_counted_in_the_log_and_the_usage(tmp_path: Path) -> None:
    with FakeLlmServer([Hang(60)]) as server:
        murmur = murmur_for(tmp_path, server, ("llm.deadline_seconds", "1"))
        added = murmur.json("add", "buy milk")
    assert added["interpreter"] == "offline"  # the rules filed it
    [cut] = murmur.json("log")
    assert "did not finish within 1 s (llm.deadline_seconds); stopped after" in cut["error"]
    assert cut["tokens_estimated"] is True and cut["prompt_tokens"] > 100 and cut["total_ms"] >= 1000
    assert murmur.json("usage")["by_month"][0]["prompt_tokens"] == cut["prompt_tokens"]
    assert f"{cut['prompt_tokens']}+0 tokens (estimated)" in murmur.run("log").stdout
