"""Python's cyclic garbage collected on the GUI thread only.

A Qt object must die on the thread it lives on. Left to itself, Python collects cycles on whichever thread
happens to allocate at the moment (the pipeline worker, a background call), and a window or dialog in a cycle
destroyed there takes the process down ("Timers cannot be stopped from another thread", then a crash). So
automatic collection is off and a timer on the GUI thread collects instead, each generation when its
threshold is passed, as Python would (calibre's recipe for PyQt).
"""

import gc

from PySide6.QtCore import QObject, QTimer

CHECK_MS = 1000


class GuiThreadCollector(QObject):
    def __init__(self, parent: QObject | None = None, interval_ms: int = CHECK_MS) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self, interval=interval_ms)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> None:
        """Collect the oldest generation whose count passed its threshold, and the younger ones with it."""
        counts = gc.get_count()
        generation = max((g for g in range(3) if counts[g] > self.thresholds[g]), default=None)
        if generation is not None:
            gc.collect(generation)
