"""What interpreters receive and return: rule-based ones read text into actions, agents act.

`Interpreter` (the offline rules) only reads: it turns text into actions and the service applies
them. `Agent` (the LLM loop) acts itself, turn by turn, through the utterance's `Workspace`.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from app.domain.actions import Choice, ParseResult
from app.domain.clock import Clock
from app.domain.events import EventCallback, StageTimer, untimed
from app.store import Store
from app.store.models import Entry

if TYPE_CHECKING:
    from app.changes.workspace import Workspace


@dataclass(frozen=True)
class InterpretContext:
    """The entries the user may be talking about (active and snoozed), and the time of speaking."""

    entries: Sequence[Entry]
    clock: Clock
    last_touched: Sequence[str] = ()  # the IDs of the entries the session's previous utterance made or changed
    done_lately: Sequence[Entry] = ()  # entries completed lately: answers to "did I ...?", never acted on


@dataclass(frozen=True)
class RunOptions:
    confirmed: bool = False  # the user confirmed more changes than the per-utterance cap
    new_conversation: bool = False  # do not continue an open question
    clock_started: float | None = None  # time.monotonic() when the utterance's deadline began; None: at the run
    origin: str | None = None  # the other program the words came through (an MCP client's name); None: the user
    choice: int | None = None  # the reading the user picked (from 1) of those offered back for a saved utterance
    may_remember: bool = True  # facts said may become memories (not through an assistant the user has not allowed)
    faint: bool = False  # the words were heard faintly (past the voice detector): they wait for the user's yes
    timed: StageTimer = field(default=untimed, compare=False, repr=False)  # times the steps inside the read


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0

    def plus(self, prompt_tokens: int, completion_tokens: int, cost_usd: float) -> "Usage":
        return Usage(
            self.prompt_tokens + prompt_tokens, self.completion_tokens + completion_tokens, self.cost_usd + cost_usd
        )


@dataclass(frozen=True)
class AgentOutcome:
    message: str | None = None  # the model's words to the user
    question: bool = False  # the message asks something; the next input within the window answers it
    turns: int = 0
    usage: Usage = Usage()
    conversation_id: int | None = None
    choices: tuple[Choice, ...] = ()  # with the question: the readings it offers, kept until the user picks one


class Interpreter(Protocol):
    name: str

    def interpret(self, text: str, context: InterpretContext) -> ParseResult:
        """Turn one utterance into actions; what cannot be understood goes into failures."""
        ...


@runtime_checkable
class Agent(Protocol):
    name: str

    def run(self, text: str, workspace: "Workspace", on_event: EventCallback, options: RunOptions) -> AgentOutcome:
        """Act on one utterance through `workspace`; raise a MurmurError when the run cannot finish."""
        ...

    def synthesize(self, transcript: str, store: Store, clock: Clock) -> str:
        """Sum up a finished session's talk for the next one; raise a MurmurError when it cannot."""
        ...

    def judged(self, store: Store, fault: str | None) -> str | None:
        """Count a run as the service judged it (`fault`: how the model failed it; None: it did the work);
        returns why the model is now set aside, when this failure was one too many."""
        ...

    def close(self) -> None:
        """Let go of connections held between runs."""
        ...
