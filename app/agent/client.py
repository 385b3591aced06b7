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
from app.errors import LlmError, ModelFault, Setting, command
from app.terminal import unbroken

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
    where = config.server
    if isinstance(error, openai.APITimeoutError):
        wait = config.read_wait_seconds
        return LlmError(f"the model server at {where} did not answer within {wait:g} s (llm.first_token_seconds)")
    if isinstance(error, openai.APIConnectionError):
        return LlmError(f"cannot reach the model server at {where}; is it running and is the URL right?")
    if isinstance(error, openai.AuthenticationError | openai.PermissionDeniedError):
        key = command("config", "set-key", instead=Setting("llm.api_key"))
        return LlmError(f"the model server refused the API key (HTTP {error.status_code})", key)
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


@dataclass
class Progress:
    """What one request is known to have cost so far, kept up to date while it runs: when it is cut short,
    the log and the budget still count it (an estimate where the server never said)."""

    seconds: float = 0.0
    prompt_tokens: int = 0  # as the server reported them; 0 until it does
    completion_tokens: int = 0
    prompt_chars: int = 0  # of what was sent, for an estimate
    answer_chars: int = 0  # of what was heard back, for an estimate

    @property
    def estimated(self) -> bool:
        return not self.prompt_tokens and not self.completion_tokens

    def tokens(self) -> tuple[int, int]:
        """Prompt and completion tokens: as reported, else estimated from the text (about 4 characters each)."""
        if not self.estimated:
            return self.prompt_tokens, self.completion_tokens
        return -(-self.prompt_chars // _CHARS_PER_TOKEN), -(-self.answer_chars // _CHARS_PER_TOKEN)


_CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class ChatRequest:
    """One request as it goes on the wire (`body`, the log keeps it whole), and how to read its answer."""

    body: dict[str, Any]
    protocol: ToolProtocol
    tool_names: list[str]


@dataclass(frozen=True)
class _Limit:
    """How long one request may take, and what is said when it takes longer."""

    seconds: float
    spent_before: float  # of the utterance's clock, before this request
    name: str  # the setting that set it

    def late(self, elapsed: float) -> str:
        total = self.spent_before + elapsed
        if self.name == "llm.deadline_seconds":
            what = f"the model did not finish within {self.spent_before + self.seconds:g} s ({self.name})"
        else:
            what = f"the model server took longer than {self.seconds:g} s ({self.name})"
        return f"{what}; stopped after {total:.1f} s"


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
        """One request built from `messages` and `tools` (see `request_for`) and sent (see `send`)."""
        return self.send(self.request_for(messages, tools, protocol), on_tool_call, time_left)

    def request_for(
        self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]], protocol: ToolProtocol
    ) -> ChatRequest:
        """The request exactly as it will be sent. With the text protocol the tools are taught in the system
        message and the calls read from the model's words (app/agent/text_protocol.py)."""
        text = protocol is ToolProtocol.TEXT
        request: dict[str, Any] = {
            "model": self.config.model,
            "messages": to_text_messages(messages, tool_instructions(tools)) if text else list(messages),
            **self.config.limits(protocol),
        }
        if tools and not text:  # servers refuse an empty list: a request without tools has none
            request["tools"] = list(tools)
        return ChatRequest(request, protocol, [tool["function"]["name"] for tool in tools])

    def limit_seconds(self, time_left: float | None) -> float:
        """How long the next request may take: `time_left` of the utterance's deadline, or llm.request_seconds."""
        return self._limit(time_left).seconds

    def _limit(self, time_left: float | None) -> _Limit:
        if time_left is not None and time_left < self.config.request_seconds:
            left = max(0.0, time_left)
            return _Limit(left, self.config.deadline_seconds - left, "llm.deadline_seconds")
        return _Limit(self.config.request_seconds, 0.0, "llm.request_seconds")

    def send(
        self,
        request: ChatRequest,
        on_tool_call: ToolCallCallback | None = None,
        time_left: float | None = None,
        progress: Progress | None = None,
    ) -> AssistantTurn:
        """Send a request made by `request_for`; `time_left` is what remains of the utterance's deadline. The
        limit covers everything from the connection to the last byte, the wait for the headers included (a
        llama.cpp server sends them with its first token). A model that writes its calls as words though
        offered native tools has them read the same way. `progress` is kept up to date for a caller that
        must count a request cut short."""
        started = time.perf_counter()
        progress = progress or Progress()
        body = request.body
        progress.prompt_chars = len(json.dumps(body["messages"], ensure_ascii=False)) + len(
            json.dumps(body.get("tools", []))
        )
        limit = self._limit(time_left)
        if limit.seconds <= 0:
            raise ModelFault(limit.late(0.0))
        # Every wait on the server, for the headers too, ends with the limit (httpx's timeouts are per wait).
        connect = min(5.0, self.config.timeout_seconds, limit.seconds)
        timeout = httpx.Timeout(min(self.config.read_wait_seconds, limit.seconds), connect=connect)
        parser = ExecuteParser(on_tool_call) if request.protocol is ToolProtocol.TEXT else None
        self._deadline.start(limit.seconds)
        try:
            turn = self._answer({**body, "timeout": timeout}, started, on_tool_call, parser, progress)
            # a lone surrogate in the model's words is no text any file, database or pipe can hold
            turn = replace(turn, content=unbroken(turn.content), raw_content=unbroken(turn.raw_content))
            return _calls_in_words(turn, parser, request.tool_names)
        except (openai.OpenAIError, httpx.HTTPError, ValueError, LlmError) as error:
            if self._deadline.expired or isinstance(error, openai.APITimeoutError) and _past(started, limit):
                raise ModelFault(limit.late(time.perf_counter() - started)) from None
            if self._deadline.stalled:
                raise LlmError(
                    f"the model server stopped in the middle of its answer ({self.config.timeout_seconds:g} s "
                    "without a word, llm.timeout_seconds)"
                ) from None
            if isinstance(error, LlmError):
                raise
            described = describe_transport_error(error, self.config)
            if "tools" in body and _refused(error):
                raise ToolsRefused(str(described)) from None
            raise described from None
        finally:
            self._deadline.stop()
            progress.seconds = time.perf_counter() - started

    def _answer(
        self,
        body: dict[str, Any],
        started: float,
        on_tool_call: ToolCallCallback | None,
        parser: ExecuteParser | None,
        progress: Progress,
    ) -> AssistantTurn:
        if not self.config.stream:
            return _from_completion(self._client.chat.completions.create(**body), started)
        raw = self._client.chat.completions.with_raw_response.create(
            **body, stream=True, stream_options={"include_usage": True}
        )
        if raw.headers.get("content-type", "").startswith("application/json"):
            answer = raw.http_response.read()
            return _from_completion(ChatCompletion.model_validate(json.loads(answer)), started)
        return _from_stream(raw.parse(), started, on_tool_call, parser, self._deadline.heard, progress)


def _past(started: float, limit: _Limit) -> bool:
    """The request's time is up (a read that timed out at the limit, before any deadline timer was armed)."""
    return time.perf_counter() - started >= limit.seconds - 0.05


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
    progress: Progress,
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
            progress.prompt_tokens, progress.completion_tokens = prompt_tokens, completion_tokens
        if not chunk.choices:
            continue
        choice = chunk.choices[0]
        delta = choice.delta
        if first_token_ms is None and (delta.content or delta.tool_calls):
            first_token_ms = (time.perf_counter() - started) * 1000
        progress.answer_chars += len(delta.content or "") + sum(
            len(piece.function.arguments or "") for piece in delta.tool_calls or [] if piece.function
        )
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
