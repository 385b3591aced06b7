import re
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QColor, QEnterEvent, QPalette
from PySide6.QtWidgets import QApplication, QListWidget, QMainWindow, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.assembly import build_service
from app.changes.executor import ActionFailure
from app.domain.actions import Cause
from app.domain.enums import FailureKind, Status, UtteranceSource
from app.presentation.failures import failure_words
from app.run.run import Run
from app.service import MurmurService
from app.ui.jobs import BatchReport, UtteranceJob
from app.ui.toast import FADE_MS, GAP, MARGIN, Toast, ToastContent, content_of
from tests.support.clock import FIXED_CLOCK

NOT_FOUND, AMBIGUOUS = FailureKind.NOT_FOUND, FailureKind.AMBIGUOUS


PARTIAL = BatchReport(
    summary="Created “Buy milk” and “Call mom” (1 couldn't be processed)",
    applied=["Created todo “Buy milk”", "Created todo “Call mom”, due tomorrow 09:00"],
    failures=["Couldn't complete “eggs”: no open entry matches it"],
    undo_id=7,
    utterance_id=3,
)


def make_toast(qtbot: QtBot, seconds: float = 0.05) -> Toast:
    toast = Toast(seconds)
    qtbot.addWidget(toast)
    return toast


def test_partial_failure_shows_the_count_and_the_reasons_on_expand(qtbot: QtBot) -> None:
    toast = make_toast(qtbot, seconds=60)
    toast.show_content(content_of(PARTIAL))
    assert toast.title.text() == "Created “Buy milk” and “Call mom” (1 couldn't be processed)"
    assert not toast.details.isVisible() and toast.undo_button.isVisible() and not toast.retry_button.isVisible()
    qtbot.mouseClick(toast.details_button, Qt.MouseButton.LeftButton)
    assert toast.details.isVisible()
    assert toast.details.text().splitlines() == [*PARTIAL.applied, *PARTIAL.failures]


def test_a_total_failure_is_an_error_with_retry() -> None:
    content = content_of(BatchReport("server down", [], [], None, utterance_id=4, error="the LLM server is down"))
    assert content.error and content.retry_utterance_id == 4 and content.undo_id is None
    assert "the LLM server is down" in content.message and "Inbox" in content.message


def test_a_failed_run_says_it_waits_in_the_inbox_only_when_it_was_kept() -> None:
    content = content_of(BatchReport("no key", [], [], None, error="the keyring is locked"))
    assert content.title == "Couldn't process what you said" and content.message == "the keyring is locked."


def test_a_refused_change_by_hand_is_titled_by_its_failures_and_offers_no_retry() -> None:
    one = ["Couldn't archive “Buy milk”: it is already archived"]
    content = content_of(BatchReport(one[0], [], one, None, by_hand=True))
    assert content == ToastContent(title=one[0], error=True)
    two = [*one, "Couldn't archive “Call mom”: it is already archived"]
    content = content_of(BatchReport("Nothing changed (2 failed)", [], two, None, by_hand=True))
    assert content == ToastContent(title="Nothing changed (2 failed)", details=two, error=True)


def test_undo_button_emits_the_batch_and_closes(qtbot: QtBot) -> None:
    toast = make_toast(qtbot, seconds=60)
    toast.show_content(content_of(PARTIAL))
    with qtbot.waitSignal(toast.closed), qtbot.waitSignal(toast.undo_clicked) as undo:
        qtbot.mouseClick(toast.undo_button, Qt.MouseButton.LeftButton)
    assert undo.args == [7]
    assert not toast.isVisible()


def test_it_fades_out_by_itself(qtbot: QtBot) -> None:
    toast = make_toast(qtbot)
    toast.show_content(ToastContent(title="1 created"))
    assert toast.isVisible()
    with qtbot.waitSignal(toast.closed, timeout=5_000):
        pass
    assert not toast.isVisible()


def test_it_stays_while_hovered_and_fades_after_leaving(qtbot: QtBot) -> None:
    toast = make_toast(qtbot)
    toast.show_content(ToastContent(title="1 created"))
    QApplication.sendEvent(toast, QEnterEvent(QPointF(5, 5), QPointF(5, 5), QPointF(5, 5)))
    with qtbot.assertNotEmitted(toast.closed, wait=500):
        pass
    assert toast.isVisible() and toast.windowOpacity() == 1.0
    with qtbot.waitSignal(toast.closed, timeout=5_000):
        toast.leaveEvent(QEnterEvent(QPointF(), QPointF(), QPointF()))


