"""The vocabulary kept in the database: added, respelt, removed, each undone, and the migration that makes it."""

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from sqlmodel import col, select

from app.domain.clock import Clock
from app.domain.enums import Status, UndoKind, UtteranceSource
from app.domain.hints import Hints
from app.errors import UsageError
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.store import Store
from app.store.migrations import MIGRATIONS, migrate
from app.store.models import Utterance
from app.vocabulary.words import Word, replacement, term


@pytest.fixture
def service(store: Store, clock: Clock) -> MurmurService:
    return MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)


def test_words_added_together_are_undone_together(service: MurmurService) -> None:
    done = service.keep_words([term("Siobhan"), replacement("jay son", "JSON")])
    assert [change.kind for change in done.changes] == [UndoKind.ADD, UndoKind.ADD]
    assert service.words() == [Word("Siobhan"), Word("JSON", "jay son")]
    [batch] = service.history(1)
    assert batch.batch.label == "added 2 words"
    service.undo()
    assert service.words() == []


def test_a_word_kept_again_is_unchanged_or_respelt_and_undo_puts_the_old_spelling_back(
    service: MurmurService,
) -> None:
    service.keep_words([term("murmur"), replacement("jay son", "Json")])
    again = service.keep_words([term("murmur"), term("Murmur"), replacement("Jay Son", "JSON")])
    assert again.unchanged == [term("murmur")]
    assert [(c.kind, c.word.text) for c in again.changes] == [
        (UndoKind.EDIT, "Murmur"),
        (UndoKind.EDIT, "jay son -> JSON"),
    ]
    assert service.words() == [Word("Murmur"), Word("JSON", "jay son")]
    service.undo()
    assert service.words() == [Word("murmur"), Word("Json", "jay son")]


def test_a_removed_word_comes_back_with_undo(service: MurmurService) -> None:
    service.keep_words([term("Kubernetes"), replacement("jay son", "JSON")])
    service.remove_word("KUBERNETES")
    service.remove_word("JSON")  # a replacement by its term, as by its heard words
    assert service.words() == []
    [batch, *_] = service.history(1)
    assert batch.batch.label == 'removed "jay son -> JSON"'
    service.undo()
    assert service.words() == [Word("JSON", "jay son")]
    with pytest.raises(UsageError, match="'Siobhan' is not in your vocabulary") as refused:
        service.remove_word("Siobhan")
    assert refused.value.remedy is not None


def test_terms_come_first_among_the_hints(service: MurmurService) -> None:
    service.submit("buy milk", UtteranceSource.TYPED)
    service.keep_words([term("Siobhan"), replacement("jay son", "JSON")])
    assert service.vocabulary() == Hints(terms=("Siobhan", "JSON"), phrases=("Buy milk",))
    assert list(service.vocabulary()) == ["Siobhan", "JSON", "Buy milk"]  # the terms first


def test_a_dictation_gets_the_replacements_and_keeps_what_was_heard(service: MurmurService) -> None:
    service.keep_words([replacement("jay son", "JSON"), replacement("shiv on", "Siobhan")])
    service.submit("remind me to email shiv on about the jay son file", UtteranceSource.VOICE)
    service.submit("remind me to read the jay son spec", UtteranceSource.TYPED)
    with service.store.read() as session:
        saved = [(u.text, u.heard_text) for u in session.exec(select(Utterance).order_by(col(Utterance.id)))]
    assert saved == [
        ("remind me to email Siobhan about the JSON file", "remind me to email shiv on about the jay son file"),
        ("remind me to read the jay son spec", None),  # typed is meant as typed
    ]
    [dictated] = [e for e in service.entries([Status.ACTIVE]) if "Siobhan" in e.summary]
    assert dictated.source_text == "remind me to email Siobhan about the JSON file"


def test_import_and_export_go_through_the_text_file(service: MurmurService, tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("# mine\nSiobhan\njay son -> JSON\n", encoding="utf-8")
    assert len(service.import_words(path).changes) == 2
    assert service.words_text().splitlines()[1:] == ["Siobhan", "jay son -> JSON"]
    path.write_text("Kubernetes\n -> nothing\n", encoding="utf-8")
    with pytest.raises(UsageError, match="line 2"):
        service.import_words(path)
    assert [w.term for w in service.words()] == ["Siobhan", "JSON"]  # a bad file keeps nothing of it


def test_a_database_before_the_vocabulary_gains_it_and_keeps_its_undo_history(db_path: Path) -> None:
    before = [name for name, _ in MIGRATIONS].index("017_vocabulary")
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path), steps=MIGRATIONS[:before])
        db.execute("INSERT INTO undo_batches (label, created_at) VALUES ('remembered', '2026-01-01')")
        db.execute(
            "INSERT INTO undo_items (batch_id, position, kind, entry_id, description, after_revision, subject) "
            "VALUES (1, 0, 'remember', ?, '{}', 1, 'memory')",
            ("m" * 32,),
        )
    Store.open(db_path).close()
    with closing(sqlite3.connect(db_path)) as db:
        assert db.execute("SELECT id, kind, subject FROM undo_items").fetchall() == [(1, "remember", "memory")]
        db.execute(
            "INSERT INTO undo_items (batch_id, position, kind, entry_id, description, after_revision, subject) "
            "VALUES (1, 1, 'add', ?, '{}', 1, 'word')",
            ("w" * 32,),
        )
        assert db.execute("SELECT max(id) FROM undo_items").fetchone() == (2,)
        with pytest.raises(sqlite3.IntegrityError):
            db.execute("INSERT INTO vocabulary (id, term, created_at) VALUES ('short', 'x', '2026-01-01')")
