"""Tool calls written as text, for models without native function calling (or whose chat template drops it).

The system prompt teaches `<execute>[{"name": ..., "args": {...}}]</execute>`; results go back in the next
user turn as `<results>[...]</results>`. `ExecuteParser` reads the model's words as they stream: it finds the
markers across chunk boundaries and hands each call over as soon as its JSON object is complete, so the
first change is applied while the model writes the next, as with native calls. Small models bend the
format, so it also takes Hermes-style `<tool_call>{...}</tool_call>`, "arguments" for "args", one object
without the list, code fences, and a bare JSON call with no markers at all.

The conversation itself stays in the native form (assistant tool calls, tool messages); `to_text_messages`
rewrites it for a text-protocol request, so one talk can move between the protocols.
"""

import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app.agent.turn import ToolCall

# The markers a call block may open with, and how each closes.
BLOCKS = {"<execute>": "</execute>", "<tool_call>": "</tool_call>"}
RESULTS_OPEN, RESULTS_CLOSE = "<results>", "</results>"
# A block that is not a list of calls: the loop refuses it with this name and the text as arguments.
MALFORMED = "malformed <execute> block"

_decoder = json.JSONDecoder()


def _shape(schema: dict[str, Any]) -> str:
    """A JSON schema as a short pattern a small model can copy: {"summary": string, "priority"?: 1-5}."""
    kind = schema.get("type")
    if "enum" in schema:
        return "|".join(json.dumps(value) for value in schema["enum"])
    if kind == "object":
        required = set(schema.get("required", []))
        fields = [
            f'"{name}"{"" if name in required else "?"}: {_shape(part)}'
            for name, part in schema.get("properties", {}).items()
        ]
        return "{" + ", ".join(fields) + "}"
    if kind == "array":
        return f"[{_shape(schema.get('items', {}))}, ...]"
    if kind == "integer" and "minimum" in schema and "maximum" in schema:
        return f"{schema['minimum']}-{schema['maximum']}"
    return str(kind or "any")


def tool_instructions(tools: Sequence[dict[str, Any]]) -> str:
    """The part of the system prompt that teaches the text protocol and lists the tools."""
    lines = [
        "",
        "Tools: you call them by writing a block like this, and nothing after it:",
        '<execute>[{"name": "create_entries", "args": {"entries": [{"content": "Buy oat milk", '
        '"summary": "Buy oat milk", "category": "todo", "source_text": "buy oat milk"}]}}]</execute>',
        "The block holds a JSON list of calls; each call has a name and args. Several calls may go in one "
        "block. The results come back as <results>[...]</results>; then answer in plain words, or call more "
        "tools. Never write <results> yourself. When no tool is needed, answer in plain words.",
        "The tools (a ? marks what may be left out):",
    ]
    for tool in tools:
        function = tool["function"]
        lines.append(f"- {function['name']}: {function['description']}")
        lines.append(f"  args: {_shape(function['parameters'])}")
    return "\n".join(lines) + "\n"


def _new_call_id() -> str:
    return f"text_{uuid.uuid4().hex[:12]}"


def _call_from(value: Any) -> ToolCall | None:
    """One call object as the model wrote it, or None when it is not call-shaped."""
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    args: Any = next((value[key] for key in ("args", "arguments", "parameters") if key in value), {})
    arguments = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
    return ToolCall(id=_new_call_id(), name=value["name"], arguments=arguments)


def _malformed(text: str) -> ToolCall:
    return ToolCall(id=_new_call_id(), name=MALFORMED, arguments=text.strip())


def bare_calls(text: str, known: Sequence[str]) -> list[ToolCall]:
    """Calls a model wrote as plain JSON, without markers (in a code fence or not); only known tool names."""
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("json").strip()
    if not body.startswith(("{", "[")):
        return []
    try:
        value, end = _decoder.raw_decode(body)
    except json.JSONDecodeError:
        return []
    if body[end:].strip():
        return []
    calls = [_call_from(item) for item in (value if isinstance(value, list) else [value])]
    if not calls or any(call is None or call.name not in known for call in calls):
        return []
    return [call for call in calls if call is not None]


@dataclass(frozen=True)
class ParsedText:
    visible: str  # the words outside call blocks: what the model says to the user
    calls: list[ToolCall]
    delivered: int  # calls already handed over while streaming