def test_it_stays_while_its_details_are_open(qtbot: QtBot) -> None:
    """Faded, it would leave its room in the window as tall as the details made it."""
    toast = make_toast(qtbot)
    toast.show_content(content_of(PARTIAL))
    toast.details_button.setChecked(True)
    toast.leaveEvent(QEnterEvent(QPointF(), QPointF(), QPointF()))
    with qtbot.assertNotEmitted(toast.closed, wait=FADE_MS + 500):
        pass
    toast.details_button.setChecked(False)
    with qtbot.waitSignal(toast.closed, timeout=5_000):
        toast.leaveEvent(QEnterEvent(QPointF(), QPointF(), QPointF()))


def test_a_run_waiting_for_a_yes_offers_do_it(qtbot: QtBot) -> None:
    waiting = BatchReport("x", [], [], None, utterance_id=9, error="that would archive 6 entries", confirm=True)
    toast = make_toast(qtbot, seconds=60)
    toast.show_content(content_of(waiting))
    assert toast.title.text() == "Waiting for your yes" and toast.retry_button.text() == "Do it"
    with qtbot.assertNotEmitted(toast.retry_clicked), qtbot.waitSignal(toast.confirm_clicked) as confirmed:
        qtbot.mouseClick(toast.retry_button, Qt.MouseButton.LeftButton)
    assert confirmed.args == [9]
    toast.show_content(content_of(BatchReport("down", [], [], None, utterance_id=4, error="the server is down")))
    assert toast.retry_button.text() == "Retry"


def test_a_new_entry_like_a_listed_one_offers_merge(qtbot: QtBot, tmp_path: Path) -> None:
    service = build_service(tmp_path / "murmur.db", offline=True)
    service.submit("call the plumber", UtteranceSource.TYPED)
    report = UtteranceJob(
        service, Run(UtteranceSource.TYPED, lambda event: None, text="remind me to call the plumber tomorrow at 11am")
    ).run()
    toast = make_toast(qtbot, seconds=60)
    toast.show_content(content_of(report))
    assert toast.merge_button.isVisible() and "Looks like “Call the plumber”" in toast.message.text()
    with qtbot.waitSignal(toast.merge_clicked) as merge:
        qtbot.mouseClick(toast.merge_button, Qt.MouseButton.LeftButton)
    assert report.similar is not None and merge.args == [report.similar.new_id, report.similar.into_id]
    service.merge(*merge.args)
    [kept] = service.entries([Status.ACTIVE])
    assert (
        kept.summary == "Call the plumber"
        and kept.due_at is not None
        and kept.due_at.astimezone(service.clock().tz).hour == 11
    )


def test_no_merge_is_offered_for_an_ordinary_entry(qtbot: QtBot) -> None:
    toast = make_toast(qtbot, seconds=60)
    toast.show_content(content_of(PARTIAL))
    assert not toast.merge_button.isVisible()


def fixed_service(tmp_path: Path) -> MurmurService:
    """The real service, reading dates against a fixed Sunday evening (22 Nov 2026 18:30, Berlin)."""
    return replace(build_service(tmp_path / "murmur.db", offline=True), clock=lambda: FIXED_CLOCK)


def said(service: MurmurService, text: str) -> BatchReport:
    return UtteranceJob(service, Run(UtteranceSource.TYPED, lambda event: None, text=text)).run()


def test_the_title_names_the_entry_and_when_it_is_due(qtbot: QtBot, tmp_path: Path) -> None:
    service = fixed_service(tmp_path)
    toast = make_toast(qtbot, seconds=60)
    toast.show_content(content_of(said(service, "remind me to call mom tomorrow at 5pm")))
    assert toast.title.text() == "Created “Call mom” · Tomorrow 17:00"
    toast.show_content(content_of(said(service, "call the dentist on thursday at 3pm")))
    assert toast.title.text() == "Created “Call the dentist” · Thu 26 Nov 15:00"
    toast.show_content(content_of(said(service, "the dentist is done")))
    assert toast.title.text() == "Completed “Call the dentist”"


