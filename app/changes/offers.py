"""Readings offered back instead of guessed, kept with the utterance that waits for the user to pick one.

They live in the utterance's `held` column beside another program's held request ({"choices": [...]}), as the
tools take them, so the one picked is applied by the executor like any other change (app.changes.choices).
"""

import json
from collections.abc import Sequence
from typing import Any

from app.domain.actions import Choice, asked_item
from app.store.models import Utterance

Offered = list[tuple[str, list[tuple[str, dict[str, Any]]]]]  # each reading's label, and its changes as asked


def offer(utterance: Utterance, choices: Sequence[Choice]) -> None:
    """Keep `choices` with the utterance that waits for one of them."""
    kept = [{"label": choice.label, "asked": [list(asked_item(a)) for a in choice.actions]} for choice in choices]
    utterance.held = json.dumps({"choices": kept}, ensure_ascii=False)


def offered(utterance: Utterance) -> Offered:
    """The readings kept with `utterance`; none when none."""
    kept = json.loads(utterance.held) if utterance.held else {}
    return [(str(c["label"]), [(str(k), dict(item)) for k, item in c["asked"]]) for c in kept.get("choices", ())]


def offered_labels(utterance: Utterance) -> list[str]:
    return [label for label, _ in offered(utterance)]
