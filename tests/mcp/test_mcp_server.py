"""`murmur mcp` as an assistant uses it: the official MCP client starts it as a process on a real database file,
and what it changes is checked with the `murmur` command, as the user would."""

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import anyio
import pytest

from app.agent.tools import TOOLS
from app.assembly import build_service
from tests.support.mcp_client import CLIENT, called, history, mcp_session, text_of
from tests.support.murmur_cli import Murmur

# Left out of `make test-fast`: each test starts `murmur mcp` as a process of its own (seconds of imports).
pytestmark = pytest.mark.slow

WRITING = {"add", "create_entries", "update_entries", "complete_entries", "snooze_entries", "archive_entries"}
WRITING |= {"reschedule_entries", "undo", "choose_reading"}


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "murmur.db", tmp_path)


def test_the_tools_are_the_agents_with_their_schemas(murmur: Murmur) -> None:
    async def scenario() -> None:
        async with mcp_session(murmur) as session:
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            resources = {str(resource.uri) for resource in (await session.list_resources()).resources}
        assert set(tools) == {"search_entries", "whats_due", "recall", *WRITING}
        agents = {tool["function"]["name"]: tool["function"]["parameters"] for tool in TOOLS}
        for name in ("search_entries", "recall", "create_entries", "complete_entries", "archive_entries"):
            assert tools[name].input_schema == agents[name]
        assert tools["search_entries"].annotations is not None and tools["search_entries"].annotations.read_only_hint
        assert resources == {"murmur://today", "murmur://week"}

    anyio.run(scenario)


def test_add_from_words_reschedule_and_complete_are_history_via_the_client(murmur: Murmur) -> None:
    async def scenario() -> dict[str, Any]:
        async with mcp_session(murmur) as session:
            added = await called(session, "add", {"text": "remind me to call the dentist tomorrow, and buy milk"})
            made = {a["entry"]["summary"]: a["entry"]["short_id"] for a in added["applied"]}
            moved = {"id": made["Call the dentist"], "due_date": "Friday", "reason": "busy tomorrow"}
            rescheduled = await called(session, "reschedule_entries", {"entries": [moved]})
            milk = {"id": made["Buy milk"], "reason": "got it"}
            done = await called(session, "complete_entries", {"entries": [milk]})
            week = await session.read_resource("murmur://week")
            return {"added": added, "rescheduled": rescheduled, "done": done, "week": week}

    seen = anyio.run(scenario)
    assert [a["entry"]["summary"] for a in seen["added"]["applied"]] == ["Call the dentist", "Buy milk"]
    dentist = datetime.fromisoformat(seen["rescheduled"]["applied"][0]["entry"]["due_at"])
    assert (dentist.strftime("%A"), dentist.hour, dentist.minute) == ("Friday", 9, 0)  # at the time it had
    assert seen["done"]["applied"][0]["entry"]["status"] == "completed"
    assert "Call the dentist" in seen["week"].contents[0].text
    [completed, rescheduled, added] = history(murmur)[:3]
    assert {completed["origin"], rescheduled["origin"], added["origin"]} == {CLIENT}
    assert (completed["undo_id"], added["undo_id"]) == (seen["done"]["batch"], seen["added"]["batch"])
    assert "1 completed via Claude Desktop" in murmur.run("history").stdout


def test_undo_through_the_tool_and_through_murmur_undo(murmur: Murmur) -> None:
    assert murmur.run("add", "water the plants").returncode == 0  # the user's own batch

    async def scenario() -> tuple[str, str]:
        async with mcp_session(murmur) as session:
            first = await called(session, "add", {"text": "buy bread"})
            await called(session, "add", {"text": "buy eggs"})
            undone = await called(session, "undo", {"batch": first["batch"]})
            theirs = await session.call_tool("undo", {"batch": history(murmur)[-1]["undo_id"]})
            assert theirs.is_error
            return str(undone["reverted"][0]["entry_id"]), text_of(theirs)

    bread, refusal = anyio.run(scenario)
    assert "not made by Claude Desktop in this session" in refusal
    summaries = {entry["summary"] for entry in murmur.json("list")}
    assert summaries == {"Water the plants", "Buy eggs"} and bread not in summaries
    assert murmur.json("undo")["label"] == "1 created"  # the plants: the user's own newest, not the assistant's eggs
    assert {entry["summary"] for entry in murmur.json("list")} == {"Buy eggs"}


