from pathlib import Path

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QEnterEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.assembly import build_service
from app.domain.enums import Status, UtteranceSource
from app.ui.jobs import BatchReport, UtteranceJob
from app.ui.toast import Toast, ToastContent, content_of

PARTIAL = BatchReport(
    summary="2 created (1 couldn't be processed)",
    applied=["created   aaaaaa  todo  Buy milk", "created   bbbbbb  todo  Call mom"],
    failures=["complete failed: no entry matches 'eggs'"],
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
    assert toast.title.text() == "2 created (1 couldn't be processed)"
    assert not toast.details.isVisible() and toast.undo_button.isVisible() and not toast.retry_button.isVisible()
    qtbot.mouseClick(toast.details_button, Qt.MouseButton.LeftButton)
    assert toast.details.isVisible()
    assert "no entry matches 'eggs'" in toast.details.text() and "Call mom" in toast.details.text()


def test_a_total_failure_is_an_error_with_retry() -> None:
    content = content_of(BatchReport("server down", [], [], None, utterance_id=4, error="the LLM server is down"))
    assert content.error and content.retry_utterance_id == 4 and content.undo_id is None
    assert "the LLM server is down" in content.message and "Inbox" in content.message


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
    report = UtteranceJob(service, lambda event: None, "remind me to call the plumber tomorrow at 11am").run()
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
