"""The LLM agent: a multi-turn tool loop over any OpenAI-compatible server.

Per turn: a fresh context message (time, current entries) -> one streamed request -> each tool
call run as soon as it is complete, with a real tool result per call (what was applied, or
"Error: ...") -> again, until the model answers in words or `max_turns` is reached. A call with
invalid or truncated arguments never runs; an identical call runs only once per conversation.
A transport failure reverts what the run applied and leaves the utterance retryable. An ask_which call
ends the run with its question, changing nothing: its readings wait with the utterance for the user to pick.
"""

import json
import logging
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any

from sqlmodel import Session

from app.agent import ledger
from app.agent.client import ChatClient, Progress, ToolsRefused
from app.agent.messages import ChatMessage, Role, to_wire
from app.agent.prompts import EXAMPLE_QUESTIONS, context_message, session_lines, system_prompt
from app.agent.provider import ProviderConfig, ToolProtocol
from app.agent.reply_text import asks_the_user, clean_reply, only_repeats
from app.agent.search_tool import run_search
from app.agent.server_props import server_props, template_takes_tools
from app.agent.session_summary import synthesize
from app.agent.text_protocol import MALFORMED
from app.agent.tools import (
    ARCHIVE,
    ASK,
    COMPLETE,
    FORGET,
    MUTATING,
    RECALL,
    REMEMBER,
    SEARCH,
    SNOOZE,
    TOOLS,
    UPDATE,
    Question,
    actions_from_arguments,
    question_from_arguments,
)
from app.agent.turn import AssistantTurn, ToolCall, ToolCallCallback
from app.changes.interpretation import AgentOutcome, RunOptions, Usage
from app.changes.memories import MemoryChange, forget, remember
from app.changes.workspace import Workspace
from app.config import PrivacySettings
from app.domain.actions import Action, CreateAction, ParseFailure, UpdateAction
from app.domain.clock import Clock
from app.domain.enums import MemorySource
from app.domain.events import EventCallback, MessageEvent, ThinkingEvent, ToolCallEvent, ToolResultEvent
from app.domain.model_text import only_said
from app.domain.redaction import PLACEHOLDERS, Redacted, redact, secret_in
from app.errors import (
    BudgetExceededError,
    InvalidActionError,
    LlmError,
    ModelFault,
    ModelSetAside,
    MurmurError,
    Setting,
    command,
    waits_for_yes,
)
from app.memory.context import assemble_entries
from app.memory.profile import profile_lines
from app.memory.recall import RecallQuery, recall, render_hits
from app.memory.search_arguments import ToolArgumentError, time_argument
from app.memory.sessions import session_memory, touched_entries
from app.presentation.applied import tool_result_line
from app.presentation.failures import tool_failure_line, tool_parse_failure_line
from app.presentation.memories import tool_memory_line
from app.store import Store
from app.store.models import LlmRequest
from app.store.queries import get_entry
from app.terminal import unbroken_data

log = logging.getLogger("murmur.agent")

_LINE_CACHE_SIZE = 50_000
_TOOL_NAMES = json.dumps([tool["function"]["name"] for tool in TOOLS])  # the log's "tools offered"
# A guess of completion tokens for the budget's pre-authorisation of one request.
_EXPECTED_COMPLETION_TOKENS = 500
_RAISE_IT = "raise it with {}, or use --offline"  # how the command line offers a higher budget


@dataclass
class _Run:
    """The state of one run: messages so far, calls seen, changes counted, tokens spent."""

    workspace: Workspace
    on_event: EventCallback
    options: RunOptions
    original: str
    redacted: Redacted
    history: list[ChatMessage]
    conversation_id: int | None  # the talk this utterance continues, if any
    seen_calls: dict[str, str] = field(default_factory=dict)
    bulk: Counter[str] = field(default_factory=Counter)  # changes of each bulk kind (archive, forget, ...)
    mutations: int = 0
    usage: Usage = field(default_factory=Usage)
    turn: int = 0
    started: float = field(default_factory=time.monotonic)  # the utterance's deadline runs from here
    asked: Question | None = None  # the model asked which reading was meant: the run ends with this turn


