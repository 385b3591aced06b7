"""One request to an OpenAI-compatible server, streamed when it can, as a typed `AssistantTurn`.

Streaming: tool-call deltas are assembled by index, and each call is handed to
`on_tool_call` as soon as its arguments are complete (the next call has begun), so the first
change is applied while the model is still writing the next. A server that answers a streaming
request with plain JSON is read as such. Transport failures become one-line `LlmError`s.
"""

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import httpx2 as httpx  # the HTTP library openai 3 is built on
import openai
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from app.agent.deadline import RequestDeadline
from app.agent.provider import ProviderConfig, ToolProtocol
from app.agent.reply_text import is_looping
from app.agent.text_protocol import ExecuteParser, bare_calls, to_text_messages, tool_instructions
from app.agent.turn import LOOPING, AssistantTurn, ToolCall, ToolCallCallback
from app.domain.summaries import clipped
from app.errors import LlmError

log = logging.getLogger("murmur.agent")

# The client retries 429 and 5xx answers itself (with backoff); once, so a dead server is
# reported within about two timeouts instead of minutes.
MAX_RETRIES = 1


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)

    def done(self, index: int) -> ToolCall:
        return ToolCall(id=self.id or f"call_{index}", name=self.name, arguments="".join(self.arguments))


def make_openai_client(config: ProviderConfig, deadline: RequestDeadline | None = None) -> openai.OpenAI:
    timeout = httpx.Timeout(config.read_wait_seconds, connect=min(5.0, config.timeout_seconds))
    return openai.OpenAI(
        base_url=config.base_url,
        api_key=config.api_key,
        timeout=timeout,
        max_retries=MAX_RETRIES,
        http_client=None
        if deadline is None
        else openai.DefaultHttpxClient(timeout=timeout, event_hooks=deadline.event_hooks()),
    )


_REASON_CHARS = 200
# How often a streaming answer is looked at for a loop, and how many of its last pieces are looked at.
_LOOP_CHECK_CHARS = 64
_LOOP_CHECK_PIECES = 400


def _server_reason(error: openai.APIStatusError) -> str:
    """The server's own message for a refused request, on one line and short."""
    body = error.body
    detail = body.get("error", body) if isinstance(body, dict) else None
    message = detail.get("message") if isinstance(detail, dict) else None
    return clipped(" ".join(str(message or "").split()), _REASON_CHARS)


def describe_transport_error(error: Exception, config: ProviderConfig) -> LlmError:
    """One line a user can act on, for every way a request can fail."""
    where = config.base_url
    if isinstance(error, openai.APITimeoutError):
        wait = config.read_wait_seconds
        return LlmError(f"the model server at {where} did not answer within {wait:g} s (llm.first_token_seconds)")
    if isinstance(error, openai.APIConnectionError):
        return LlmError(f"cannot reach the model server at {where}; is it running and is the URL right?")
    if isinstance(error, openai.AuthenticationError | openai.PermissionDeniedError):
        return LlmError(f"the model server refused the API key (HTTP {error.status_code}); `murmur config set-key`")
    if isinstance(error, openai.NotFoundError):
        return LlmError(f"the model server has no model {config.model!r} (HTTP 404); check llm.model")
    if isinstance(error, openai.RateLimitError):
        return LlmError("the model server is rate-limiting requests (HTTP 429); try again in a minute")
    if isinstance(error, openai.APIStatusError):
        said = f": {reason}" if (reason := _server_reason(error)) else ""
        if 400 <= error.status_code < 500:
            # The request itself was refused ("conversation roles must alternate"): trying again never helps,
            # the server's own words might.
            return LlmError(f"the model server refused the request (HTTP {error.status_code}){said}")
        return LlmError(f"the model server failed (HTTP {error.status_code}){said}; try again later")
    if isinstance(error, httpx.HTTPError):
        return LlmError(f"the connection to the model server at {where} dropped in the middle of its answer")
    if isinstance(error, json.JSONDecodeError | ValueError):
        return LlmError(f"the model server at {where} sent an empty or unreadable answer")
    return LlmError(f"the model server at {where} failed: {type(error).__name__}")


