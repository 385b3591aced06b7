"""One sync at a time per database: an advisory lock on a file beside it, taken by whoever syncs (the desktop
app's timer, a terminal's `murmur sync`), so two first syncs cannot each make the task list."""

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from app.file_locks import lock
from app.private_files import PRIVATE_FILE
from app.sync.remote import SyncError

_POLL_SECONDS = 0.05


class SyncBusy(SyncError):
    """Another sync of the same database is under way (in this process or another): not a failure of sync."""


def lock_path(db_path: Path) -> Path:
    return db_path.with_name(f"{db_path.name}.sync-lock")


@contextmanager
def one_sync_at_a_time(db_path: Path, wait_seconds: float) -> Iterator[None]:
    """Held for the whole sync; waits up to `wait_seconds` for one under way, else SyncBusy. The lock goes with
    the file descriptor, so one that dies holding it frees it."""
    descriptor = os.open(lock_path(db_path), os.O_RDWR | os.O_CREAT, PRIVATE_FILE)
    try:
        deadline = time.monotonic() + wait_seconds
        while True:
            try:
                lock(descriptor, wait=False)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise SyncBusy("a sync is already running") from None
                time.sleep(_POLL_SECONDS)  # flock has no timeout of its own
        yield
    finally:
        os.close(descriptor)  # lets go of the lock too
