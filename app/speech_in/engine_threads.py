"""The threads that run inside a speech engine's native code (a model loading, a final pass): none can be stopped
from outside, and the interpreter's teardown under one still running crashes the process or hangs it (CTranslate2's
threads meet their own library's destructors). So they are started here, counted, and the app's quit waits for
them, bounded."""

import threading
from collections.abc import Callable

_running: set[threading.Thread] = set()
_lock = threading.Lock()


def start(target: Callable[[], None], name: str) -> threading.Thread:
    """Run `target` on a daemon thread of its own, counted until it ends."""

    def run() -> None:
        try:
            target()
        finally:
            with _lock:
                _running.discard(thread)

    thread = threading.Thread(target=run, name=name, daemon=True)
    with _lock:
        _running.add(thread)
    thread.start()
    return thread


def running() -> list[threading.Thread]:
    """The engine threads still working, for whoever must wait for them."""
    with _lock:
        return list(_running)