class ExecuteParser:
    """Fed the model's text piece by piece; hands over each complete call as it arrives."""

    def __init__(self, on_call: Callable[[ToolCall], None] | None = None) -> None:
        self._on_call = on_call
        self._visible: list[str] = []
        self._held = ""  # text outside a block that may be the start of an opening marker
        self._close: str | None = None  # the closing marker of the open block; None outside blocks
        self._block = ""  # what the open block holds, not yet read
        self._calls: list[ToolCall] = []
        self._delivered = 0

    def feed(self, text: str) -> None:
        if self._close is None:
            self._outside(self._held + text)
        else:
            self._block += text
            self._inside()

    def finish(self, cut: bool) -> ParsedText:
        """The end of the answer. A block left open ends here (a stop sequence ate its closing marker)
        unless the answer was `cut` by the length limit: then its unfinished call is refused."""
        if self._close is not None:
            self._read_calls()
            if _holds_a_call(self._block):
                self._calls.append(_malformed(f"(cut off) {self._block}" if cut else self._block))
            self._close = None
        self._visible.append(self._held)
        return ParsedText("".join(self._visible), list(self._calls), self._delivered)

    # -- outside a block -----------------------------------------------------------------------

    def _outside(self, text: str) -> None:
        starts = [(index, marker) for marker in BLOCKS if (index := text.find(marker)) >= 0]
        if starts:
            index, marker = min(starts)
            self._visible.append(text[:index])
            self._held = ""
            self._close = BLOCKS[marker]
            self._block = text[index + len(marker) :]
            self._inside()
            return
        keep = max((_partial_suffix(text, marker) for marker in BLOCKS), default=0)
        self._visible.append(text[: len(text) - keep])
        self._held = text[len(text) - keep :]

    # -- inside a block --------------------------------------------------------------------------

    def _inside(self) -> None:
        assert self._close is not None
        self._read_calls()
        end = _marker_outside_strings(self._block, self._close)
        if end < 0:
            return
        if _holds_a_call(self._block[:end]):  # an object between the last call and the marker that is not one
            self._calls.append(_malformed(self._block[:end]))
            self._deliver()
        rest = self._block[end + len(self._close) :]
        self._close, self._block = None, ""
        self._outside(rest)

    def _read_calls(self) -> None:
        """Take every complete call object off the front of the block."""
        while True:
            start = _skip_separators(self._block)
            if start >= len(self._block) or self._block[start] != "{":
                self._block = self._block[start:]
                return
            try:
                value, end = _decoder.raw_decode(self._block, start)
            except json.JSONDecodeError:
                self._block = self._block[start:]
                self._give_up_if_closed()
                return
            call = _call_from(value)
            self._calls.append(call or _malformed(self._block[start:end]))
            self._block = self._block[end:]
            self._deliver()

    def _give_up_if_closed(self) -> None:
        """An object that cannot be read although its block is closed is malformed, not unfinished."""
        assert self._close is not None
        end = _marker_outside_strings(self._block, self._close)
        if end >= 0:
            self._calls.append(_malformed(self._block[:end]))
            self._block = self._block[end:]
            self._deliver()

    def _deliver(self) -> None:
        while self._delivered < len(self._calls) and self._on_call is not None:
            self._on_call(self._calls[self._delivered])
            self._delivered += 1


def _marker_outside_strings(text: str, marker: str) -> int:
    """Where `marker` first stands outside a JSON string ("content": "see </execute>" does not close)."""
    quoted = escaped = False
    for index, char in enumerate(text):
        if quoted:
            escaped, quoted = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            quoted = True
        elif text.startswith(marker, index):
            return index
    return -1


def _holds_a_call(text: str) -> bool:
    """Words left in a block are the model's chatter, dropped; an object there was meant as a call."""
    return "{" in text


def _skip_separators(text: str) -> int:
    """Past what may stand between calls: spaces, the list's bracket, commas, a code fence and its 'json'."""
    index = 0
    while index < len(text):
        if text[index] in " \n\r\t[,`":
            index += 1
        elif text.startswith("json", index):
            index += 4
        else:
            break
    return index


def _partial_suffix(text: str, marker: str) -> int:
    """How many of `text`'s last characters could be the beginning of `marker`."""
    for size in range(min(len(marker) - 1, len(text)), 0, -1):
        if marker.startswith(text[-size:]):
            return size
    return 0


# -- the conversation, rewritten for a text-protocol request -------------------------------------------


def _execute_block(calls: Sequence[dict[str, Any]]) -> str:
    items = []
    for call in calls:
        function = call["function"]
        try:
            args: Any = json.loads(function["arguments"] or "{}")
        except json.JSONDecodeError:
            args = function["arguments"]
        items.append({"name": function["name"], "args": args})
    return f"<execute>{json.dumps(items, ensure_ascii=False)}</execute>"


def to_text_messages(messages: Sequence[dict[str, Any]], instructions: str) -> list[dict[str, Any]]:
    """Native-form wire messages as a text-protocol conversation: the instructions join the system message,
    calls become <execute> blocks, tool messages one <results> user turn; roles alternate (some chat
    templates refuse two turns of the same role in a row), so neighbours of one role are joined."""
    names: dict[str, str] = {}
    out: list[dict[str, Any]] = []
    results: list[dict[str, str]] = []

    def add(role: str, content: str) -> None:
        if out and out[-1]["role"] == role:
            out[-1]["content"] = f"{out[-1]['content']}\n\n{content}".strip()
        else:
            out.append({"role": role, "content": content})

    def flush_results() -> None:
        if results:
            add("user", f"{RESULTS_OPEN}{json.dumps(results, ensure_ascii=False)}{RESULTS_CLOSE}")
            results.clear()

    for message in messages:
        role = message["role"]
        if role == "tool":
            name = names.get(message.get("tool_call_id", ""), "")
            results.append({"name": name, "result": message.get("content") or ""})
            continue
        flush_results()
        content = message.get("content") or ""
        if role == "system":
            add("system", content + instructions)
        elif role == "assistant" and message.get("tool_calls"):
            for call in message["tool_calls"]:
                names[call["id"]] = call["function"]["name"]
            add("assistant", f"{content}\n{_execute_block(message['tool_calls'])}".strip())
        else:
            add(role, content)
    flush_results()
    return out
