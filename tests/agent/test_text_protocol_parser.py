"""The text protocol's parser: calls found across any chunk boundary, each handed over as soon as it is
complete, and the ways small models bend the format."""

import json

import pytest

from app.agent.text_protocol import (
    MALFORMED,
    ExecuteParser,
    ParsedText,
    bare_calls,
    to_text_messages,
    tool_instructions,
)
from app.agent.tools import TOOLS
from app.agent.turn import ToolCall

MILK = {"name": "create_entries", "args": {"entries": [{"content": "Buy milk </execute> now", "summary": "Milk"}]}}
DONE = {"name": "complete_entries", "args": {"updates": [{"id": "3fa1b2", "reason": "said done"}]}}
ANSWER = f"Sure. <execute>[{json.dumps(MILK)}, {json.dumps(DONE)}]</execute> Done."


def parse(pieces: list[str], cut: bool = False) -> tuple[ParsedText, list[ToolCall]]:
    handed: list[ToolCall] = []
    parser = ExecuteParser(handed.append)
    for piece in pieces:
        parser.feed(piece)
    return parser.finish(cut), handed


def named(calls: list[ToolCall]) -> list[tuple[str, object]]:
    return [(call.name, json.loads(call.arguments)) for call in calls]


def test_the_markers_are_found_wherever_the_stream_splits_them() -> None:
    expected = [(MILK["name"], MILK["args"]), (DONE["name"], DONE["args"])]
    for split in range(1, len(ANSWER)):
        parsed, handed = parse([ANSWER[:split], ANSWER[split:]])
        assert named(parsed.calls) == expected, split
        assert named(handed) == expected and parsed.delivered == 2, split
        assert parsed.visible == "Sure.  Done.", split


def test_a_token_at_a_time() -> None:
    parsed, handed = parse(list(ANSWER))
    assert named(handed) == [(MILK["name"], MILK["args"]), (DONE["name"], DONE["args"])]
    assert parsed.visible == "Sure.  Done."


def test_each_call_is_handed_over_as_soon_as_it_is_complete() -> None:
    handed: list[ToolCall] = []
    parser = ExecuteParser(handed.append)
    first_ends = ANSWER.index(json.dumps(MILK)) + len(json.dumps(MILK))
    parser.feed(ANSWER[: first_ends - 1])
    assert handed == []  # the first object is not complete yet
    parser.feed(ANSWER[first_ends - 1 : first_ends])
    assert [call.name for call in handed] == ["create_entries"]  # before the second call has begun
    parser.feed(ANSWER[first_ends:])
    assert len(handed) == 2


@pytest.mark.parametrize(
    "answer",
    [
        # Hermes-style markers, "arguments", one object without the list
        '<tool_call>{"name": "create_entries", "arguments": {"entries": []}}</tool_call>',
        # a code fence inside the block
        '<execute>\n```json\n[{"name": "create_entries", "args": {"entries": []}}]\n```\n</execute>',
        # arguments as a JSON string, as the native protocol writes them
        '<execute>[{"name": "create_entries", "args": "{\\"entries\\": []}"}]</execute>',
        # the closing marker eaten by a stop sequence
        '<execute>[{"name": "create_entries", "args": {"entries": []}}]',
        # chatter inside the block, after the call
        '<execute>[{"name": "create_entries", "args": {"entries": []}}] that is all</execute>',
    ],
)
def test_small_models_bent_formats_are_read(answer: str) -> None:
    parsed, _ = parse([answer])
    assert named(parsed.calls) == [("create_entries", {"entries": []})]
    assert "execute" not in parsed.visible and "tool_call" not in parsed.visible


def test_a_block_that_is_not_calls_is_refused_not_skipped() -> None:
    parsed, handed = parse(['<execute>[{"name": "create_entries", "args": {]</execute> ok'])
    assert [call.name for call in parsed.calls] == [MALFORMED] and handed == parsed.calls
    assert parsed.visible == " ok"


def test_a_call_cut_by_the_length_limit_is_refused() -> None:
    parsed, handed = parse(['<execute>[{"name": "create_entries", "args": {"entries": [{"con'], cut=True)
    assert [call.name for call in parsed.calls] == [MALFORMED] and "(cut off)" in parsed.calls[0].arguments
    assert handed == []  # handed over at the end, to be refused by the loop


def test_text_without_blocks_is_all_visible_even_with_a_lone_angle_bracket() -> None:
    parsed, _ = parse(["Milk < 2 litres, <exec", "ute is not a word> fine"])
    assert parsed.calls == [] and parsed.visible == "Milk < 2 litres, <execute is not a word> fine"


def test_bare_json_calls_need_a_known_tool() -> None:
    known = ["create_entries"]
    fenced = '```json\n{"name": "create_entries", "arguments": {"entries": []}}\n```'
    assert named(bare_calls(fenced, known)) == [("create_entries", {"entries": []})]
    assert bare_calls('{"name": "delete_everything", "args": {}}', known) == []
    assert bare_calls('{"name": "create_entries"} and then some words', known) == []
    assert bare_calls("I added milk.", known) == []


def test_a_conversation_is_rewritten_with_alternating_roles() -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "create_entries", "arguments": '{"entries": []}'}}
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "buy milk"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "created [ab12] todo 'Milk'"},
        {"role": "user", "content": "and bread"},  # the next utterance, after a run that hit its turn limit
    ]
    out = to_text_messages(messages, "\nTOOLS")
    assert [m["role"] for m in out] == ["system", "user", "assistant", "user"]
    assert out[0]["content"] == "Be brief.\nTOOLS"
    assert out[2]["content"] == '<execute>[{"name": "create_entries", "args": {"entries": []}}]</execute>'
    results = out[3]["content"].split("\n\n")
    assert results[0] == '<results>[{"name": "create_entries", "result": "created [ab12] todo \'Milk\'"}]</results>'
    assert results[1] == "and bread"
    assert all("tool_calls" not in m for m in out)


def test_the_instructions_name_every_tool_and_its_required_fields() -> None:
    text = tool_instructions(TOOLS)
    for tool in TOOLS:
        assert f"- {tool['function']['name']}:" in text
    assert '"content": string' in text and '"priority"?: 1-5' in text and '"todo"|"note"' in text
