"""Changes another program asked for that wait for the user's yes: kept as an inbox item, replayed once confirmed.

An assistant reaching the list over MCP may ask to archive or complete many entries at once; past
llm.confirm_over of one kind, nothing is applied: the request is saved as an utterance (failed, so it waits in
the inbox) whose text says it in words and whose `held` column keeps the changes themselves. `murmur retry
--confirm` or the window's yes runs it again through `HeldRequest`, an interpreter that gives the kept changes
back, in one undo batch marked with the program's name.
"""

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session

from app.changes.interpretation import InterpretContext
from app.domain.actions import ParseResult, parse_actions
from app.domain.enums import ActionKind, UtteranceOutcome, UtteranceSource
from app.errors import ConfirmationNeeded, waits_for_yes
from app.store.models import Utterance

# The kinds of change asked for in bulk that wait for a yes past llm.confirm_over (creating loses nothing).
CAPPED = {
    ActionKind.ARCHIVE: "archive",
    ActionKind.COMPLETE: "complete",
    ActionKind.SNOOZE: "snooze",
    ActionKind.UPDATE: "update",
}

Asked = Sequence[tuple[str, Mapping[str, Any]]]  # (action kind, its item as the agent's tools take it)


@dataclass(frozen=True)
class Caps:
    """What one request may change unasked, as one utterance may: llm.confirm_over of each capped kind, and
    llm.max_mutations in all."""

    confirm_over: int
    max_mutations: int


def too_many(count: int, most: int) -> str | None:
    """Why `count` changes at once wait for the user's yes, more than `most`; None when they need not."""
    return f"that would make {count} changes at once (more than {most})" if count > most else None


def over_the_cap(asked: Asked, caps: Caps) -> str | None:
    """Why `asked` waits for the user's yes ("that would archive 7 entries at once ..."); None when it need not."""
    if (why := too_many(len(asked), caps.max_mutations)) is not None:
        return why
    counts = Counter(kind for kind, _ in asked)
    for kind, verb in CAPPED.items():
        if (count := counts[kind.value]) > caps.confirm_over:
            return f"that would {verb} {count} entries at once (more than {caps.confirm_over}, llm.confirm_over)"
    return None


def hold(session: Session, asked: Asked, origin: str, words: str, why: str, now: datetime) -> ConfirmationNeeded:
    """Keep `asked` in the inbox, said as `words`, waiting for the user's yes; the error that says so."""
    utterance = Utterance(
        text=words,
        source=UtteranceSource.TYPED,  # text, not speech; `held` says another program asked
        created_at=now,
        outcome=UtteranceOutcome.FAILED,
        error=f"{why}; nothing was changed",
        processed_at=now,
        held=json.dumps(
            {"origin": origin, "why": why, "asked": [[kind, dict(item)] for kind, item in asked]}, ensure_ascii=False
        ),
    )
    session.add(utterance)
    session.flush()
    assert utterance.id is not None
    error = waits_for_yes(utterance.id, why)
    error.utterance_id = utterance.id
    return error


@dataclass
class HeldRequest:
    """The interpreter of a held request: its kept changes, once the user said yes."""

    asked: list[tuple[str, dict[str, Any]]]
    origin: str
    utterance_id: int
    confirmed: bool
    why: str
    name: str = "held"

    @staticmethod
    def of(utterance: Utterance, confirmed: bool) -> "HeldRequest | None":
        """The held request `utterance` keeps; None for one that was said."""
        if utterance.held is None:
            return None
        kept = json.loads(utterance.held)
        if "asked" not in kept:  # readings offered back to the user (app.changes.choices), not a request
            return None
        assert utterance.id is not None
        asked = [(str(kind), dict(item)) for kind, item in kept["asked"]]
        return HeldRequest(asked, str(kept["origin"]), utterance.id, confirmed, str(kept["why"]))

    def interpret(self, text: str, context: InterpretContext) -> ParseResult:
        if not self.confirmed:
            raise waits_for_yes(self.utterance_id, self.why)
        return parse_actions(self.asked)