class ToolsRefused(LlmError):
    """The server refused a request that offered tools (some refuse the `tools` parameter itself)."""


class ChatClient:
    def __init__(self, config: ProviderConfig, client: openai.OpenAI | None = None) -> None:
        self.config = config
        self._deadline = RequestDeadline(config.request_seconds, stall_seconds=config.timeout_seconds)
        self._client = client or make_openai_client(config, self._deadline)

    def close(self) -> None:
        """Close the pooled connections to the server (kept open between utterances, for speed)."""
        self._client.close()

    def complete(
        self,
        messages: Sequence[dict[str, Any]],
        tools: Sequence[dict[str, Any]],
        on_tool_call: ToolCallCallback | None = None,
        time_left: float | None = None,
        protocol: ToolProtocol = ToolProtocol.NATIVE,
    ) -> AssistantTurn:
        """One request; `time_left` is what remains of the utterance's deadline, when that is shorter than
        a request may take. With the text protocol the tools are taught in the system message and the
        calls read from the model's words (app/agent/text_protocol.py); a model that writes its calls as
        words though offered native tools has them read the same way."""
        started = time.perf_counter()
        if time_left is not None and time_left < self.config.request_seconds:
            limit = max(0.0, time_left)
            late = f"the model did not finish within {self.config.deadline_seconds:g} s (llm.deadline_seconds)"
        else:
            limit, late = (
                self.config.request_seconds,
                f"the model server took longer than {self.config.request_seconds:g} s",
            )
        text = protocol is ToolProtocol.TEXT
        request: dict[str, Any] = {
            "model": self.config.model,
            "messages": to_text_messages(messages, tool_instructions(tools)) if text else list(messages),
            **self.config.limits(protocol),
        }
        if tools and not text:  # servers refuse an empty list: a request without tools has none
            request["tools"] = list(tools)
        known = [tool["function"]["name"] for tool in tools]
        parser = ExecuteParser(on_tool_call) if text else None
        self._deadline.start(limit)
        try:
            return _calls_in_words(self._answer(request, started, on_tool_call, parser), parser, known)
        except (openai.OpenAIError, httpx.HTTPError, ValueError, LlmError) as error:
            if self._deadline.expired:  # whatever the cut looked like to the reader (a dropped or ended stream)
                raise LlmError(late) from None
            if self._deadline.stalled:
                raise LlmError(
                    f"the model server stopped in the middle of its answer ({self.config.timeout_seconds:g} s "
                    "without a word, llm.timeout_seconds)"
                ) from None
            if isinstance(error, LlmError):
                raise
            described = describe_transport_error(error, self.config)
            if "tools" in request and _refused(error):
                raise ToolsRefused(str(described)) from None
            raise described from None
        finally:
            self._deadline.stop()

    def _answer(
        self,
        request: dict[str, Any],
        started: float,
        on_tool_call: ToolCallCallback | None,
        parser: ExecuteParser | None,
    ) -> AssistantTurn:
        if not self.config.stream:
            return _from_completion(self._client.chat.completions.create(**request), started)
        raw = self._client.chat.completions.with_raw_response.create(
            **request, stream=True, stream_options={"include_usage": True}
        )
        if raw.headers.get("content-type", "").startswith("application/json"):
            body = raw.http_response.read()
            return _from_completion(ChatCompletion.model_validate(json.loads(body)), started)
        return _from_stream(raw.parse(), started, on_tool_call, parser, self._deadline.heard)


def _refused(error: Exception) -> bool:
    """A refusal that may be about the request itself, not the key, the model's name or the rate (llama.cpp
    answers a `tools` parameter it cannot take with 400 or 500)."""
    return isinstance(error, openai.APIStatusError) and error.status_code in (400, 422, 500, 501)


