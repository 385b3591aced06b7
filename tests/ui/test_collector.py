"""Cyclic garbage is collected by the app's timer on the GUI thread, never automatically on another thread."""

import gc
import threading
import weakref

from pytestqt.qtbot import QtBot

from app.ui.collector import GuiThreadCollector


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_the_timer_collects_cycles_and_other_threads_never_do(qtbot: QtBot) -> None:
    collections_elsewhere = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and threading.current_thread() is not threading.main_thread():
            collections_elsewhere.append(threading.current_thread().name)

    gc.enable()  # as a process starts, before the app's collector
    collector = GuiThreadCollector(interval_ms=10)
    gc.callbacks.append(watch)
    try:
        assert not gc.isenabled()
        node = Node()
        freed = weakref.ref(node)
        del node

        def allocate_cycles() -> None:
            for _ in range(5 * collector.thresholds[0]):
                Node()

        worker = threading.Thread(target=allocate_cycles, name="murmur-test-allocations")
        worker.start()
        worker.join()
        assert collections_elsewhere == [] and freed() is not None  # nothing collected on the worker
        qtbot.waitUntil(lambda: freed() is None, timeout=2_000)  # the GUI thread's timer did it
    finally:
        gc.callbacks.remove(watch)
        collector.timer.stop()
        gc.disable()  # as the UI tests run (tests/ui/conftest.py)
