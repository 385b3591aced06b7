"""A Store that counts its write transactions: for the tests and bench/transactions_bench.py."""

from collections.abc import Iterator
from contextlib import contextmanager

from sqlmodel import Session

from app.store import Store


class CountingStore(Store):
    """Each write transaction is a BEGIN IMMEDIATE ... COMMIT with synchronous=FULL: an fsync."""

    writes = 0

    @contextmanager
    def write(self, wait_ms: int | None = None) -> Iterator[Session]:
        self.writes += 1
        with super().write(wait_ms) as session:
            yield session