def _calls_in_words(turn: AssistantTurn, parser: ExecuteParser | None, known: Sequence[str]) -> AssistantTurn:
    """The calls the model wrote as words: from the text protocol's parser, else (native calls missing)
    from a block or a bare JSON call in its answer, which small models write when their template drops
    the tools."""
    if turn.tool_calls:
        return turn
    if parser is None:
        parser = ExecuteParser()
        parser.feed(turn.content)
    parsed = parser.finish(cut=turn.truncated)
    calls = parsed.calls or bare_calls(parsed.visible, known)
    visible = parsed.visible if parsed.calls or not calls else ""
    return replace(turn, content=visible, tool_calls=calls, delivered=parsed.delivered, calls_in_words=bool(calls))


def _from_completion(completion: ChatCompletion, started: float) -> AssistantTurn:
    if not completion.choices:
        raise LlmError("the model server sent an answer with no message")
    choice = completion.choices[0]
    calls = [
        ToolCall(id=c.id, name=c.function.name, arguments=c.function.arguments)
        for c in choice.message.tool_calls or []
        if c.type == "function"
    ]
    usage = completion.usage
    elapsed = (time.perf_counter() - started) * 1000
    return AssistantTurn(
        content=choice.message.content or "",
        raw_content=choice.message.content or "",
        tool_calls=calls,
        finish_reason=choice.finish_reason,
        prompt_tokens=usage.prompt_tokens if usage else 0,
        completion_tokens=usage.completion_tokens if usage else 0,
        first_token_ms=elapsed,
        total_ms=elapsed,
    )


def _from_stream(
    chunks: openai.Stream[ChatCompletionChunk],
    started: float,
    on_tool_call: ToolCallCallback | None,
    parser: ExecuteParser | None,
    heard: Callable[[], None],
) -> AssistantTurn:
    content: list[str] = []
    calls: dict[int, _PartialCall] = {}
    delivered = 0
    finish_reason: str | None = None
    prompt_tokens = completion_tokens = 0
    first_token_ms: float | None = None
    looked = 0  # characters since the last look for a loop

    def deliver_up_to(index: int) -> None:
        nonlocal delivered
        while delivered < index and on_tool_call is not None:
            on_tool_call(calls[delivered].done(delivered))
            delivered += 1

    for chunk in chunks:
        heard()
        if chunk.usage:
            prompt_tokens, completion_tokens = chunk.usage.prompt_tokens, chunk.usage.completion_tokens
        if not chunk.choices:
            continue
        choice = chunk.choices[0]
        delta = choice.delta
        if first_token_ms is None and (delta.content or delta.tool_calls):
            first_token_ms = (time.perf_counter() - started) * 1000
        if delta.content:
            content.append(delta.content)
            if parser is not None:
                parser.feed(delta.content)
            looked += len(delta.content)
            if looked >= _LOOP_CHECK_CHARS:
                looked = 0
                if is_looping("".join(content[-_LOOP_CHECK_PIECES:])):
                    finish_reason = LOOPING  # reading on only costs the user time: stop here
                    chunks.close()
                    break
        for piece in delta.tool_calls or []:
            # Calls arrive in index order; a new index means every earlier call is complete.
            deliver_up_to(piece.index)
            partial = calls.setdefault(piece.index, _PartialCall())
            partial.id = piece.id or partial.id
            if piece.function:
                partial.name = piece.function.name or partial.name
                partial.arguments.append(piece.function.arguments or "")
        finish_reason = choice.finish_reason or finish_reason
    if finish_reason is None:
        raise LlmError("the model server's answer was cut off in the middle (the stream ended early)")
    if finish_reason not in ("length", LOOPING):
        # The last call is complete too; after a cut it is not and is left to the caller.
        deliver_up_to(len(calls))
    return AssistantTurn(
        content="".join(content),
        raw_content="".join(content),
        tool_calls=[calls[i].done(i) for i in sorted(calls)],
        finish_reason=finish_reason,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        first_token_ms=first_token_ms,
        total_ms=(time.perf_counter() - started) * 1000,
        delivered=delivered,
    )