class LlmAgent:
    name = "llm"

    def __init__(
        self,
        config: ProviderConfig,
        privacy: PrivacySettings,
        client: ChatClient | None = None,
        profile_tokens: int = 300,
    ) -> None:
        self.config = config
        self.privacy = privacy
        self.profile_tokens = profile_tokens  # the user's memories in every request, at most
        self.client = client or ChatClient(config)
        self._redacted_lines: dict[str, str] = {}
        self._protocol_found: ToolProtocol | None = None  # in auto: native until the model or server shows otherwise

    def close(self) -> None:
        self.client.close()

    def synthesize(self, transcript: str, store: Store, clock: Clock) -> str:
        """A finished session's talk summed up for the next session (see app/agent/session_summary.py)."""
        return synthesize(self.client, self.config, self.privacy, transcript, store, clock)

    # -- the loop ----------------------------------------------------------------------------

    def run(self, text: str, workspace: Workspace, on_event: EventCallback, options: RunOptions) -> AgentOutcome:
        store, clock = workspace.store, workspace.clock
        if (why := ledger.set_aside_reason(store, self.config.server, self.config.model)) is not None:
            raise ModelSetAside(_set_aside_line(self.config.model, why))
        conversation = None if options.new_conversation else ledger.open_conversation(store, clock.now)
        history = [ChatMessage.from_wire(m) for m in json.loads(conversation.messages)] if conversation else []
        redacted = redact(text) if self.privacy.redact else Redacted(text, [])
        history.append(ChatMessage.user(redacted.text))
        run = _Run(workspace, on_event, options, text, redacted, history, conversation.id if conversation else None)
        run.started = options.clock_started or run.started
        try:
            message = self._talk(run)
            question = run.asked is not None or self._asks(run, message)
        except LlmError:
            # What was said cannot be the answer the talk waited for: the next words start afresh.
            workspace.close_conversation(run.conversation_id)
            raise
        if message:
            on_event(MessageEvent(message, question))
        # A question, or an answer that changed nothing ("when is the dentist?"), stays open for a follow-up:
        # "move it to Friday" said next continues this talk.
        follows = question or bool(message and not run.mutations)
        open_until = clock.now + timedelta(seconds=self.config.follow_up_seconds) if follows else None
        conversation_id = ledger.save_conversation(store, run.conversation_id, to_wire(history), open_until)
        return AgentOutcome(
            message=message or None,
            question=question,
            turns=run.turn,
            usage=run.usage,
            conversation_id=conversation_id,
            choices=run.asked.choices if run.asked else (),
        )

    def _talk(self, run: _Run) -> str:
        """Turns until the model answers in words (what it said) or the turns run out; a MurmurError raised
        here ends the run, and the service then reverts what it applied."""
        for run.turn in range(1, self.config.max_turns + 1):
            if not self._authorise(run):
                return "Stopped early: the monthly budget is spent."
            run.on_event(ThinkingEvent(run.turn, self.name))
            reply = self._request(run)
            if run.asked is not None:
                # The question is the model's last word: the talk goes on from it when the user answers.
                run.history.append(ChatMessage(Role.ASSISTANT, run.asked.text))
                return run.asked.text
            if not reply.tool_calls:
                message = clean_reply(reply.content)
                if not message and run.turn == 1:
                    raise ModelFault("the model answered with nothing: no changes and no words")
                return message
        return f"Stopped after {self.config.max_turns} turns; what was applied stays (undo reverts it)."

    def _asks(self, run: _Run, message: str) -> bool:
        """Whether `message` is a question about what the user said, for them to answer. Words that only copy
        the prompt's example questions or the user's own are neither a question nor an answer: a fault when
        nothing was done."""
        said = [run.original, *(m.content for m in run.history if m.role is Role.USER)]
        if not only_repeats(message, [*EXAMPLE_QUESTIONS, *said]):
            return asks_the_user(message)
        if run.workspace.applied or run.workspace.memory_changes:
            return False
        raise ModelFault(f"the model only repeated words it was given ({only_said(message)})")

    def judged(self, store: Store, fault: str | None) -> str | None:
        """Count the run as the service judged it: `fault` says how the model failed it, None that it did the
        work. Returns why the model is set aside, when this failure was one too many."""
        why = ledger.note_run(store, self.config.server, self.config.model, fault)
        return None if why is None else _set_aside_line(self.config.model, why)

    def _authorise(self, run: _Run) -> bool:
        """Pre-authorise a request against the monthly budget; refuse the first, stop at a later one."""
        budget = self.config.monthly_budget
        if budget <= 0:
            return True
        clock = run.workspace.clock
        spent = ledger.spent_since(run.workspace.store, ledger.month_start(clock.now, clock.tz))
        expected_prompt = len(json.dumps(to_wire(run.history))) // 4 + 2_000  # + system prompt and context, roughly
        estimate = self.config.price.cost(expected_prompt, _EXPECTED_COMPLETION_TOKENS)
        if spent + estimate <= budget:
            return True
        if run.turn > 1:
            return False
        raise_it = command(
            "config", "set", "llm.monthly_budget", "N", instead=Setting("llm.monthly_budget"), phrase=_RAISE_IT
        )
        raise BudgetExceededError(
            f"the monthly LLM budget of ${budget:.2f} is spent (${spent:.2f} used this month)", raise_it
        )

    def _messages(self, run: _Run) -> list[ChatMessage]:
        """The system prompt with a fresh context, then the conversation: rebuilt every turn."""
        clock = run.workspace.clock
        with run.workspace.store.read() as session:
            entries = assemble_entries(session, clock.now, clock.tz, _recently_said(run), self.config.context_tokens)
            memory = session_memory(session, run.workspace.utterance_id, clock.now)
            profile = profile_lines(session, self.profile_tokens)
            touched = touched_entries(session, run.workspace.utterance_id)
        before = session_lines(memory, run.conversation_id, clock.tz, touched)
        if self.privacy.redact:
            before = [redact(line).text for line in before]
            profile = [redact(line).text for line in profile]
        lines = [
            [self._redacted_line(line) for line in group.lines] if self.privacy.redact else group.lines
            for group in entries.groups
        ]
        context = context_message(clock.now, clock.tz, entries, lines, before)
        # One system message: some chat templates refuse a second one, others silently drop it.
        return [ChatMessage.system(f"{system_prompt(profile)}\n{context}"), *run.history]

    def _redacted_line(self, line: str) -> str:
        """Entry lines change rarely between turns and utterances: each is redacted once."""
        if len(self._redacted_lines) > _LINE_CACHE_SIZE:
            self._redacted_lines.clear()
        if line not in self._redacted_lines:
            self._redacted_lines[line] = redact(line).text
        return self._redacted_lines[line]

    def _request(self, run: _Run) -> AssistantTurn:
        messages = to_wire(self._messages(run))
        results: list[ChatMessage] = []
        record = LlmRequest(
            utterance_id=run.workspace.utterance_id,
            created_at=run.workspace.clock.now,
            base_url=self.config.server,
            model=self.config.model,
            turn=run.turn,
            request=json.dumps(messages, ensure_ascii=False),
        )
        stopped: list[Exception] = []  # what stopped the calls (the cap, a store error), raised once recorded

        def run_call(call: ToolCall) -> None:
            if stopped:
                return
            try:
                results.append(self._run_call(run, call))
            except Exception as error:  # the answer is still read to its end, for its tokens and cost
                stopped.append(error)

        reply, record = self._complete(run, messages, record, run_call)
        for index, call in enumerate(reply.tool_calls[reply.delivered :], start=reply.delivered):
            if reply.truncated and index == len(reply.tool_calls) - 1:
                content = self._refuse(
                    run, call, "the answer was cut off (length limit) inside this call; nothing done"
                )
                results.append(self._tool_result(run, call, content))
            else:
                run_call(call)
        cost = self.config.price.cost(reply.prompt_tokens, reply.completion_tokens)
        run.usage = run.usage.plus(reply.prompt_tokens, reply.completion_tokens, cost)
        answer = ChatMessage(Role.ASSISTANT, reply.raw_content or reply.content, tuple(reply.tool_calls))
        record.response = json.dumps(answer.to_wire(), ensure_ascii=False)  # the log keeps what was answered
        answer = replace(answer, content=clean_reply(reply.content))  # the talk goes on with what was shown
        record.prompt_tokens, record.completion_tokens, record.cost_usd = (
            reply.prompt_tokens,
            reply.completion_tokens,
            cost,
        )
        record.first_token_ms, record.total_ms = reply.first_token_ms, reply.total_ms
        ledger.record_request(run.workspace.store, record)
        if stopped:
            raise stopped[0]
        run.history.append(answer)
        run.history.extend(results)
        return reply

    def _complete(
        self, run: _Run, messages: list[dict[str, Any]], record: LlmRequest, run_call: ToolCallCallback
    ) -> tuple[AssistantTurn, LlmRequest]:
        """The request, by the model's way of calling tools. In auto, a server that refuses the tools gets the
        same request again in the text protocol (a second record); when that works, it is remembered."""
        store = run.workspace.store
        protocol = self._protocol(run)
        try:
            return self._complete_as(run, messages, record, run_call, protocol), record
        except ToolsRefused as refused:
            if self.config.tool_protocol is not ToolProtocol.AUTO:
                raise
            identity = record.model_dump(include={"utterance_id", "created_at", "base_url", "model", "turn"})
            retry = LlmRequest(**identity, request=record.request)
            try:
                reply = self._complete_as(run, messages, retry, run_call, ToolProtocol.TEXT)
            except LlmError:
                raise refused from None  # the retry was a guess: the server's own refusal says more
            self._learn(store, ToolProtocol.TEXT, f"the server refused native tool calls ({refused})")
            return reply, retry

    def _complete_as(
        self,
        run: _Run,
        messages: list[dict[str, Any]],
        record: LlmRequest,
        run_call: ToolCallCallback,
        protocol: ToolProtocol,
    ) -> AssistantTurn:
        """One request; the log keeps it as sent (the text protocol's instructions, stop sequences, limits),
        and one cut short with the time and the tokens it cost (estimated when the server never said)."""
        request = self.client.request_for(messages, TOOLS, protocol)
        time_left = _time_left(run, self.config)
        record.protocol = protocol.value
        record.tools = _TOOL_NAMES
        record.request = json.dumps(request.body["messages"], ensure_ascii=False)
        record.sent_with = json.dumps(self._sent_with(request.body, time_left), ensure_ascii=False)
        progress = Progress()
        try:
            reply = self.client.send(request, run_call, time_left, progress)
        except LlmError as error:
            record.error = str(error)
            record.total_ms = progress.seconds * 1000
            # Cut short (at the deadline, or a dropped answer), the server spent on it; a refusal cost nothing.
            if isinstance(error, ModelFault) or progress.answer_chars:
                prompt_tokens, completion_tokens = progress.tokens()
                cost = self.config.price.cost(prompt_tokens, completion_tokens)
                record.prompt_tokens, record.completion_tokens, record.cost_usd = prompt_tokens, completion_tokens, cost
                record.tokens_estimated = progress.estimated
                run.usage = run.usage.plus(prompt_tokens, completion_tokens, cost)
            ledger.record_request(run.workspace.store, record)
            raise
        if protocol is ToolProtocol.NATIVE and reply.calls_in_words and self.config.tool_protocol is ToolProtocol.AUTO:
            self._learn(run.workspace.store, ToolProtocol.TEXT, "the model wrote its tool calls as text")
        if reply.prompt_tokens or reply.completion_tokens:
            return reply
        # No count from the server (a stream Murmur stopped reading, a server that never reports usage).
        record.tokens_estimated = True
        prompt_tokens, completion_tokens = progress.tokens()
        return replace(reply, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)

    def _sent_with(self, body: dict[str, Any], time_left: float) -> dict[str, Any]:
        """What the request carried besides its messages and tools, and the time it was given."""
        limits = {key: value for key, value in body.items() if key not in ("model", "messages", "tools")}
        seconds = self.client.limit_seconds(time_left)
        return {
            **limits,
            "stream": self.config.stream,
            "time_limit_seconds": round(seconds, 3),
            "first_token_seconds": min(self.config.read_wait_seconds, round(seconds, 3)),
        }

    def _protocol(self, run: _Run) -> ToolProtocol:
        """Native or text for this request: as set, else as learned of this model, else as its server says
        (asked on the utterance's clock)."""
        if self.config.tool_protocol is not ToolProtocol.AUTO:
            return self.config.tool_protocol
        store = run.workspace.store
        if self._protocol_found is None:
            known = ledger.learned_protocol(store, self.config.server, self.config.model)
            if known is not None:
                self._protocol_found = ToolProtocol(known.protocol)
            elif self.config.is_local and self._template_takes_no_tools(run):
                self._learn(store, ToolProtocol.TEXT, "the server says the model's chat template takes no tools")
            else:
                self._protocol_found = ToolProtocol.NATIVE
        assert self._protocol_found is not None
        return self._protocol_found

    def _template_takes_no_tools(self, run: _Run) -> bool:
        return template_takes_tools(server_props(self.config.base_url, _time_left(run, self.config))) is False

    def _learn(self, store: Store, protocol: ToolProtocol, reason: str) -> None:
        log.info("tool protocol for %s: %s (%s)", self.config.model, protocol.value, reason)
        ledger.learn_protocol(store, self.config.server, self.config.model, protocol.value, reason)
        self._protocol_found = protocol

    # -- one tool call -----------------------------------------------------------------------

    def _run_call(self, run: _Run, call: ToolCall) -> ChatMessage:
        """Run one complete call and return its tool message; nothing here raises but the cap."""
        run.on_event(ToolCallEvent(call.id, call.name, call.arguments))
        key = f"{call.name}:{_canonical(call.arguments)}"
        if key in run.seen_calls:
            content = (
                "Already done: this exact call ran earlier in this conversation; nothing was repeated. "
                f"Its result was:\n{run.seen_calls[key]}"
            )
            return self._tool_result(run, call, content)
        content = self._execute(run, call)
        run.seen_calls[key] = content
        return self._tool_result(run, call, content)

    def _execute(self, run: _Run, call: ToolCall) -> str:
        known = [*MUTATING, SEARCH, RECALL, REMEMBER, FORGET, ASK]
        problem = None
        arguments: Any = None
        if call.name == MALFORMED:
            problem = f"this <execute> block is not a JSON list of calls, each with a name and args: {call.arguments}"
        elif call.name not in known:
            problem = f"unknown tool {call.name!r}; the tools are {', '.join(known)}"
        elif run.asked is not None and call.name not in (SEARCH, RECALL):
            problem = "the user was just asked which they meant; nothing else changes until they answer"
        else:
            try:
                # a lone surrogate ("\ud800" in JSON) is no text any file or database can hold
                arguments = unbroken_data(json.loads(call.arguments or "{}"))
            except json.JSONDecodeError as error:
                problem = f"the arguments are not valid JSON ({error.msg} at character {error.pos}); nothing done"
            if arguments is not None and not isinstance(arguments, dict):
                problem = "the arguments must be a JSON object; nothing done"
        if problem:
            return self._refuse(run, call, problem)
        if call.name == ASK:
            return self._ask(run, arguments)
        if call.name == SEARCH:
            return self._search(run, arguments)
        if call.name == RECALL:
            return self._recall(run, arguments)
        if call.name in (REMEMBER, FORGET):
            return self._change_memory(run, call, arguments)
        parsed = actions_from_arguments(call.name, arguments)
        if run.mutations + len(parsed.actions) > self.config.max_mutations and not run.options.confirmed:
            raise waits_for_yes(
                run.workspace.utterance_id,
                f"that would make {run.mutations + len(parsed.actions)} changes at once (more than "
                f"{self.config.max_mutations})",
            )
        if call.name in _BULK_VERBS:
            self._confirm_bulk(run, call.name, len(parsed.actions))
        run.mutations += len(parsed.actions)
        parse_failures = [replace(f, tool=call.name) for f in parsed.failures]
        run.workspace.note_parse_failures(parse_failures)
        actions = [self._restored(run, action) for action in parsed.actions]
        applied, failures = run.workspace.apply(actions, self._originals(run)) if actions else ([], [])
        lines = [tool_result_line(item, redact(item.entry.summary).text) for item in applied]
        lines += [tool_parse_failure_line(f) for f in parse_failures]
        lines += [tool_failure_line(f) for f in failures]
        return "\n".join(lines)

    def _confirm_bulk(self, run: _Run, tool: str, count: int) -> None:
        """Many changes of one kind at once wait for the user's yes, whatever the model says ("delete
        everything" must not clear the list, a planted instruction must not wipe the memories, even though
        undo would bring them back). Each kind is counted on its own over the whole utterance."""
        run.bulk[tool] += count
        if run.bulk[tool] > self.config.confirm_over and not run.options.confirmed:
            what = "memories" if tool == FORGET else "entries"
            raise waits_for_yes(
                run.workspace.utterance_id,
                f"that would {_BULK_VERBS[tool]} {run.bulk[tool]} {what} at once (more than "
                f"{self.config.confirm_over}, llm.confirm_over)",
            )

    @staticmethod
    def _refuse(run: _Run, call: ToolCall, problem: str) -> str:
        """A call that cannot run at all: the user hears of it too (what was not done is said, never skipped)."""
        run.workspace.note_parse_failures([ParseFailure(tool=call.name, error=problem)])
        return f"Error: {problem}"

    def _ask(self, run: _Run, arguments: dict[str, Any]) -> str:
        """Keep the question and its readings, each entry named by its full ID so that the reading picked later
        changes the entry meant even once its short ID matches another; refused when changes were already made
        (the utterance is done, so nothing would wait for the pick)."""
        if run.workspace.applied or run.workspace.memory_changes:
            return "Error: changes were already made for these words; say what you did, or ask in words"
        try:
            with run.workspace.store.read() as session:
                asked = question_from_arguments(arguments, lambda action: _named_for_good(session, action))
        except InvalidActionError as error:
            return f"Error: {error}; nothing was asked"
        run.asked = asked
        offered = [f"{number}. {choice.label}" for number, choice in enumerate(asked.choices, start=1)]
        dropped = [f"Not offered: {why}" for why in asked.dropped]
        return "\n".join(
            [
                f"Asked the user: {asked.text}",
                *offered,
                *dropped,
                "Nothing was changed. The reading the user picks is applied for them; or they answer in words.",
            ]
        )

    def _search(self, run: _Run, arguments: dict[str, Any]) -> str:
        with run.workspace.store.read() as session:
            text = run_search(session, arguments, run.workspace.clock)
        return redact(text).text if self.privacy.redact else text

    def _recall(self, run: _Run, arguments: dict[str, Any]) -> str:
        """Earlier talks only: this one's words are already in front of the model."""
        clock = run.workspace.clock
        try:
            since, until = (time_argument(arguments, key, clock) for key in ("from", "to"))
        except ToolArgumentError as error:
            return f"Error: {error}"
        query = RecallQuery(
            str(arguments.get("query") or ""),
            since=since,
            until=until,
            exclude_conversation=run.conversation_id,
            exclude_utterance=run.workspace.utterance_id,
        )
        with run.workspace.store.read() as session:
            text = render_hits(recall(session, query), clock.tz)
        return redact(text).text if self.privacy.redact else text

    def _change_memory(self, run: _Run, call: ToolCall, arguments: dict[str, Any]) -> str:
        """remember or forget one fact; one change toward the per-utterance cap, undone with the rest. A refusal
        is told to the user too: a model trying to plant an instruction must not go unnoticed."""
        workspace, now, tool = run.workspace, run.workspace.clock.now, call.name
        if tool == REMEMBER:
            text = str(arguments.get("text") or "")
            if secret_in(text) is not None:
                return self._refuse(run, call, "that looks like a secret; secrets are never remembered")

            def change(session: Session, batch: int | None) -> MemoryChange:
                return remember(session, text, MemorySource.MODEL, now, workspace.utterance_id, batch)
        else:
            memory_id = str(arguments.get("id") or "")

            def change(session: Session, batch: int | None) -> MemoryChange:
                return forget(session, memory_id, now, workspace.utterance_id, batch)

        if run.mutations + 1 > self.config.max_mutations and not run.options.confirmed:
            return "Error: the limit of changes for one utterance is reached; nothing remembered"
        if tool == FORGET:
            self._confirm_bulk(run, FORGET, 1)
        try:
            done = workspace.change_memory(change)
        except MurmurError as error:
            return self._refuse(run, call, str(error))
        run.mutations += 1
        return tool_memory_line(done)

    def _originals(self, run: _Run) -> list[tuple[str, str]]:
        """What `_restored` may put back: each placeholder with its original, for the local database only."""
        if not self.privacy.keep_unredacted:
            return []
        return [(PLACEHOLDERS[f.kind], run.original[f.start : f.end]) for f in run.redacted.findings]

    def _restored(self, run: _Run, action: Action) -> Action:
        """Put back what redaction hid, in the user's own entries, when the user chose to keep it."""
        if not run.redacted.findings or not self.privacy.keep_unredacted:
            return action
        if isinstance(action, CreateAction):
            return replace(
                action,
                content=_unmask(action.content, run),
                summary=_unmask(action.summary, run),
                source_text=_unmask(action.source_text, run),
            )
        if isinstance(action, UpdateAction):
            changes = {k: _unmask(v, run) if k in ("content", "summary") else v for k, v in action.changes.items()}
            return replace(action, changes=changes)
        return action

    def _tool_result(self, run: _Run, call: ToolCall, content: str) -> ChatMessage:
        ok = not content.startswith("Error:")
        run.on_event(ToolResultEvent(call.id, call.name, content, ok))
        return ChatMessage.tool(call.id, content or "Nothing to do.")


