"""One app per data folder, even when its command socket is gone: the app holds an exclusive lock on a file
next to the database for as long as it runs (the kernel frees it when the process dies, however it dies)."""

import os
from pathlib import Path

from app.file_locks import lock
from app.paths import data_dir
from app.private_files import PRIVATE_DIR, PRIVATE_FILE


def instance_lock_path() -> Path:
    return data_dir() / "app.lock"


class InstanceLock:
    """The held lock; release() (or the process ending) frees it."""

    def __init__(self, descriptor: int) -> None:
        self._descriptor: int | None = descriptor

    @classmethod
    def take(cls, path: Path | None = None) -> "InstanceLock | None":
        """The lock, or None when another process holds it."""
        path = path or instance_lock_path()
        path.parent.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
        try:
            lock(descriptor, wait=False)
        except BlockingIOError:
            os.close(descriptor)
            return None
        return cls(descriptor)

    def release(self) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None
