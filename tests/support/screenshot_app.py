"""Run on an X display: the real desktop app with a lived-in list, saved as PNGs at each size asked for.

    python -m tests.support.screenshot_app OUT_DIR THEME WIDTHxHEIGHT [WIDTHxHEIGHT ...]

The store is a fresh one at $MURMUR_DB, filled by the offline rules from everyday sentences. For each
size it prints one JSON line of what the window shows (entry rows in view, the main parts' places) so
a test can check that nothing overlaps; the PNG is `murmur-WIDTHxHEIGHT-THEME.png`.

With MURMUR_SCREENSHOTS_TOUR=1 it also saves every other place of the sidebar, the list under a toast and the
Settings dialog (`murmur-WIDTHxHEIGHT-THEME-PLACE.png`), for a person to look at each view before a release.
"""

import json
import os
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QEventLoop, QRect, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from app.assembly import build_service
from app.config import Settings
from app.domain.enums import UtteranceSource
from app.paths import default_db_path
from app.ui.application import Murmur
from app.ui.settings.dialog import SettingsDialog
from app.ui.sidebar import PLACES
from app.ui.toast import ToastContent
from app.ui.window import MainWindow

SAID = [
    "remind me to call the dentist thursday at 3pm",
    "pay the water bill yesterday",
    "buy milk and eggs",
    "urgent: renew the passport by friday",
    "stretch every morning",
    "book the flights to Lisbon next month, high priority",
    "what if we painted the hallway green",
    "water the plants in 20 minutes",
    "call mom tomorrow at 9",
    "send the invoice today at 5pm",
    "buy bread",
    "bread is done",
    "the fence is painted",  # names no entry: it waits in the Inbox
]
PARTS = ("sidebar", "mic", "activityArea", "input", "pageTitle", "search", "entries")


def settle(milliseconds: int) -> None:
    loop = QEventLoop()
    QTimer.singleShot(milliseconds, loop.quit)
    loop.exec()


def facts(window: MainWindow) -> dict[str, object]:
    """Where the main parts are, in window coordinates, and how many entry rows are in view."""
    places: dict[str, list[int]] = {}
    for name in PARTS:
        part = window.findChild(QWidget, name)
        if part is not None and part.isVisible():
            rect = QRect(part.mapTo(window, part.rect().topLeft()), part.size())
            places[name] = [rect.x(), rect.y(), rect.width(), rect.height()]
    view, model = window.entries, window.model
    shown = [model.index_of(entry_id) for entry_id in model.entry_ids()]
    rows = sum(1 for index in shown if view.viewport().rect().contains(view.visualRect(index)))
    return {"window": [window.width(), window.height()], "places": places, "rows_in_view": rows}


def morning_zone(now: datetime) -> str:
    """A fixed-offset zone where it is 10 o'clock at `now` (UTC): "today at 5pm" and "in 20 minutes" then land
    in Today at whatever hour the pictures are taken."""
    offset = 10 - now.hour
    if offset < -12:  # the zones reach from UTC-12 to UTC+14
        offset += 24
    return "Etc/GMT" if offset == 0 else f"Etc/GMT{-offset:+d}"  # Etc/GMT-3 is three hours ahead of UTC


def main(out: Path, theme: str, sizes: list[str]) -> None:
    os.environ["MURMUR_TZ"] = morning_zone(datetime.now(UTC))
    settings = replace(Settings(), ui=replace(Settings().ui, theme=theme))
    service = build_service(default_db_path(), settings, offline=True)
    for text in SAID:
        service.submit(text, UtteranceSource.CLI)
    app = QApplication(sys.argv[:1])
    app.setApplicationName("Murmur")
    murmur = Murmur(service, settings, use_tray=True)
    murmur.start(
        listen_for_hotkey=False, arm_microphone=False, preload_speech=False, offer_models=False, check_setup=False
    )
    window = murmur.window
    deadline = time.monotonic() + 30
    while not window.entries.entry_ids() and time.monotonic() < deadline:
        settle(100)
    dentist = next(
        e for e in window.entries.entry_ids() if window.model.data(window.model.index_of(e)) == "Call the dentist"
    )
    window.select_entry(dentist)  # the details panel shows something
    for size in sizes:
        width, height = (int(n) for n in size.split("x"))
        window.resize(width, height)
        settle(600)
        window.grab().save(str(out / f"murmur-{size}-{theme}.png"))
        print(json.dumps({"size": size, **facts(window)}), flush=True)
        if os.environ.get("MURMUR_SCREENSHOTS_TOUR") == "1":
            tour(murmur, out / f"murmur-{size}-{theme}")
    murmur.quit()


def tour(murmur: Murmur, stem: Path) -> None:
    """Every other view as it looks now, the list under a toast, and the Settings dialog."""
    window = murmur.window
    for place in PLACES:
        if place.key != "all":
            window.show_place(place.key)
            settle(300)
            window.grab().save(f"{stem}-{place.key}.png")
    window.show_place("all")
    murmur.toast.show_content(ToastContent(title="1 created · Tomorrow 09:00", message="Call mom"))
    settle(400)
    frame = window.frameGeometry()  # the toast is a window of its own, over the window's strip: the screen shows both
    screen = window.screen().grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height())
    screen.save(f"{stem}-toast.png")
    murmur.toast.hide()
    dialog = SettingsDialog(murmur.settings, window)
    dialog.show()
    settle(400)
    dialog.grab().save(f"{stem}-settings.png")
    dialog.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], sys.argv[3:])