# -- helpers ------------------------------------------------------------------------------------


# The kinds of change a model could make in bulk, each capped by llm.confirm_over (creating is not: it loses nothing).
_BULK_VERBS = {ARCHIVE: "archive", COMPLETE: "complete", SNOOZE: "snooze", UPDATE: "update", FORGET: "forget"}


def _set_aside_line(model: str, why: str) -> str:
    return f"the model {model!r} is set aside: {why}; a connection test that finds it working takes it back"


def _time_left(run: _Run, config: ProviderConfig) -> float:
    """What is left of the utterance's deadline, which runs from the start of its run."""
    return config.deadline_seconds - (time.monotonic() - run.started)


def _recently_said(run: _Run) -> str:
    """What the context is chosen for: this utterance, and the user's last words before it in this talk
    ("move it to Friday" is about what they named a moment ago)."""
    said = [message.content for message in run.history if message.role is Role.USER]
    return " ".join([run.original, *said[-3:-1]])


def _named_for_good(session: Session, action: Action) -> Action:
    """`action` with its entry's full ID, found as the executor finds it; a MurmurError when no one entry has it."""
    if isinstance(action, CreateAction):
        return action
    return replace(action, entry_id=get_entry(session, action.entry_id).id)


def _canonical(arguments: str) -> str:
    """Arguments compared by meaning: the same JSON with other spacing or key order is the same call."""
    try:
        return json.dumps(json.loads(arguments), sort_keys=True, ensure_ascii=False)
    except json.JSONDecodeError:
        return arguments


def _unmask(text: str, run: _Run) -> str:
    """Each placeholder back to the original it replaced, in order of appearance, kind by kind."""
    originals: dict[str, list[str]] = {}
    for finding in run.redacted.findings:
        originals.setdefault(PLACEHOLDERS[finding.kind], []).append(run.original[finding.start : finding.end])
    for placeholder, values in originals.items():
        for value in values:
            if placeholder not in text:
                break
            text = text.replace(placeholder, value, 1)
    return text
