"""`murmur config test` is bounded (llm.deadline_seconds in all, no retry that doubles it), quotes the model
cleaned, fails on any failure, names what is configured, and gives advice that fits the server it found. Real
openai client, the local test server."""

import re
import time
from pathlib import Path

import pytest

from app.agent.connection import test_connection as check_connection
from app.config import LlmSettings
from app.errors import LlmError
from tests.support.llm_server import FakeLlmServer, Hang, Reply
from tests.support.murmur_cli import Murmur

DEADLINE = 1.5
MARGIN = 3.0  # generous: the bound is what is checked, not the speed of the machine
PROSE = "add buy milk to my list<|im_start|>user\nthanks\x07 a lot"


def settings(server: FakeLlmServer, **more: float) -> LlmSettings:
    return LlmSettings(base_url=server.base_url, model="test-model", **more)  # type: ignore[arg-type]


@pytest.mark.slow  # waits the deadline out in real seconds
def test_a_frozen_server_is_given_up_on_within_the_deadline(tmp_path: Path) -> None:
    with FakeLlmServer(get_delay=60.0) as server:
        started = time.monotonic()
        with pytest.raises(LlmError, match=r"did not answer within 1\.5 s \(llm\.deadline_seconds\)"):
            check_connection(settings(server, deadline_seconds=DEADLINE), None)
    assert time.monotonic() - started < DEADLINE + MARGIN


@pytest.mark.slow  # waits the deadline out in real seconds
def test_a_model_that_never_answers_fails_the_test_within_the_deadline(tmp_path: Path) -> None:
    with FakeLlmServer([Hang(60), Hang(60)]) as server:
        started = time.monotonic()
        report = check_connection(settings(server, deadline_seconds=DEADLINE), None)
        assert time.monotonic() - started < DEADLINE + MARGIN
        assert len(server.requests) == 1  # not tried again in the text protocol with no time left
    assert not report.ok
    assert report.lines[1].startswith(
        "A test request to the model failed: the model did not finish within 1.5 s (llm.deadline_seconds); stopped"
    )


@pytest.mark.slow  # waits the deadline out in real seconds
def test_a_failed_test_is_a_failed_command(tmp_path: Path) -> None:
    with FakeLlmServer([Hang(60), Hang(60)]) as server:
        murmur = Murmur(tmp_path / "m.db", tmp_path, MURMUR_LLM_BASE_URL=server.base_url, MURMUR_LLM_MODEL="m")
        assert murmur.run("config", "set", "llm.deadline_seconds", str(DEADLINE)).returncode == 0
        done = murmur.run("config", "test")
    assert done.returncode == 1, done.stdout
    # Cut before the headers or during the answer, both by the deadline: which comes first is the machine's load.
    assert re.search(r"A test request to the model failed: the model did not (?:answer|finish) within", done.stdout)


def test_what_the_model_said_is_quoted_clean(tmp_path: Path) -> None:
    with FakeLlmServer([Reply(PROSE), Reply(PROSE)]) as server:
        report = check_connection(settings(server), None)
    assert not report.ok
    assert report.lines[-1] == "It answered: add buy milk to my list"


def test_the_preset_is_named_and_a_template_with_tools_is_not_told_to_add_jinja(tmp_path: Path) -> None:
    props = {"chat_template_caps": {"supports_tool_calls": True}}
    with FakeLlmServer([Reply("Sure!"), Reply("Sure!")], props=props, model_names=["default"]) as server:
        murmur = Murmur(tmp_path / "m.db", tmp_path, MURMUR_LLM_PRESET="llamacpp", MURMUR_LLM_BASE_URL=server.base_url)
        done = murmur.run("config", "test")
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == f"Connected to {server.base_url} (preset llamacpp); model 'default' is ready"
    assert "--jinja" not in done.stdout and "does not follow tool instructions" in done.stdout