def test_a_mass_archive_waits_for_the_users_yes(murmur: Murmur) -> None:
    things = [f"thing number {n}" for n in range(6)]  # llm.confirm_over is 5

    async def scenario() -> tuple[list[str], str, Any]:
        async with mcp_session(murmur) as session:
            asked = [{"content": t, "summary": t, "category": "todo", "source_text": t} for t in things]
            made = await called(session, "create_entries", {"entries": asked})
            ids = [a["entry"]["short_id"] for a in made["applied"]]
            held = await session.call_tool("archive_entries", {"entries": [{"id": i, "reason": "tidy"} for i in ids]})
            assert held.is_error
            return ids, text_of(held), held.structured_content

    ids, refusal, data = anyio.run(scenario)
    utterance = data["error"]["utterance_id"]
    assert "archive 6 entries at once" in refusal and f"murmur retry {utterance} --confirm" in refusal
    assert len(murmur.json("list")) == 6  # nothing archived yet
    [waiting] = murmur.json("inbox")
    assert waiting["id"] == utterance and waiting["text"].startswith("Claude Desktop asked to archive 6 entries")
    assert murmur.run("retry", str(utterance)).returncode != 0  # no yes, no change
    confirmed = murmur.json("retry", str(utterance), "--confirm")
    assert len(confirmed["applied"]) == 6 and murmur.json("list") == []
    assert history(murmur)[0]["origin"] == CLIENT


def test_a_malformed_call_is_an_error_and_changes_nothing(murmur: Murmur) -> None:
    async def scenario() -> list[str]:
        async with mcp_session(murmur) as session:
            refusals = []
            for tool, arguments in (
                ("complete_entries", {"entries": "everything"}),
                ("complete_entries", {"entries": [{"id": "nothere", "reason": "x"}]}),
                ("create_entries", {"entries": [{"content": "ok", "category": "todo"}, {"category": "todo"}]}),
                ("whats_due", {"when": "someday"}),
                ("delete_everything", {}),
                ("add", {"text": ""}),
            ):
                result = await session.call_tool(tool, arguments)
                assert result.is_error, tool
                refusals.append(text_of(result))
            await called(session, "search_entries", {})  # the server still answers
            return refusals

    refusals = anyio.run(scenario)
    assert "'entries' must be a non-empty list" in refusals[0]
    assert "nothing was changed" in refusals[2] and "unknown tool 'delete_everything'" in refusals[4]
    assert murmur.json("list") == [] and history(murmur) == []


def test_an_unsure_reading_changes_nothing_and_the_assistant_applies_the_one_chosen(murmur: Murmur) -> None:
    assert murmur.run("add", "--offline", "pay the gas bill friday, and pay the phone bill monday").returncode == 0

    async def scenario() -> tuple[dict[str, Any], str, dict[str, Any]]:
        async with mcp_session(murmur) as session:
            unsure = await session.call_tool("add", {"text": "paid the bill"})
            assert isinstance(unsure.structured_content, dict)
            data = unsure.structured_content
            chosen = next(c["choice"] for c in data["choices"] if "phone" in c["reading"])
            done = await called(session, "choose_reading", {"utterance": data["utterance"], "choice": chosen})
            return data, text_of(unsure), done

    unsure, words, done = anyio.run(scenario)
    assert unsure["applied"] == [] and len(unsure["choices"]) == 2 and "choose_reading" in words
    assert [a["entry"]["summary"] for a in done["applied"]] == ["Pay the phone bill"]
    open_now = {entry["summary"]: entry["status"] for entry in murmur.json("list", "--status", "all")}
    assert open_now == {"Pay the gas bill": "active", "Pay the phone bill": "completed"}
    assert history(murmur)[0]["origin"] == CLIENT


