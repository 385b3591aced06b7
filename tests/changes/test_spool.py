"""What is said while another program holds the database is kept in the spool, then filed in the inbox once."""

import json
import stat
import threading
from pathlib import Path

import pytest

from app.changes.spool import KEPT_NOTE, Spool, file_spooled
from app.domain.enums import UtteranceOutcome, UtteranceSource
from app.errors import UtteranceKeptError
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.store import Store
from tests.support.clock import FIXED_CLOCK
from tests.support.held_database import held


def service_on(db_path: Path) -> MurmurService:
    """A service that waits briefly for the lock (the wait's length is not what these tests are about)."""
    store = Store.open(db_path, busy_timeout_ms=100)
    return MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: FIXED_CLOCK)


def spooled_lines(service: MurmurService) -> list[dict[str, str]]:
    path = service.spool.path
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


def test_what_is_said_while_the_database_is_held_is_kept_and_filed_at_the_next_start(db_path: Path) -> None:
    service = service_on(db_path)
    with held(db_path):
        with pytest.raises(UtteranceKeptError, match="what you said is kept"):
            service.submit("buy bread", UtteranceSource.VOICE)
    assert [line["text"] for line in spooled_lines(service)] == ["buy bread"]
    assert stat.S_IMODE(service.spool.path.stat().st_mode) == 0o600
    assert service.inbox() == []  # nothing reached the database
    service.close()

    restarted = service_on(db_path)
    [waiting] = restarted.inbox()
    assert (waiting.text, waiting.source, waiting.outcome, waiting.error) == (
        "buy bread",
        UtteranceSource.VOICE,
        UtteranceOutcome.PENDING,
        KEPT_NOTE,
    )
    assert spooled_lines(restarted) == []
    assert restarted.retry(waiting.id or 0).applied  # an ordinary waiting utterance: it runs
    restarted.close()
    again = service_on(db_path)
    assert [u.text for u in again.inbox()] == [] and len(again.history()) == 1  # filed once, run once
    again.close()


def test_the_next_submit_that_gets_the_lock_files_the_spool_before_itself(db_path: Path) -> None:
    service = service_on(db_path)
    with held(db_path):
        for said in ("buy bread", "call mom"):
            with pytest.raises(UtteranceKeptError):
                service.submit(said)
    result = service.submit("water the plants")
    assert [u.text for u in service.inbox()] == ["buy bread", "call mom"]
    assert all(u.id is not None and u.id < result.utterance_id for u in service.inbox())
    assert spooled_lines(service) == []
    service.close()


def test_a_start_while_the_database_is_held_leaves_the_spool_for_later(db_path: Path) -> None:
    first = service_on(db_path)
    first.spool.append("buy bread", UtteranceSource.CLI, FIXED_CLOCK.now)
    first.close()
    with held(db_path):
        started = service_on(db_path)  # does not fail, and files nothing
        assert [line["text"] for line in spooled_lines(started)] == ["buy bread"]
    assert started.take_in_spooled() != [] and spooled_lines(started) == []
    started.close()


def test_lines_filed_before_a_crash_emptied_the_spool_are_not_filed_twice(store: Store) -> None:
    spool = Spool.beside(store.path)
    spool.append("buy bread", UtteranceSource.CLI, FIXED_CLOCK.now)
    with pytest.raises(KeyboardInterrupt), spool.taking() as spooled:
        with store.write() as session:
            file_spooled(session, spooled)
        raise KeyboardInterrupt  # the process dies after the commit, before the spool is emptied
    assert spool.waiting()
    service = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: FIXED_CLOCK)
    assert [u.text for u in service.inbox()] == ["buy bread"] and not spool.waiting()


def test_appends_from_many_writers_at_once_stay_whole_lines(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "murmur-spool.jsonl")
    words = "remind me to call the plumber about the kitchen tap " * 40

    def say(writer: int) -> None:
        for number in range(25):
            spool.append(f"{writer} {number} {words}", UtteranceSource.VOICE, FIXED_CLOCK.now)

    writers = [threading.Thread(target=say, args=(writer,)) for writer in range(8)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    with spool.taking() as spooled:
        said = sorted(tuple(map(int, s.text.split()[:2])) for s in spooled)
    assert said == [(w, n) for w in range(8) for n in range(25)]
    assert spool.path.read_bytes() == b""
