"""How long the Settings dialog takes to appear: the app's own `open_settings`, from the call until the dialog is
shown and its event loop runs. Goal: under 0.5 s. Then the time its Language model page takes to show the first
time: that page is made then, and asks the keyring.

Each run is a fresh process (the real app offscreen, the offline rules, data and config folders of its own), as a
user's first opening after a start is: whatever the dialog imports is loaded then. A second opening in the same
process is timed too. Bytecode is cached, as it is for an installed murmur. Printed: the median of several runs.

Run: .venv/bin/python bench/settings_bench.py
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QTabWidget

if TYPE_CHECKING:
    from app.ui.application import Murmur

ROOT = Path(__file__).resolve().parents[1]
RUNS = 5
GOAL_SECONDS = 0.5


def timed_opening(murmur: "Murmur") -> tuple[float, float]:
    """Open Settings in the running app, then its Language model page (made when first shown, asking the keyring):
    the seconds until the dialog was up, and those the page took to show."""
    times: list[float] = []

    def shown() -> None:
        times.append(time.perf_counter())
        dialog = QApplication.activeModalWidget()
        assert dialog is not None and dialog.isVisible()
        tabs = dialog.findChild(QTabWidget)  # found, not imported: importing the dialog is part of its first opening
        titles = [tabs.tabText(index) for index in range(tabs.count())]
        tabs.setCurrentIndex(titles.index("Language model"))
        times.append(time.perf_counter())
        dialog.close()

    started = time.perf_counter()
    QTimer.singleShot(0, shown)  # runs in the dialog's own event loop, once it is shown
    murmur.open_settings()
    return times[0] - started, times[1] - times[0]


def one_process() -> None:
    """The child: the app started, Settings opened twice, the seconds printed as JSON."""
    from app.assembly import build_service
    from app.config import Settings
    from app.paths import default_db_path
    from app.ui.application import Murmur

    app = QApplication([])
    settings = Settings()
    murmur = Murmur(build_service(default_db_path(), settings, offline=True), settings, use_tray=False)
    murmur.start(
        listen_for_hotkey=False, arm_microphone=False, preload_speech=False, offer_models=False, check_setup=False
    )
    (first, page), (second, _) = timed_opening(murmur), timed_opening(murmur)
    print(json.dumps({"first": first, "page": page, "second": second}))
    murmur.quit()
    app.processEvents()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **{name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"},
            "PYTHONPYCACHEPREFIX": f"{folder}/bytecode",
            "PYTHONPATH": str(ROOT),
            "QT_QPA_PLATFORM": "offscreen",
            "MURMUR_DATA_DIR": f"{folder}/data",
            "MURMUR_CONFIG_DIR": f"{folder}/config",
            "MURMUR_LOG_DIR": f"{folder}/logs",
        }
        command = [sys.executable, __file__, "--one"]
        subprocess.run(command, env=env, capture_output=True, check=True, cwd=ROOT)  # warm-up: bytecode
        runs = []
        for _ in range(RUNS):
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=ROOT)
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(f"Settings dialog, open_settings() -> shown, median of {RUNS} fresh processes (goal: under {GOAL_SECONDS} s)")
    for key, words in (
        ("first", "first opening"),
        ("second", "second opening"),
        ("page", "Language model page, first shown"),
    ):
        print(f"  {words:<34} {statistics.median(run[key] for run in runs) * 1000:7.1f} ms")


if __name__ == "__main__":
    if sys.argv[1:] == ["--one"]:
        one_process()
    else:
        main()
