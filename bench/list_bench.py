"""The window's entry list at 10,000 entries: how long until it shows, and how long a search keystroke takes.

A realistic store (tests/support/big_store.py: every category and status, dues from two months ago to
four ahead) is read as the app reads it (`jobs.load_entries`), then handed to the real main window,
offscreen: "shown" is the model reset (grouping into sections, sorting), the filter for the view, the
sections opened and the rows laid out and painted. The grouping into sections (`EntryRow`s, sorted)
runs on the worker thread with the read, and is printed on its own. A keystroke is one more letter typed into the
search box ("m", "mi", "mil", "milk", then back), the list filtered through every status and repainted.

Goals: shown <= 300 ms (with the grouping, too); a keystroke <= 50 ms. Printed: median and worst of several runs.

Run: .venv/bin/python bench/list_bench.py
"""

import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication  # noqa: E402

from app.assembly import build_service  # noqa: E402
from app.config import Settings  # noqa: E402
from app.ui.entry_model import EntryListModel  # noqa: E402
from app.ui.entry_sections import grouped  # noqa: E402
from app.ui.jobs import load_entries  # noqa: E402
from app.ui.window import MainWindow  # noqa: E402
from tests.support.big_store import fill_store  # noqa: E402

ENTRIES = 10_000
RUNS = 7
WORDS = ["m", "mi", "mil", "milk", "mil", "mi", "m", ""]


def main() -> None:
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "murmur.db"
        fill_store(db, ENTRIES, datetime.now(UTC))
        service = build_service(db, Settings(), offline=True)
        snapshot = load_entries(service)
        service.close()
    model = EntryListModel()
    window = MainWindow(model)
    window.resize(1280, 800)
    window.show()
    app.processEvents()

    grouping = []
    for _ in range(RUNS):
        start = time.perf_counter()
        grouped(snapshot.entries, snapshot.short_ids, snapshot.now, snapshot.tz)
        grouping.append(time.perf_counter() - start)
    shown = []
    for _ in range(RUNS):
        start = time.perf_counter()
        model.set_snapshot(snapshot)
        window.entries.viewport().repaint()
        app.processEvents()
        shown.append(time.perf_counter() - start)
    keystrokes = []
    for _ in range(RUNS):
        for words in WORDS:
            start = time.perf_counter()
            window.search.setText(words)
            window.entries.viewport().repaint()
            app.processEvents()
            keystrokes.append(time.perf_counter() - start)
    listed = len(window.entries.entry_ids())
    print(f"{len(snapshot.entries):,} entries, {listed:,} listed in the view '{window.sidebar.chosen().title}'")
    median = statistics.median(grouping) * 1000
    print(f"{'grouping (worker)':<18} median {median:6.1f} ms   (off the GUI thread, before the list is shown)")
    for name, times, goal in (("list shown", shown, 300), ("search keystroke", keystrokes, 50)):
        median, worst = statistics.median(times) * 1000, max(times) * 1000
        verdict = "ok" if median <= goal else "OVER"
        print(f"{name:<18} median {median:6.1f} ms   worst {worst:6.1f} ms   goal <= {goal} ms  {verdict}")


if __name__ == "__main__":
    main()