def test_several_changes_name_the_first_entries(tmp_path: Path) -> None:
    service = fixed_service(tmp_path)
    assert said(service, "buy milk, buy bread and buy eggs").summary == "Created “Buy milk”, “Buy bread” and 1 more"
    mixed = said(service, "buy cheese and milk is done and the xyzzy is done")
    assert mixed.summary == "Created “Buy cheese”, completed “Buy milk” (1 couldn't be processed)"


def test_the_details_are_words_without_ids(qtbot: QtBot, tmp_path: Path) -> None:
    service = fixed_service(tmp_path)
    said(service, "buy milk")
    toast = make_toast(qtbot, seconds=60)
    toast.show_content(content_of(said(service, "call mom tomorrow and milk is done and the xyzzy is done")))
    toast.details_button.setChecked(True)
    assert toast.details.text().splitlines() == [
        "Created todo “Call mom”, due tomorrow 09:00",
        "Completed “Buy milk”",
        "Couldn't complete “the xyzzy”: no open entry matches it",
    ]
    ids = [entry.id for entry in service.entries(list(Status))]
    assert not any(entry_id[:4] in toast.details.text() for entry_id in ids)
    hex_id = re.compile(r"\b(?=[0-9a-f]*\d)[0-9a-f]{4,}\b")
    unknown = ActionFailure("complete_entries", "no entry has ID 'abc123'", cause=Cause(NOT_FOUND, prefix="abc123"))
    error = "ID 'ab1' is ambiguous: it matches 2 entries (ab12cd, ab1f00)"
    for failure in (unknown, ActionFailure("complete_entries", error, cause=Cause(AMBIGUOUS, prefix="ab1"))):
        words = failure_words(failure)
        assert words.startswith("Couldn't complete: ") and not hex_id.search(words), words


def backdrop(toast: Toast, content: ToastContent) -> QColor:
    """The colour the toast is painted in, beside its text: a pixel just inside its right edge."""
    toast.show_content(content)
    image = toast.grab().toImage()
    return image.pixelColor(image.width() - 3, image.height() // 2)


def test_an_error_toast_is_red_and_a_success_toast_is_not(qtbot: QtBot) -> None:
    toast = make_toast(qtbot, seconds=60)
    success = backdrop(toast, ToastContent(title="Created “Buy milk”", details=["Created todo “Buy milk”"]))
    error = backdrop(toast, ToastContent(title="Couldn't process what you said", message="down", error=True))
    assert error.red() > 150 and error.green() < 80 and error.blue() < 80, error.name()
    assert not (success.red() > 150 and success.green() < 80), success.name()
    assert toast.title.palette().color(QPalette.ColorRole.WindowText) == QColor("#ffffff")  # white on red
    assert backdrop(toast, ToastContent(title="Undone: 1 reverted")) == success  # and back to plain


def test_it_sits_in_the_shown_windows_room_else_the_screens_corner(qtbot: QtBot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    column, page, room = QWidget(), QListWidget(), QWidget()
    layout = QVBoxLayout(column)
    layout.addWidget(page, 1)
    layout.addWidget(room)
    room.hide()
    window.setCentralWidget(column)
    area = window.screen().availableGeometry()
    window.setGeometry(area.left() + 40, area.top() + 30, 520, 360)
    window.show()
    qtbot.waitExposed(window)
    toast = Toast(60, room=room)
    qtbot.addWidget(toast)
    toast.show_content(ToastContent(title="Created “Buy milk”"))
    inside = window.geometry()
    assert inside.contains(toast.geometry()) and room.isVisible() and room.height() == toast.height() + 2 * GAP
    spot = QRect(room.mapToGlobal(QPoint(0, 0)), room.size())
    assert (toast.x(), toast.y()) == (spot.center().x() - toast.width() // 2 + 1, spot.top() + GAP)
    page_on_screen = QRect(page.mapToGlobal(QPoint(0, 0)), page.size())
    assert not page_on_screen.intersects(toast.geometry())  # the page made room
    window.hide()
    toast.show_again()
    assert not room.isVisible()
    assert (toast.x(), toast.y()) == (area.right() - toast.width() - MARGIN, area.bottom() - toast.height() - MARGIN)
    toast.dismiss()
    assert room.isHidden()
