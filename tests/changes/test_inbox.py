"""Clearing the inbox: Dismiss keeps what was said and undo brings it back; Edit runs the user's words instead,
keeping the ones first heard. The real service, the offline rules and a real SQLite file."""

import os
import socket
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from app.assembly import build_service
from app.config import Settings
from app.domain.enums import UndoSubject, UtteranceOutcome
from app.errors import RunInProgressError, UsageError
from app.service import MurmurService
from app.store.models import Utterance, utc_now


@pytest.fixture
def service(db_path: Path) -> Iterator[MurmurService]:
    opened = build_service(db_path, Settings(), offline=True)
    yield opened
    opened.close()


def failed_utterance(service: MurmurService, said: str = "eggs are done") -> int:
    """What was said and could not be applied (no eggs on the list): it waits in the inbox."""
    result = service.submit(said)
    assert result.applied == [] and result.failures
    return result.utterance_id


def stored_row(service: MurmurService, utterance_id: int) -> dict[str, object]:
    with service.store.read() as session:
        row = session.execute(text("SELECT * FROM utterances WHERE id = :id"), {"id": utterance_id}).mappings().one()
        return dict(row)


def test_dismiss_takes_it_out_of_the_inbox_and_keeps_it(service: MurmurService) -> None:
    utterance_id = failed_utterance(service)
    before = stored_row(service, utterance_id)
    dismissal = service.dismiss(utterance_id)
    assert service.inbox() == []
    assert dismissal.utterance.text == "eggs are done" and dismissal.utterance.dismissed_at is not None
    kept = stored_row(service, utterance_id)
    assert kept["text"] == "eggs are done" and kept["outcome"] == UtteranceOutcome.FAILED.value
    [batch] = service.history()
    assert batch.batch.id == dismissal.batch_id and batch.batch.label == 'dismissed "eggs are done"'
    [item] = batch.items
    assert (item.kind, item.subject, item.entry_id) == ("dismiss", UndoSubject.UTTERANCE, str(utterance_id))
    assert service.recall("eggs")[0].done == ['dismissed "eggs are done"']

    undone = service.undo()
    assert undone.batch.id == dismissal.batch_id and len(undone.reverted) == 1 and undone.conflicts == []
    assert [u.id for u in service.inbox()] == [utterance_id]
    assert stored_row(service, utterance_id) == before  # exactly as it was, column for column


def test_a_brought_back_utterance_can_be_retried_and_dismissed_again(service: MurmurService) -> None:
    utterance_id = failed_utterance(service)
    service.dismiss(utterance_id)
    service.undo()
    service.submit("buy eggs")
    assert service.retry(utterance_id).summary == "1 completed" and service.inbox() == []
    with pytest.raises(UsageError, match="already applied"):
        service.dismiss(utterance_id)


def test_what_is_not_waiting_cannot_be_dismissed_or_retried(service: MurmurService) -> None:
    utterance_id = failed_utterance(service)
    service.dismiss(utterance_id)
    with pytest.raises(UsageError, match=f"utterance {utterance_id} was dismissed"):
        service.dismiss(utterance_id)
    with pytest.raises(UsageError, match="was dismissed"):
        service.retry(utterance_id)
    with pytest.raises(UsageError, match="no utterance 42"):
        service.dismiss(42)
    assert len(service.history()) == 1  # the refusals wrote nothing


def test_an_utterance_being_run_is_not_dismissed(service: MurmurService) -> None:
    utterance_id = failed_utterance(service)
    with service.store.write() as session:  # a run of it in progress, in this live process
        utterance = session.get(Utterance, utterance_id)
        assert utterance is not None
        utterance.lease_host, utterance.lease_pid = socket.gethostname(), os.getpid()
        utterance.lease_until = utc_now() + timedelta(minutes=5)
        session.add(utterance)
    with pytest.raises(RunInProgressError, match="being run now"):
        service.dismiss(utterance_id)
    assert [u.id for u in service.inbox()] == [utterance_id]


def test_edited_words_are_run_instead_and_the_first_ones_kept(service: MurmurService) -> None:
    utterance_id = failed_utterance(service, "legs are done")  # misheard, and said before the eggs were listed
    service.submit("buy eggs")
    result = service.retry(utterance_id, text="  eggs are done ")
    assert result.utterance_id == utterance_id and result.summary == "1 completed"
    assert service.inbox() == []
    row = stored_row(service, utterance_id)
    assert (row["text"], row["heard_text"], row["attempts"]) == ("eggs are done", "legs are done", 2)


def test_edited_words_that_fail_again_wait_in_the_inbox_as_corrected(service: MurmurService) -> None:
    utterance_id = failed_utterance(service)
    service.retry(utterance_id, text="milk is done")
    service.retry(utterance_id, text="bread is done")
    [waiting] = service.inbox()
    assert (waiting.text, waiting.heard_text) == ("bread is done", "eggs are done")  # the words first heard stay
    with pytest.raises(UsageError, match="the text is empty"):
        service.retry(utterance_id, text="   ")
    assert service.inbox()[0].attempts == 3
