"""When Murmur is unsure what was meant it asks, through the whole app: the toast offers the readings as buttons and
stays until one is picked; the Inbox offers them beside the utterance; a click applies that reading (the worker, the
real service and a real SQLite file), undoable, and the utterance leaves the inbox."""

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QEnterEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.domain.enums import Status
from app.presentation.choices import UNSURE, WHICH_READING
from app.ui.application import Murmur
from app.ui.reading_buttons import WrappingButton
from app.ui.toast import FADE_MS, Readings, ToastContent
from tests.support.app_window import said_and_shown, summaries, type_and_enter

WAIT_MS = 15_000
SHORT_SECONDS = 0.05
GONE_BY_MS = round(SHORT_SECONDS * 1000) + FADE_MS + 250  # when a toast that fades would have closed
READINGS = ["Tick off 'Pay the gas bill'?", "Tick off 'Pay the phone bill'?"]


def unsure_of_the_bill(qtbot: QtBot, murmur: Murmur) -> None:
    """Two bills listed, then "paid the bill" typed: which one is not clear, so nothing is done and it waits."""
    said_and_shown(qtbot, murmur, "pay the gas bill friday, and pay the phone bill monday")
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        type_and_enter(qtbot, murmur, "paid the bill")


def statuses(murmur: Murmur) -> dict[str, Status]:
    return {entry.summary: entry.status for entry in murmur.service.entries(list(Status))}


def words_of(buttons: list[WrappingButton]) -> list[str]:
    return [button.words.text() for button in buttons]


def test_the_toast_offers_the_readings_and_a_click_applies_that_one(qtbot: QtBot, murmur: Murmur) -> None:
    unsure_of_the_bill(qtbot, murmur)
    toast = murmur.toast
    assert toast.isVisible() and toast.title.text() == UNSURE and toast.message.text() == WHICH_READING
    assert words_of(toast.readings.buttons) == READINGS
    assert all(button.isVisible() for button in toast.readings.buttons)
    assert not any(b.isVisible() for b in (toast.undo_button, toast.retry_button, toast.details_button))
    assert statuses(murmur) == {"Pay the gas bill": Status.ACTIVE, "Pay the phone bill": Status.ACTIVE}

    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.mouseClick(toast.readings.buttons[1], Qt.MouseButton.LeftButton)
    assert statuses(murmur) == {"Pay the gas bill": Status.ACTIVE, "Pay the phone bill": Status.COMPLETED}
    assert summaries(murmur) == ["Pay the gas bill"]
    assert toast.title.text() == "Completed “Pay the phone bill”" and toast.undo_button.isVisible()
    assert toast.readings.isHidden() and murmur.service.inbox() == []


def test_the_toast_stays_while_it_asks(qtbot: QtBot, murmur: Murmur) -> None:
    toast = murmur.toast
    toast.set_seconds(SHORT_SECONDS)
    unsure_of_the_bill(qtbot, murmur)
    with qtbot.assertNotEmitted(toast.closed, wait=GONE_BY_MS):
        pass
    with qtbot.assertNotEmitted(toast.closed, wait=GONE_BY_MS):  # hovered, then left: it still asks
        QApplication.sendEvent(toast, QEnterEvent(QPointF(5, 5), QPointF(5, 5), QPointF(5, 5)))
        toast.leaveEvent(QEnterEvent(QPointF(), QPointF(), QPointF()))
    assert toast.isVisible() and toast.windowOpacity() == 1.0


def test_the_inbox_offers_the_readings_of_the_utterance_selected(qtbot: QtBot, murmur: Murmur) -> None:
    unsure_of_the_bill(qtbot, murmur)
    murmur.toast.dismiss()  # the question goes unanswered: it waits in the inbox
    inbox = murmur.window.inbox
    assert inbox.tree.topLevelItemCount() == 1 and inbox.unsure.isHidden()  # nothing selected yet
    inbox.tree.topLevelItem(0).setSelected(True)
    assert not inbox.unsure.isHidden() and words_of(inbox.readings.buttons) == READINGS

    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.mouseClick(inbox.readings.buttons[0], Qt.MouseButton.LeftButton)
    assert statuses(murmur) == {"Pay the gas bill": Status.COMPLETED, "Pay the phone bill": Status.ACTIVE}
    assert inbox.tree.topLevelItemCount() == 0 and inbox.unsure.isHidden()
    assert murmur.toast.title.text() == "Completed “Pay the gas bill”"


def test_an_utterance_without_readings_offers_none(qtbot: QtBot, murmur: Murmur) -> None:
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        type_and_enter(qtbot, murmur, "eggs are done")  # nothing on the list matches: it waits, with no readings
    inbox = murmur.window.inbox
    inbox.tree.topLevelItem(0).setSelected(True)
    assert inbox.unsure.isHidden() and inbox.readings.buttons == []
    assert murmur.toast.readings.isHidden()


LONG = "Move 'Call the dentist about the crown that came loose at lunch last week' to Fri Nov 27 at 16:00?"


def whole(buttons: list[WrappingButton], room: int) -> bool:
    """Each button within `room` across and as tall as its words need, wrapped at its width."""
    return all(b.width() <= room and b.words.height() >= b.words.heightForWidth(b.words.width()) > 0 for b in buttons)


def test_long_readings_wrap_whole_in_the_smallest_window(qtbot: QtBot, murmur: Murmur) -> None:
    murmur.window.resize(480, 360)
    murmur.window.show()
    qtbot.waitExposed(murmur.window)
    toast, inbox = murmur.toast, murmur.window.inbox
    toast.show_content(ToastContent(UNSURE, WHICH_READING, readings=Readings(1, (LONG, "Tick off 'Haircut'?"))))
    qtbot.waitUntil(lambda: whole(toast.readings.buttons, toast.width()))
    assert toast.readings.buttons[0].height() > toast.readings.buttons[1].height()  # two lines, against one
    toast.dismiss()

    unsure_of_the_bill(qtbot, murmur)
    toast.dismiss()  # its room in the window goes with it
    murmur.window.show_place("inbox")
    inbox.tree.topLevelItem(0).setSelected(True)
    qtbot.waitUntil(lambda: whole(inbox.readings.buttons, inbox.width()))
