"""A settings file Murmur cannot read, or whose guarding values it cannot use, keeps off what it guards: no model
is asked (not even the default one the environment points at), nothing is synced, assistants only read. Each
front end names the line to fix, and nothing writes over the file. The real command on a real database file,
a real chat-completions server on 127.0.0.1 standing in for the default model server, the real MCP client."""

from pathlib import Path

import anyio
import pytest

from tests.support.llm_server import FakeLlmServer, Reply
from tests.support.mcp_client import mcp_session, text_of
from tests.support.murmur_cli import Murmur

# The user's file as they left it: a model server of their choosing and assistants held to reading, each broken
# in one of the ways a hand edit breaks a file (the guarding values come before the fault, as they would).
BROKEN = {
    "a half-typed line": b'[llm]\npreset = "openrouter"\n[mcp]\nread_only = true\n[ui]\ntheme = \n',
    "a table twice": b'[llm]\npreset = "openrouter"\n[mcp]\nread_only = true\n[llm]\nmodel = "x"\n',
    "bytes that are not UTF-8": b'[llm]\npreset = "openrouter"\n[mcp]\nread_only = true\n# caf\xe9\n',
}
LINE = {"a half-typed line": "line 6", "a table twice": "line 5", "bytes that are not UTF-8": "line 5"}


def murmur_with(tmp_path: Path, settings: bytes, **env: str) -> Murmur:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path, **env)
    for name in ("MURMUR_LLM_BASE_URL", "MURMUR_LLM_API_KEY", "MURMUR_LLM_PRESET"):
        murmur.env.pop(name, None)
    folder = Path(murmur.env["MURMUR_CONFIG_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.toml").write_bytes(settings)
    return murmur


@pytest.mark.parametrize("fault", sorted(BROKEN))
def test_no_model_is_asked_and_the_rules_file_the_words_naming_the_line(tmp_path: Path, fault: str) -> None:
    with FakeLlmServer([Reply(content="I would have done it")] * 3) as default_server:
        murmur = murmur_with(
            tmp_path, BROKEN[fault], OPENAI_BASE_URL=default_server.base_url, OPENAI_API_KEY="sk-openrouter-key"
        )
        added = murmur.run("add", "buy milk", "--json")
        assert added.returncode == 0, added.stderr
        assert default_server.requests == []
    assert LINE[fault] in added.stderr and "no language model is asked" in added.stderr
    assert [entry["summary"] for entry in murmur.json("list")] == ["Buy milk"]


def test_doctor_and_sync_name_the_line_and_config_set_writes_nothing(tmp_path: Path) -> None:
    murmur = murmur_with(tmp_path, BROKEN["a half-typed line"])
    settings = tmp_path / "config" / "settings.toml"
    report = murmur.json("doctor", code=1)
    [check] = [check for check in report["checks"] if check["name"] == "settings"]
    assert check["ok"] is False and "line 6" in check["detail"]
    synced = murmur.run("sync")
    assert synced.returncode != 0 and "sync is off" in synced.stderr and "line 6" in synced.stderr
    refused = murmur.run("config", "set", "ui.theme", "dark")
    assert refused.returncode == 2 and "line 6" in refused.stderr
    assert settings.read_bytes() == BROKEN["a half-typed line"]


def test_a_guarding_value_that_cannot_be_used_keeps_its_section_closed(tmp_path: Path) -> None:
    murmur = murmur_with(tmp_path, b'[mcp]\nread_only = "please"\n[ui]\ntoast_seconds = 0\n')
    listed = murmur.run("list")
    assert "mcp.read_only" in listed.stderr and "assistants may only read the list" in listed.stderr
    assert "ui.toast_seconds" in listed.stderr and "the default is used" in listed.stderr  # guards nothing
    assert murmur.run("config", "set", "ui.theme", "dark").returncode == 2  # would write read_only = false
    assert murmur.run("config", "set", "mcp.read_only", "true").returncode == 0  # the fix itself is taken
    assert "mcp.read_only" not in murmur.run("list").stderr


@pytest.mark.slow  # `murmur mcp` as a process
def test_assistants_get_only_the_reading_tools_and_hear_why(tmp_path: Path) -> None:
    murmur = murmur_with(tmp_path, BROKEN["a table twice"])

    async def scenario() -> tuple[set[str], str]:
        async with mcp_session(murmur) as session:
            names = {tool.name for tool in (await session.list_tools()).tools}
            refused = await session.call_tool("add", {"text": "buy milk"})
            assert refused.is_error
            return names, text_of(refused)

    names, refusal = anyio.run(scenario)
    assert names == {"search_entries", "whats_due", "recall"}
    assert "settings file" in refusal and "line 5" in refusal
    assert murmur.json("list") == []
