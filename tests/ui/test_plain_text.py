"""A model's words are shown as written, never read by Qt as HTML: a link it wrote ("sign in again") must not
become a clickable link in the toast or the status line, and hidden markup must not hide anything."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel, QWidget
from pytestqt.qtbot import QtBot

from app.agent.loop import LlmAgent
from app.config import PrivacySettings, Settings
from app.domain.clock import Clock
from app.service import MurmurService
from app.store import Store
from app.ui.activity import ActivityPanel
from app.ui.application import Murmur
from app.ui.icons import AppState
from app.ui.jobs import BatchReport
from app.ui.microphone import real_dictation
from app.ui.plain_text import plain_notification
from app.ui.toast import Toast, content_of
from app.ui.tray import Tray
from tests.support.app_window import type_and_enter
from tests.support.llm_server import FakeLlmServer, Reply, call, provider_for

EVIL = '<a href="https://evil.example/">Session expired: sign in again</a>'


def shown_labels(widget: QWidget) -> list[QLabel]:
    return [label for label in widget.findChildren(QLabel) if label.text()]


def assert_literal(label: QLabel, words: str = EVIL) -> None:
    assert label.textFormat() == Qt.TextFormat.PlainText, f"{label.objectName()} reads its text as {label.textFormat()}"
    assert words in label.text()
    assert not label.openExternalLinks()


def assert_all_plain(widget: QWidget) -> None:
    for label in widget.findChildren(QLabel):
        assert label.textFormat() == Qt.TextFormat.PlainText, f"{label.objectName()} is {label.textFormat()}"


@pytest.mark.parametrize(
    "report",
    [
        BatchReport(summary="Nothing changed", applied=[], failures=[], undo_id=None, utterance_id=1, message=EVIL),
        BatchReport(summary=EVIL, applied=[f"created   aaaaaa  todo  {EVIL}"], failures=[EVIL], undo_id=3),
        BatchReport(summary=EVIL, applied=[], failures=[], undo_id=None, utterance_id=2, error=EVIL),
    ],
    ids=["answer", "summary-and-details", "error"],
)
def test_the_toast_shows_a_models_words_literally(qtbot: QtBot, report: BatchReport) -> None:
    toast = Toast(60)
    qtbot.addWidget(toast)
    toast.show_content(content_of(report))
    toast.details_button.setChecked(True)  # the details too, as the user sees them on expand
    assert toast.isVisible()
    labels = shown_labels(toast)
    assert labels and any(EVIL in label.text() for label in labels)
    assert_all_plain(toast)
    for label in labels:
        if "<a " in label.text():
            assert_literal(label)


def test_the_status_line_shows_a_message_literally(qtbot: QtBot) -> None:
    panel = ActivityPanel()
    qtbot.addWidget(panel)
    panel.set_status(f"{EVIL}. It waits in the Inbox.", error=True)
    assert_literal(panel.status)
    assert panel.status.text() == f"{EVIL}. It waits in the Inbox."


def test_the_live_words_show_what_may_still_change_greyed_and_markup_literally(qtbot: QtBot) -> None:
    panel = ActivityPanel()
    qtbot.addWidget(panel)
    panel.show_partial("buy <b>oat</b> milk and", "milk and")
    placeholder = panel.transcript.palette().color(QPalette.ColorRole.PlaceholderText)
    grey = placeholder.name(QColor.NameFormat.HexArgb)  # with its alpha: without it the tail showed black
    text_colour = panel.transcript.palette().color(QPalette.ColorRole.WindowText)
    assert (placeholder.rgb(), placeholder.alpha()) != (text_colour.rgb(), 255)  # greyed, not the words' own colour
    assert panel.transcript.text() == f'<i>buy &lt;b&gt;oat&lt;/b&gt; <span style="color: {grey}">milk and</span>…</i>'
    panel.show_partial("buy oat")  # all of it settled
    assert panel.transcript.text() == "<i>buy oat…</i>"


@pytest.fixture
def llm_server() -> Iterator[FakeLlmServer]:
    # Turn 1: the answer in words (a fake link). Turn 2 (a second utterance): a call to a tool named like a link,
    # then nothing: nothing applied and no words, so the run is a failure whose reason names that tool.
    script = [
        Reply(EVIL),
        Reply(tool_calls=[call(EVIL, {})]),
        Reply(""),
    ]
    with FakeLlmServer(script) as server:
        yield server


@pytest.fixture
def murmur_llm(qtbot: QtBot, db_path: Path, clock: Clock, llm_server: FakeLlmServer) -> Iterator[Murmur]:
    """The whole app (offscreen, no tray or hotkey), its interpreter the LLM agent talking to `llm_server`."""
    settings = Settings()
    agent = LlmAgent(provider_for(llm_server.base_url), PrivacySettings())
    service = MurmurService(store=Store.open(db_path), interpreter=agent, clock=lambda: clock)
    app = Murmur(service, settings, real_dictation, use_tray=False)
    qtbot.addWidget(app.window)
    qtbot.addWidget(app.toast)
    with qtbot.waitSignal(app.entries_shown):
        app.start(
            listen_for_hotkey=False, arm_microphone=False, preload_speech=False, offer_models=False, check_setup=False
        )
    yield app
    assert app.worker.close(timeout=10)
    agent.close()
    app.service.store.close()
    del app


def test_the_app_shows_the_models_answer_and_failure_literally(qtbot: QtBot, murmur_llm: Murmur) -> None:
    with qtbot.waitSignal(murmur_llm.entries_shown, timeout=15_000):
        type_and_enter(qtbot, murmur_llm, "what now")
    toast = murmur_llm.toast
    assert toast.isVisible() and toast.content is not None and toast.content.message == EVIL
    assert_literal(toast.message)
    assert_all_plain(toast)
    assert murmur_llm.window.activity.status.textFormat() == Qt.TextFormat.PlainText
    assert_literal(murmur_llm.window.activity.outcome)  # the model's words, as the line of what happened
    progress = murmur_llm.window.activity.progress
    assert EVIL in [progress.item(row).text() for row in range(progress.count())]  # items are always plain

    with qtbot.waitSignal(murmur_llm.entries_shown, timeout=15_000):
        type_and_enter(qtbot, murmur_llm, "and then")
    assert toast.content is not None and toast.content.error
    assert_literal(toast.message)
    assert murmur_llm.state() is AppState.ERROR
    status = murmur_llm.window.activity.status
    assert_literal(status)  # the failure's reason, naming the model's tool, is the status line
    assert_all_plain(toast)


def test_the_tray_never_hands_markup_to_the_notification_daemon(qtbot: QtBot) -> None:
    shown = plain_notification(f"\x1b]0;owned\x07{EVIL}")
    assert "<" not in shown and ">" not in shown and "\x1b" not in shown and "\x07" not in shown
    assert "Session expired: sign in again" in shown  # the words themselves stay readable
    tray = Tray()
    tray.set_state(AppState.ERROR, EVIL)
    assert "<a " not in tray.icon.toolTip() and "&lt;a href" in tray.icon.toolTip()
