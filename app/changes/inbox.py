"""Clearing the inbox by hand: an utterance dismissed, or its words corrected before a retry.

Nothing said is ever deleted. A dismissed utterance stays in the store, out of the inbox, and its
dismissal is recorded with its undo in the caller's transaction (as the memories' changes are), so
`murmur undo` brings it back. A correction keeps the words first saved in `heard_text`.
"""

import json
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from app.changes.memories import batch_label
from app.changes.runs import holder_alive
from app.domain.enums import UndoKind, UndoSubject, UtteranceOutcome
from app.domain.verbs import PAST_TENSE
from app.errors import RunInProgressError, UsageError, Words, command
from app.store.models import UndoBatch, UndoItem, Utterance
from app.store.queries import encode_row, raw_utterance_row

_UNDO_IT = Words("undoing its batch in the History reverts it")
_FIND_ITS_BATCH = Words("the History shows the batch whose undo brings it back")


@dataclass(frozen=True)
class Dismissal:
    utterance: Utterance
    undo_item_id: int
    batch_id: int


def waiting_utterance(session: Session, utterance_id: int) -> Utterance:
    """The utterance `utterance_id` while it waits in the inbox; a UsageError naming why it does not."""
    utterance = session.get(Utterance, utterance_id)
    if utterance is None:
        listed = command("inbox", instead=Words("the Inbox lists the ones waiting"), phrase="{} lists the ones waiting")
        raise UsageError(f"no utterance {utterance_id}", listed)
    if utterance.outcome is UtteranceOutcome.DONE:
        raise UsageError(
            f"utterance {utterance_id} was already applied", command("undo", instead=_UNDO_IT, phrase="{} reverts it")
        )
    if utterance.dismissed_at is not None:
        found = command("history", instead=_FIND_ITS_BATCH, phrase="{} shows the batch whose undo brings it back")
        raise UsageError(f"utterance {utterance_id} was dismissed", found)
    return utterance


def dismiss(session: Session, utterance: Utterance, now: datetime) -> Dismissal:
    """Take `utterance` out of the inbox, in an undo batch of its own; refused while a run of it goes on."""
    if holder_alive(utterance):
        raise RunInProgressError(f"utterance {utterance.id} is being run now; dismiss it once it has finished")
    assert utterance.id is not None
    session.flush()
    before = raw_utterance_row(session, utterance.id)
    assert before is not None
    utterance.dismissed_at = now
    utterance.revision += 1
    session.add(utterance)
    batch = UndoBatch(
        utterance_id=utterance.id, label=batch_label(PAST_TENSE[UndoKind.DISMISS], utterance.text), created_at=now
    )
    session.add(batch)
    session.flush()
    assert batch.id is not None
    item = UndoItem(
        batch_id=batch.id,
        position=0,
        kind=UndoKind.DISMISS,
        entry_id=str(utterance.id),
        description=json.dumps({"text": utterance.text}, ensure_ascii=False),
        subject=UndoSubject.UTTERANCE,
        before_row=encode_row(before),
        after_revision=utterance.revision,
    )
    session.add(item)
    session.flush()
    assert item.id is not None
    return Dismissal(utterance=utterance, undo_item_id=item.id, batch_id=batch.id)


def correct(utterance: Utterance, text: str) -> None:
    """Say `utterance` in the user's words (a misheard recording put right); the first words are kept.
    Not an undo of its own: the retry it comes with is what undo takes back."""
    if text == utterance.text:
        return
    if utterance.heard_text is None:
        utterance.heard_text = utterance.text
    utterance.text = text
    utterance.revision += 1