def test_words_an_assistant_adds_become_no_memory_unless_the_user_allows_it(murmur: Murmur) -> None:
    async def scenario() -> dict[str, Any]:
        async with mcp_session(murmur) as session:
            result = await session.call_tool("add", {"text": "remember that my sister is allergic to peanuts"})
            assert isinstance(result.structured_content, dict)
            return result.structured_content

    refused = anyio.run(scenario)
    assert murmur.json("memory", "list") == []
    assert "mcp.allow_memories is off" in refused["failures"][0]["error"]
    assert [item["text"] for item in murmur.json("inbox")] == ["remember that my sister is allergic to peanuts"]
    assert murmur.run("config", "set", "mcp.allow_memories", "true").returncode == 0
    anyio.run(scenario)
    assert [memory["text"] for memory in murmur.json("memory", "list")] == ["My sister is allergic to peanuts"]


def test_read_only_hides_and_refuses_the_writing_tools(murmur: Murmur) -> None:
    assert murmur.run("config", "set", "mcp.read_only", "true").returncode == 0

    async def scenario() -> tuple[set[str], str]:
        async with mcp_session(murmur) as session:
            names = {tool.name for tool in (await session.list_tools()).tools}
            refused = await session.call_tool("add", {"text": "buy milk"})
            assert refused.is_error
            return names, text_of(refused)

    names, refusal = anyio.run(scenario)
    assert names == {"search_entries", "whats_due", "recall"}
    assert "mcp.read_only" in refusal and murmur.json("list") == []


def test_memories_are_read_only_when_the_user_allows_it(murmur: Murmur) -> None:
    assert murmur.run("memory", "add", "my brother is Tom").returncode == 0

    async def tools() -> set[str]:
        async with mcp_session(murmur) as session:
            return {tool.name for tool in (await session.list_tools()).tools}

    assert "memories" not in anyio.run(tools)
    assert murmur.run("config", "set", "mcp.allow_memories", "true").returncode == 0

    async def memories() -> str:
        async with mcp_session(murmur) as session:
            result = await session.call_tool("memories", {})
            assert not result.is_error
            return text_of(result)

    assert "my brother is Tom" in anyio.run(memories)


def test_the_window_sees_a_change_made_over_mcp(murmur: Murmur) -> None:
    """The window's service looks for another process's writes (the database watcher) twice a second."""
    assert murmur.run("add", "water the plants").returncode == 0
    window = build_service(murmur.db_path, offline=True)
    window.changed_since_last_look()

    async def scenario() -> None:
        async with mcp_session(murmur) as session:
            assert not window.changed_since_last_look()  # reading the list is no change
            await called(session, "search_entries", {"query": "plants"})
            assert not window.changed_since_last_look()
            await called(session, "add", {"text": "buy milk"})
            assert window.changed_since_last_look()

    try:
        anyio.run(scenario)
    finally:
        window.close()


def test_what_an_assistant_reads_is_redacted_as_the_models_requests_are(murmur: Murmur) -> None:
    said = "pay the plumber with card 4111 1111 1111 1111 tomorrow"

    async def scenario() -> str:
        async with mcp_session(murmur) as session:
            result = await session.call_tool("add", {"text": said})
            assert not result.is_error
            return text_of(result) + json.dumps(result.structured_content)

    seen = anyio.run(scenario)
    assert "4111 1111 1111 1111" not in seen and "[card number]" in seen
    assert "4111 1111 1111 1111" in murmur.json("list")[0]["content"]  # the user's own list keeps it


def test_a_clients_name_is_kept_as_one_printable_line(murmur: Murmur) -> None:
    async def scenario() -> None:
        async with mcp_session(murmur, client="Sneaky\n\x1b]0;title\x07 agent" + "x" * 100) as session:
            await called(session, "add", {"text": "buy bread"})

    anyio.run(scenario)
    [batch] = history(murmur)
    assert batch["origin"].startswith("Sneaky ]0;title agent") and len(batch["origin"]) == 60
    assert batch["origin"].isprintable()
