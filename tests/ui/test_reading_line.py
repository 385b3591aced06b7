"""The typed box shows what Enter would do while the user types: a pause after the last key, then a line under the
box naming the change, the entry and the due read; nothing is written meanwhile, and a cleared box says nothing."""

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.domain.enums import Status
from app.presentation.times import in_sentence, moment_words
from app.ui.application import Murmur
from tests.support.app_window import said_and_shown

WAIT_MS = 10_000


def shown(murmur: Murmur) -> tuple[str, ...]:
    reading = murmur.window.reading
    return reading.whole_lines() if reading.isVisible() else ()


def test_the_reading_shows_the_due_read_and_the_entry_named(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_shown(qtbot, murmur, "haircut friday 10am")
    service, clock = murmur.service, murmur.service.clock()
    thursday, saturday = service.read_due("thursday"), service.read_due("saturday 4pm")
    assert thursday is not None and saturday is not None
    box = murmur.window.input

    qtbot.keyClicks(box, "remind me to call the dentist thursday")
    expected = f"New reminder “Call the dentist” · {moment_words(thursday, clock.now, clock.tz)}"
    qtbot.waitUntil(lambda: shown(murmur) == (expected,), timeout=WAIT_MS)
    assert murmur.window.reading.text() == expected  # the whole line fits: nothing is cut

    box.clear()
    assert shown(murmur) == ()
    qtbot.keyClicks(box, "move haircut to saturday 4pm")
    moved = f"Move “Haircut” to {in_sentence(saturday, clock.now, clock.tz)}"
    qtbot.waitUntil(lambda: shown(murmur) == (moved,), timeout=WAIT_MS)
    assert [entry.summary for entry in service.entries(list(Status))] == ["Haircut"]  # read, never written
    assert service.inbox() == []


def test_enter_clears_the_reading_with_the_box(qtbot: QtBot, murmur: Murmur) -> None:
    box = murmur.window.input
    qtbot.keyClicks(box, "buy milk")
    qtbot.waitUntil(lambda: shown(murmur) == ("New todo “Buy milk”",), timeout=WAIT_MS)
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        qtbot.keyClick(box, Qt.Key.Key_Return)
    assert shown(murmur) == ()
