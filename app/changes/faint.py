"""Words heard faintly wait for the user's yes: read from sound the voice activity detector did not call speech (a
whisper, or noise Whisper made words of), they are kept in the inbox, never applied unasked.

The utterance keeps a mark of it in its `held` column ({"faint": true}), so running it again asks again until the
user says yes (`murmur retry N --confirm`, the toast's button) or puts the words right.
"""

import json

from app.store.models import Utterance

FAINT = json.dumps({"faint": True})


def mark_faint(utterance: Utterance) -> None:
    """`utterance` was heard faintly: it waits for the user's yes."""
    utterance.held = FAINT


def heard_faintly(utterance: Utterance) -> bool:
    """Was `utterance` heard faintly (and not since confirmed by a reading it was offered)?"""
    return utterance.held is not None and json.loads(utterance.held).get("faint") is True
