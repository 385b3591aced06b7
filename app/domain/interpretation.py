"""What every interpreter (offline rules, LLM agent) receives and must return."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from app.domain.actions import ParseResult
from app.domain.clock import Clock
from app.store.models import Entry


@dataclass(frozen=True)
class InterpretContext:
    """The entries the user may be talking about (active and snoozed), and the time of speaking."""

    entries: Sequence[Entry]
    clock: Clock


class Interpreter(Protocol):
    name: str

    def interpret(self, text: str, context: InterpretContext) -> ParseResult:
        """Turn one utterance into actions; what cannot be understood goes into failures."""
        ...
