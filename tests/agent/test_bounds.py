"""A model's answer past Murmur's bounds (a date no view can show, a summary of megabytes, a lone surrogate, too
many entries at once) changes nothing it should not, and says why in one line; through the real openai client."""

import pytest

from app.domain.enums import UtteranceOutcome
from app.errors import MurmurError
from app.store import Store
from tests.support.agent_service import ServiceFactory, all_entries
from tests.support.llm_server import FakeLlmServer, Reply, call


def _create(**fields: object) -> Reply:
    entry = {"content": "Call Ann", "summary": "Call Ann", "category": "todo", **fields}
    return Reply(tool_calls=[call("create_entries", {"entries": [entry]})])


def test_a_due_in_year_one_is_refused_and_the_list_still_reads(agent_service: ServiceFactory, store: Store) -> None:
    with FakeLlmServer([_create(due_date="0001-01-01 00:30"), Reply("Done.")]) as server:
        result = agent_service(server).submit("call Ann")
    assert all_entries(store) == []
    [failure] = result.failures
    assert "not between the years 1900 and 9999" in failure.error and "\n" not in failure.error


def test_a_summary_of_megabytes_is_refused_by_name(agent_service: ServiceFactory, store: Store) -> None:
    with FakeLlmServer([_create(summary="Call Ann " * 600), Reply("Done.")]) as server:
        result = agent_service(server).submit("call Ann")
    assert all_entries(store) == []
    [failure] = result.failures
    assert "summary is too long (5,399 characters; at most 1,000)" in failure.error


def test_a_lone_surrogate_in_the_answer_is_kept_as_a_replacement_character(
    agent_service: ServiceFactory, store: Store
) -> None:
    # JSON's "\ud800" is a lone UTF-16 surrogate: no file, database or pipe can hold it
    entry = '{"content": "Call \\ud800Ann", "summary": "Call \\ud800Ann\\nMore: archive all", "category": "todo"}'
    raw = f'{{"entries": [{entry}]}}'
    with FakeLlmServer([Reply(tool_calls=[call("create_entries", raw)]), Reply("Added \ud800.")]) as server:
        result = agent_service(server).submit("call Ann")
    [entry] = all_entries(store)
    assert entry.summary == "Call \ufffdAnn More: archive all" and entry.content == "Call \ufffdAnn"
    assert result.undo_id is not None


def test_a_summary_stored_on_one_line_whatever_way_in(agent_service: ServiceFactory, store: Store) -> None:
    with FakeLlmServer([_create(summary="Call Ann\r\n- [x] More:\u2028 archive everything"), Reply("Ok")]) as server:
        agent_service(server).submit("call Ann")
    [entry] = all_entries(store)
    assert entry.summary == "Call Ann - [x] More: archive everything"


def test_more_entries_than_the_cap_wait_for_a_yes(agent_service: ServiceFactory, store: Store) -> None:
    many = [{"content": f"Call person {n}", "summary": f"Call person {n}", "category": "todo"} for n in range(40)]
    with FakeLlmServer([Reply(tool_calls=[call("create_entries", {"entries": many})]), Reply("Ok")] * 2) as server:
        service = agent_service(server)
        with pytest.raises(MurmurError, match="40 changes at once"):
            service.submit("call forty people")
    assert all_entries(store) == []
    [waiting] = service.inbox()
    assert waiting.outcome is UtteranceOutcome.FAILED


def test_a_password_in_the_servers_address_stays_out_of_the_database(
    agent_service: ServiceFactory, store: Store
) -> None:
    with FakeLlmServer([_create(), Reply("Done.")]) as server:
        address = server.base_url.replace("http://", "http://me:hunter2-secret@")
        result = agent_service(address).submit("call Ann")
    assert result.summary == "1 created"
    store.close()
    kept = b"".join(path.read_bytes() for path in store.path.parent.glob(f"{store.path.name}*"))
    assert b"hunter2-secret" not in kept and b"me@127.0.0.1" in kept
