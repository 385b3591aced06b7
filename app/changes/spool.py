"""The spool: what was said while another program held the database, kept in a file until it can be filed.

One JSON line per utterance, in a file beside the database readable by the user alone, appended with
O_APPEND under an exclusive lock on the file and synced before the user is told it is kept. Taking in holds
the same lock from reading the lines until they are committed as utterances and the file is emptied
(truncated, never removed: a writer waiting for the lock must append to the file the next taker reads). A
taker that dies after committing and before emptying leaves lines already filed; they are known by their
words and time and not filed twice.
"""

import json
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlmodel import Session, select

from app.domain.enums import UtteranceOutcome, UtteranceSource
from app.file_locks import lock
from app.private_files import PRIVATE_FILE
from app.store.models import Utterance

log = logging.getLogger("murmur.spool")

KEPT_NOTE = "said while another program held the database; kept, not interpreted yet"


@dataclass(frozen=True)
class Spooled:
    text: str
    source: UtteranceSource
    created_at: datetime


@contextmanager
def _locked(path: Path, flags: int) -> Iterator[int]:
    descriptor = os.open(path, flags, PRIVATE_FILE)
    try:
        lock(descriptor, wait=True)  # other Murmur processes wait
        yield descriptor
    finally:
        os.close(descriptor)  # lets the lock go


def _parsed(line: bytes) -> Spooled | None:
    try:
        fields = json.loads(line)
        return Spooled(fields["text"], UtteranceSource(fields["source"]), datetime.fromisoformat(fields["created_at"]))
    except (ValueError, KeyError, TypeError):
        return None  # a line cut short by a crash while it was written: the user was never told it was kept


class Spool:
    """The spool file of one database."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def beside(cls, db_path: Path) -> "Spool":
        return cls(db_path.with_name(f"{db_path.stem}-spool.jsonl"))

    def append(self, text: str, source: UtteranceSource, created_at: datetime) -> None:
        """Keep one utterance, on disk before this returns."""
        line = {"text": text, "source": source.value, "created_at": created_at.isoformat()}
        encoded = (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")
        with _locked(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT) as descriptor:
            os.write(descriptor, encoded)
            os.fsync(descriptor)

    def waiting(self) -> bool:
        """Whether anything is spooled: one stat, so every start and submit can ask."""
        try:
            return self.path.stat().st_size > 0
        except FileNotFoundError:
            return False

    @contextmanager
    def taking(self) -> Iterator[list[Spooled]]:
        """The spooled utterances, held while the caller files them; when the block ends without an error,
        the spool is emptied (an error leaves them for the next taker)."""
        if not self.waiting():
            yield []
            return
        with _locked(self.path, os.O_RDWR) as descriptor:
            with os.fdopen(os.dup(descriptor), "rb") as spooled:
                lines = spooled.read().splitlines()
            kept = [said for said in map(_parsed, lines) if said is not None]
            if len(kept) < len(lines):
                log.warning("%d unreadable line(s) in %s left out", len(lines) - len(kept), self.path)
            yield kept
            os.ftruncate(descriptor, 0)
            os.fsync(descriptor)


def file_spooled(session: Session, spooled: list[Spooled]) -> list[int]:
    """Add the spooled utterances not filed yet to the inbox, waiting to be run; returns their IDs."""
    filed = []
    for said in spooled:
        known = select(Utterance.id).where(Utterance.text == said.text, Utterance.created_at == said.created_at)
        if session.exec(known).first() is not None:
            continue
        utterance = Utterance(
            text=said.text,
            source=said.source,
            created_at=said.created_at,
            outcome=UtteranceOutcome.PENDING,
            error=KEPT_NOTE,
        )
        session.add(utterance)
        session.flush()
        assert utterance.id is not None
        filed.append(utterance.id)
    return filed
