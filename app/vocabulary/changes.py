"""Changes to the user's vocabulary (keep, remove), recorded with their undo in the caller's transaction."""

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import literal_column
from sqlmodel import Session, col, select

from app.changes.memories import batch_label
from app.domain.enums import UndoKind, UndoSubject
from app.domain.verbs import PAST_TENSE
from app.errors import UsageError, Words, command
from app.store.models import UndoBatch, UndoItem, VocabularyWord
from app.store.queries import encode_row, raw_word_row
from app.vocabulary.words import Word, word_key


@dataclass(frozen=True)
class WordChange:
    kind: UndoKind  # ADD, EDIT (a term spelt anew, a replacement pointed elsewhere) or REMOVE
    word: Word


@dataclass
class VocabularyChanges:
    """What one add, replace, import or remove did, in one undo batch (None when nothing changed)."""

    changes: list[WordChange] = field(default_factory=list)
    unchanged: list[Word] = field(default_factory=list)  # already kept just so
    batch_id: int | None = None


def as_word(row: VocabularyWord) -> Word:
    return Word(term=row.term, heard=row.heard)


def kept_words(session: Session) -> list[VocabularyWord]:
    """The words not removed, in the order they were given (rowid: the IDs are random)."""
    query = select(VocabularyWord).where(col(VocabularyWord.removed_at).is_(None))
    return list(session.exec(query.order_by(literal_column("vocabulary.rowid"))).all())


def keep_words(session: Session, words: Sequence[Word], now: datetime) -> VocabularyChanges:
    """Add each word; one kept under the same key (a term, or a replacement of the same heard words) is
    written the new way instead. One undo batch for them all."""
    done = VocabularyChanges()
    kept = {as_word(row).key: row for row in kept_words(session)}
    for word in words:
        row = kept.get(word.key)
        if row is not None and (row.heard is None) == (word.heard is None):
            if row.term == word.term:
                done.unchanged.append(word)
                continue
            before = _snapshot(session, row)
            row.term = word.term
            row.revision += 1
            _record(session, done, UndoKind.EDIT, row, before, now)
            continue
        row = VocabularyWord(term=word.term, heard=word.heard, created_at=now)
        kept[word.key] = row
        _record(session, done, UndoKind.ADD, row, None, now)
    return done


def remove_word(session: Session, text: str, now: datetime) -> VocabularyChanges:
    """Take out the term `text` names, or the replacement of the heard words `text`; kept, marked removed, so
    undo can bring it back."""
    key = word_key(text)
    row = next((row for row in kept_words(session) if as_word(row).key == key or word_key(row.term) == key), None)
    if row is None:
        listed = command("vocab", "list", instead=Words("Settings → Your words lists them"), phrase="{} lists them")
        raise UsageError(f"{text.strip()!r} is not in your vocabulary", listed)
    done = VocabularyChanges()
    before = _snapshot(session, row)
    row.removed_at = now
    row.revision += 1
    _record(session, done, UndoKind.REMOVE, row, before, now)
    return done


def _snapshot(session: Session, row: VocabularyWord) -> str:
    """The word's row as stored now (earlier changes of this transaction flushed first), encoded."""
    session.flush()
    stored = raw_word_row(session, row.id)
    assert stored is not None
    return encode_row(stored)


def _record(
    session: Session, done: VocabularyChanges, kind: UndoKind, row: VocabularyWord, before: str | None, now: datetime
) -> None:
    """Keep the change to `row` with its undo item, in the batch of `done` (made with its first change)."""
    word = as_word(row)
    session.add(row)
    if done.batch_id is None:
        batch = UndoBatch(label=batch_label(PAST_TENSE[kind], word.text), created_at=now)
        session.add(batch)
        session.flush()
        assert batch.id is not None
        done.batch_id = batch.id
    else:
        joined = session.get(UndoBatch, done.batch_id)
        assert joined is not None
        joined.label = f"{PAST_TENSE[done.changes[0].kind]} {len(done.changes) + 1} words"
    session.add(
        UndoItem(
            batch_id=done.batch_id,
            position=len(done.changes),
            kind=kind,
            entry_id=row.id,
            description=json.dumps({"text": word.text}, ensure_ascii=False),
            subject=UndoSubject.WORD,
            before_row=before,
            after_revision=row.revision,
        )
    )
    session.flush()
    done.changes.append(WordChange(kind, word))
