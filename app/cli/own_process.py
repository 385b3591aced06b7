"""One `murmur` run inside a longer-lived process as if it were a process of its own: it sees exactly the
environment it is given, and what it changes for the rest of the process is put back when it ends."""

import functools
import gc
import logging
import os
import sys
import threading
import time
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib import metadata
from typing import Any

# How long the threads a run started (a request's deadline timers, a model loading) are given to end with it.
THREADS_GRACE_SECONDS = 1.0


@contextmanager
def own_process(env: Mapping[str, str]) -> Iterator[None]:
    """Within: the environment is exactly `env` (and so is the keyring it selects), and the murmur logger is the
    run's alone. After: the caller's environment, umask (the private files' set-up narrows it), standard
    streams, logging and keyring are back, and what the run left open is closed."""
    with _own_environment(env), _own_log(), _left_open_closed_at_the_end():
        yield


@contextmanager
def _own_environment(env: Mapping[str, str]) -> Iterator[None]:
    """os.environ is `env`, and the keyring backend the one a fresh process detects from it
    (PYTHON_KEYRING_BACKEND, the keyring's settings under HOME)."""
    import keyring
    import keyring.core

    saved_env, saved_streams = dict(os.environ), (sys.stdin, sys.stdout, sys.stderr)
    saved_umask = os.umask(0o077)
    os.umask(saved_umask)
    saved_keyring = keyring.get_keyring()
    os.environ.clear()
    os.environ.update(env)
    keyring.core.init_backend(_installed)
    try:
        yield
    finally:
        keyring.set_keyring(saved_keyring)
        os.environ.clear()
        os.environ.update(saved_env)
        os.umask(saved_umask)
        sys.stdin, sys.stdout, sys.stderr = saved_streams


def _installed(backend: Any) -> bool:
    """A backend a fresh process can find: keyring's own or an installed plugin's, not a class that only this
    process defines (a test's keyring)."""
    package = type(backend).__module__.split(".")[0]
    return package == "keyring" or package in _plugin_packages()


@functools.cache
def _plugin_packages() -> frozenset[str]:
    return frozenset(point.module.split(".")[0] for point in metadata.entry_points(group="keyring.backends"))


@contextmanager
def _own_log() -> Iterator[None]:
    """As in a fresh process, the murmur logger starts with no handlers (the run sets up its own log file) and
    passes no records up to the caller's: a caller's handler keeping them would keep what they point at (a
    failed request's socket, through its traceback) past the run."""
    logger = logging.getLogger("murmur")
    saved_handlers, saved_level, saved_propagate = list(logger.handlers), logger.level, logger.propagate
    logger.handlers.clear()
    logger.propagate = False
    try:
        yield
    finally:
        for added in logger.handlers:
            added.close()  # the log file of this run's MURMUR_LOG_DIR, not the next run's
        logger.handlers[:] = saved_handlers
        logger.setLevel(saved_level)
        logger.propagate = saved_propagate


@contextmanager
def _left_open_closed_at_the_end() -> Iterator[None]:
    """A command leaves its store, its model client and their threads to the process's exit, which closes their
    SQLite connections (the database's -wal and -shm go) and sockets, silently. Here the threads the run started
    are given a moment to end, and the objects it made and dropped are collected, as quietly; what was there
    before is frozen, so only the run's own objects are looked at."""
    threads = set(threading.enumerate())
    gc.freeze()
    try:
        yield
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            _let_end(set(threading.enumerate()) - threads)
            gc.collect()
        gc.unfreeze()


def _let_end(threads: set[threading.Thread]) -> None:
    until = time.monotonic() + THREADS_GRACE_SECONDS
    for thread in threads:
        thread.join(max(0.0, until - time.monotonic()))
