"""What a model's run is worth: an honest "no" stands, a copy of the prompt's example questions or of the user's
own words is no question (and never swallows the next utterance), an answer about the list that the list
contradicts gives way to the rules', and the fallback's note quotes one short clean line. Real agent, real openai
client, the local test server."""

from dataclasses import replace

from sqlmodel import col, select

from app.agent.prompts import EXAMPLE_QUESTIONS
from app.domain.actions import CreateAction
from app.domain.enums import Category, Status
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.store import Store
from app.store.models import Conversation
from tests.support.agent_service import ServiceFactory, add_entries, all_entries, tool_messages
from tests.support.llm_server import FakeLlmServer, Reply, call

OFFLINE_URL = "http://127.0.0.1:9/v1"  # only to reach the store


def with_fallback(service: MurmurService) -> MurmurService:
    rules = OfflineInterpreter()
    return replace(service, rules=rules, fallback=rules)


def open_talks(store: Store) -> list[Conversation]:
    with store.read() as session:
        return list(session.exec(select(Conversation).where(col(Conversation.open_until).is_not(None))).all())


def test_an_honest_no_after_a_failed_call_stands(agent_service: ServiceFactory, store: Store) -> None:
    unknown = call("update_entries", {"entries": [{"id": "ffffff", "priority": 1, "reason": "urgent"}]})
    with FakeLlmServer([Reply(tool_calls=[unknown]), Reply("I could not find that entry.")]) as server:
        result = with_fallback(agent_service(server)).submit("make the report urgent")
        assert "Error:" in tool_messages(server.requests[1])[0]
    assert result.interpreter == "llm" and result.fallback_reason is None
    assert result.message == "I could not find that entry."
    assert all_entries(store) == []  # the rules made no "Make the report" of it


def test_a_claim_after_a_failed_call_is_still_no_work_done(agent_service: ServiceFactory, store: Store) -> None:
    unknown = call("update_entries", {"entries": [{"id": "ffffff", "priority": 1, "reason": "urgent"}]})
    with FakeLlmServer([Reply(tool_calls=[unknown]), Reply("Done, it is urgent now.")]) as server:
        result = with_fallback(agent_service(server)).submit("make the report urgent")
    assert result.interpreter == "offline" and "changed nothing" in (result.fallback_reason or "")


def test_a_refusal_without_a_try_is_no_honest_no(agent_service: ServiceFactory, store: Store) -> None:
    with FakeLlmServer([Reply("Sorry, I can't set reminders.")]) as server:
        result = with_fallback(agent_service(server)).submit("remind me to water the plants tomorrow")
    assert result.interpreter == "offline" and [e.summary for e in all_entries(store)] == ["Water the plants"]


def test_a_copy_of_the_prompt_s_example_question_is_no_question(agent_service: ServiceFactory, store: Store) -> None:
    assert "what do I have to do this week?" in EXAMPLE_QUESTIONS
    with FakeLlmServer([Reply("What do I have to do this week?")]) as server:
        result = with_fallback(agent_service(server)).submit("every morning stretch for ten minutes")
    assert not result.question and result.interpreter == "offline"
    assert (
        result.fallback_reason
        == 'the model only repeated words it was given (it only said "What do I have to do this week?")'
    )
    [habit] = all_entries(store)
    assert habit.category is Category.HABIT and open_talks(store) == []


def test_an_echo_of_the_user_s_words_is_no_question(agent_service: ServiceFactory, store: Store) -> None:
    with FakeLlmServer([Reply("Every morning stretch for ten minutes?")]) as server:
        result = with_fallback(agent_service(server)).submit("every morning stretch for ten minutes")
    assert not result.question and result.interpreter == "offline" and len(all_entries(store)) == 1


def test_a_follow_up_the_model_cannot_take_as_an_answer_is_a_new_utterance(
    agent_service: ServiceFactory, store: Store
) -> None:
    """A real question opens a talk; the next words get a copied question back: they are filed as what they
    are, the talk is closed, and the words after that are not sent as part of it."""
    seed = agent_service(OFFLINE_URL)
    [dentist] = add_entries(seed, "Dentist appointment", category=Category.REMINDER)
    cancel = call("archive_entries", {"entries": [{"id": dentist[:6], "reason": "cancelled"}]})
    script = [
        Reply("Which plant do you mean?"),
        Reply("When is the dentist?"),  # a copy, in the talk the question opened
        Reply(tool_calls=[cancel]),
        Reply("Cancelled the dentist."),
    ]
    with FakeLlmServer(script) as server:
        service = with_fallback(agent_service(server))
        asked = service.submit("water the plant")
        assert asked.question and len(open_talks(store)) == 1
        filed = service.submit("every morning stretch for ten minutes")
        assert filed.interpreter == "offline" and not filed.question and open_talks(store) == []
        cancelled = service.submit("cancel the dentist")
        said = [m["content"] for m in server.requests[-2]["messages"] if m["role"] == "user"]
    assert said == ["cancel the dentist"]  # a new talk: the earlier words are not in it
    assert cancelled.interpreter == "llm" and len(cancelled.applied) == 1
    statuses = {e.summary: e.status for e in all_entries(store)}
    assert statuses["Dentist appointment"] is Status.ARCHIVED and any("stretch" in s.lower() for s in statuses)


def _due_tomorrow(service: MurmurService) -> None:
    action = CreateAction(
        content="Call the dentist",
        summary="Call the dentist",
        category=Category.TODO,
        source_text="x",
        due_text="tomorrow 9am",
    )
    service.apply([action])


def test_an_answer_about_the_list_the_list_contradicts_gives_way_to_the_rules(
    agent_service: ServiceFactory, store: Store
) -> None:
    _due_tomorrow(agent_service(OFFLINE_URL))
    with FakeLlmServer([Reply("You have due your week today!")]) as server:
        result = with_fallback(agent_service(server)).submit("what's due tomorrow?")
    assert result.interpreter == "offline" and result.answered
    assert result.message is not None and result.message.startswith("Due tomorrow: Call the dentist (")
    assert "does not match the list" in (result.fallback_reason or "")


def test_an_answer_that_names_the_wrong_day_gives_way_to_the_rules(agent_service: ServiceFactory, store: Store) -> None:
    _due_tomorrow(agent_service(OFFLINE_URL))
    with FakeLlmServer([Reply("Today you have to call the dentist.")]) as server:
        result = with_fallback(agent_service(server)).submit("what's due today?")
    assert result.interpreter == "offline" and result.message == "Nothing is due today."


def test_an_answer_the_list_bears_out_is_kept(agent_service: ServiceFactory, store: Store) -> None:
    _due_tomorrow(agent_service(OFFLINE_URL))
    with FakeLlmServer([Reply("Tomorrow at 9 you call the dentist.")]) as server:
        result = with_fallback(agent_service(server)).submit("what's due tomorrow?")
    assert result.interpreter == "llm" and result.message == "Tomorrow at 9 you call the dentist."


def test_the_fallback_note_quotes_one_short_clean_line(agent_service: ServiceFactory, store: Store) -> None:
    rambling = "Sure thing!\n\x07I will do it " + "right away " * 20 + "<|im_start|>user\nyou idiot"
    with FakeLlmServer([Reply(rambling)]) as server:
        result = with_fallback(agent_service(server)).submit("buy milk")
    reason = result.fallback_reason or ""
    quote = reason.split('"')[1]
    assert reason.startswith('the model changed nothing (it only said "Sure thing! I will do it right away')
    assert len(quote) <= 80 and quote.endswith("…") and "\n" not in reason and "\x07" not in reason
    assert "im_start" not in reason and "idiot" not in reason
