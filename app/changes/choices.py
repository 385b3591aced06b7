"""Readings offered back instead of guessed: kept with the utterance that waits in the inbox, applied once the user
picks one (`murmur retry N --choice K`, a button in the toast or the Inbox, an assistant's retry).

They live in the utterance's `held` column beside another program's held request ({"choices": [...]}), as the
tools take them, so a choice is applied by the executor like any other change.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.changes.interpretation import InterpretContext
from app.domain.actions import Choice, ParseResult, asked_item, parse_actions
from app.errors import UsageError, Words, command
from app.store.models import Utterance


def offer(utterance: Utterance, choices: Sequence[Choice]) -> None:
    """Keep `choices` with the utterance that waits for one of them."""
    kept = [{"label": choice.label, "asked": [list(asked_item(a)) for a in choice.actions]} for choice in choices]
    utterance.held = json.dumps({"choices": kept}, ensure_ascii=False)


def offered(utterance: Utterance) -> list[tuple[str, list[tuple[str, dict[str, Any]]]]]:
    """The readings kept with `utterance` (its label, and its changes as the tools take them), none when none."""
    kept = json.loads(utterance.held) if utterance.held else {}
    return [(str(c["label"]), [(str(k), dict(item)) for k, item in c["asked"]]) for c in kept.get("choices", ())]


def offered_labels(utterance: Utterance) -> list[str]:
    return [label for label, _ in offered(utterance)]


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
