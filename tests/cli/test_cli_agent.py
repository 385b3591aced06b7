"""The LLM side of the `murmur` command against the local chat-completions server."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.llm_server import Fail, FakeLlmServer, Reply, call, closed_port_url
from tests.support.murmur_cli import Murmur, assert_one_line_error

MILK_AND_BAD = [
    Reply(
        tool_calls=[
            call("create_entries", {"entries": [{"content": "Buy milk", "summary": "Buy milk", "category": "todo"}]}),
            call("snooze_entries", {"entries": [{"id": "abcdef", "until": "friday", "reason": "later"}]}),
            call("create_entries", {"entries": [{"summary": ""}]}),
        ]
    ),
    Reply("Added milk."),
]


@pytest.fixture
def server() -> Iterator[FakeLlmServer]:
    with FakeLlmServer(MILK_AND_BAD) as running:
        yield running


@pytest.fixture
def murmur(tmp_path: Path, server: FakeLlmServer) -> Murmur:
    return Murmur(tmp_path / "murmur.db", tmp_path, MURMUR_LLM_BASE_URL=server.base_url, MURMUR_LLM_MODEL="test-model")


def test_add_json_carries_the_model_s_words_turns_usage_and_every_failure(murmur: Murmur) -> None:
    added = murmur.json("add", "buy milk")
    assert added["interpreter"] == "llm" and added["message"] == "Added milk." and added["turns"] == 2
    assert added["usage"] == {"prompt_tokens": 200, "completion_tokens": 40, "cost_usd": 0}  # a local model is free
    assert [a["entry"]["summary"] for a in added["applied"]] == ["Buy milk"]
    assert {(f["tool"], f["error"]) for f in added["failures"]} == {
        ("create_entries", "create needs content or a summary"),
        ("snooze", "no entry has ID 'abcdef'"),
    }
    assert added["summary"] == "1 created (2 couldn't be processed)"


def test_the_log_and_usage_show_what_was_sent(murmur: Murmur, server: FakeLlmServer) -> None:
    murmur.run("add", "buy milk")
    log = murmur.json("log")
    assert [r["turn"] for r in log] == [2, 1]
    assert log[1]["messages"][-1] == {"role": "user", "content": "buy milk"}
    assert log[1]["response"]["tool_calls"][0]["function"]["name"] == "create_entries"
    assert log[1]["messages"] == [{k: v for k, v in m.items()} for m in server.requests[0]["messages"]]
    usage = murmur.json("usage")
    assert usage["by_month"][0]["requests"] == 2 and usage["budget_left"] is None
    assert log[1]["protocol"] == "native" and "create_entries" in log[1]["tools"] and "recall" in log[1]["tools"]
    human = murmur.run("log").stdout
    assert "> user: buy milk" in human and "< tool call create_entries" in human
    assert "tools offered as native tool calls: create_entries, update_entries," in human


def test_offline_is_forced_with_a_flag(murmur: Murmur, server: FakeLlmServer) -> None:
    added = murmur.json("add", "buy milk", "--offline")
    assert added["interpreter"] == "offline" and server.requests == []


def test_without_an_llm_the_offline_rules_run_and_say_so_once(tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path)
    first, second = murmur.run("add", "buy milk"), murmur.run("add", "buy eggs")
    assert "(offline: no LLM is configured" in first.stdout and "offline" not in second.stdout
    assert murmur.json("add", "buy bread")["interpreter"] == "offline"


def test_a_server_failure_is_one_line_and_retry_works_later(tmp_path: Path) -> None:
    """With llm.fallback = inbox; the default (the built-in rules file it) is the next test."""
    with FakeLlmServer([Fail(401, "bad key")]) as failing:
        murmur = Murmur(tmp_path / "m.db", tmp_path, MURMUR_LLM_BASE_URL=failing.base_url, MURMUR_LLM_MODEL="m")
        assert murmur.run("config", "set", "llm.fallback", "inbox").returncode == 0
        assert_one_line_error(murmur.run("add", "buy milk"), 5, "refused the API key (HTTP 401)")
    [waiting] = murmur.json("inbox")
    with FakeLlmServer(MILK_AND_BAD) as working:
        murmur.env["MURMUR_LLM_BASE_URL"] = working.base_url
        retried = murmur.json("retry", str(waiting["id"]))
    assert retried["summary"].startswith("1 created") and murmur.json("inbox") == []


def test_by_default_the_built_in_rules_file_what_the_model_failed(tmp_path: Path) -> None:
    with FakeLlmServer([Fail(503, "loading model"), Fail(503, "loading model")]) as failing:
        murmur = Murmur(tmp_path / "m.db", tmp_path, MURMUR_LLM_BASE_URL=failing.base_url, MURMUR_LLM_MODEL="m")
        done = murmur.run("add", "buy milk")
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()
    assert (
        said[0] == "The built-in rules filed this: the model server failed (HTTP 503): loading model; try again later"
    )
    assert "Buy milk" in said[1] and "offline: no LLM is configured" not in done.stdout
    assert murmur.json("inbox") == []
    assert_one_line_error(murmur.run("config", "set", "llm.fallback", "maybe"), 2, "one of offline, inbox")


def test_config_set_show_and_test(murmur: Murmur, server: FakeLlmServer, tmp_path: Path) -> None:
    assert murmur.run("config", "set", "llm.max_turns", "4").returncode == 0
    shown = murmur.json("config", "show")
    assert shown["settings"]["llm"]["max_turns"] == 4 and shown["llm"]["base_url"] == server.base_url
    assert_one_line_error(murmur.run("config", "set", "llm.max_turns", "many"), 2, "llm.max_turns expects int")
    assert_one_line_error(murmur.run("config", "set", "llm.colour", "red"), 2, "unknown setting 'llm.colour'")
    tested = murmur.run("config", "test")
    assert tested.returncode == 0 and "model 'test-model' is ready" in tested.stdout
    assert_one_line_error(murmur.run("config", "test", "--base-url", closed_port_url()), 5, "cannot reach")


def test_set_key_without_a_keyring_refuses_and_writes_nothing(murmur: Murmur, tmp_path: Path) -> None:
    murmur.env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
    done = murmur.run("config", "set-key", stdin="sk-secret-123\n")
    assert_one_line_error(done, 4, "no system keyring is available")
    written = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    assert b"sk-secret-123" not in written


def test_presets_name_the_servers_and_the_local_models_tried_with_their_scores(tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "m.db", tmp_path)
    shown = murmur.json("config", "presets")
    assert {server["name"] for server in shown["servers"]} >= {"ollama", "llamacpp", "openai"}
    assert shown["tested_models"] and "local_models_bench.py" in shown["measured"]
    for model in shown["tested_models"]:
        for score in (model["native"], model["text"], model["fallback"]):
            right, tried = score.split("/")
            assert 0 <= int(right) <= int(tried) == 20
        assert model["median_seconds"] > 0
    text = murmur.run("config", "presets").stdout
    assert all(model["name"] in text for model in shown["tested_models"]) and "config test" in text
