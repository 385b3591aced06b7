"""The reading the user picked of those offered back (app.changes.offers), applied once they pick it: `murmur retry
N --choice K`, a button in the toast or the Inbox, an assistant's choose_reading."""

from dataclasses import dataclass
from typing import Any

from app.changes.interpretation import InterpretContext
from app.changes.offers import offered
from app.domain.actions import ParseResult, parse_actions
from app.errors import UsageError, Words, command
from app.store.models import Utterance


@dataclass
class ChosenReading:
    """The interpreter of an utterance whose reading the user picked: the kept changes of choice `number`."""

    asked: list[tuple[str, dict[str, Any]]]
    name: str = "chosen"

    @staticmethod
    def of(utterance: Utterance, number: int) -> "ChosenReading":
        """Choice `number` (from 1) of those kept with `utterance`; a UsageError naming them when there is none."""
        kept = offered(utterance)
        if not kept:
            raise UsageError(f"utterance {utterance.id} has no readings to choose from", _RETRY)
        if not 1 <= number <= len(kept):
            shown = "; ".join(f"{n}. {label}" for n, (label, _) in enumerate(kept, start=1))
            raise UsageError(f"choose 1 to {len(kept)}: {shown}")
        return ChosenReading(kept[number - 1][1])

    def interpret(self, text: str, context: InterpretContext) -> ParseResult:
        return parse_actions(self.asked)


_RETRY = command("retry", "N", instead=Words("say it again"), phrase="run it again with {}")
