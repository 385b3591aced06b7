"""What to do about a failed run, as the window shows it: the field to set in words, and a button that opens
Settings at its page; never a command to type (real agent, the local test server, a real SQLite file)."""

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.agent.loop import LlmAgent
from app.cli.output import cli_text
from app.config import PrivacySettings
from app.domain.enums import UtteranceSource
from app.domain.events import ErrorEvent, PipelineEvent, ignore_events
from app.offline import OfflineInterpreter
from app.presentation.run_report import run_report
from app.run.run import Run
from app.service import MurmurService
from app.store import Store
from app.ui.activity import describe_event
from app.ui.application import Murmur
from app.ui.jobs import UtteranceJob
from app.ui.settings.dialog import SettingsDialog
from app.ui.toast import Toast, content_of
from tests.support.llm_server import Fail, FakeLlmServer, provider_for


def test_a_refused_key_names_its_field_and_the_toast_opens_its_settings_page(qtbot: QtBot, tmp_path: Path) -> None:
    store = Store.open(tmp_path / "m.db")
    events: list[PipelineEvent] = []
    with FakeLlmServer([Fail(401, "invalid api key")]) as server:
        agent = LlmAgent(provider_for(server.base_url), PrivacySettings())
        report = UtteranceJob(
            MurmurService(store=store, interpreter=agent), Run(UtteranceSource.TYPED, events.append, text="buy milk")
        ).run()
        agent.close()
    store.close()
    assert report.error is not None and report.error.endswith("; see the API key field in Settings → Language model")
    # the status line, while the run ends, says the same
    status = [describe_event(event) for event in events if isinstance(event, ErrorEvent)]
    assert status == [f"Error: {report.error}"]
    toast = Toast(60)
    qtbot.addWidget(toast)
    toast.show_content(content_of(report))
    assert "murmur" not in toast.message.text() and toast.retry_button.isVisible()
    assert toast.settings_button.isVisible()
    with qtbot.waitSignal(toast.settings_clicked) as opened:
        qtbot.mouseClick(toast.settings_button, Qt.MouseButton.LeftButton)
    assert opened.args == ["Language model"]
    toast.show_content(content_of(replace(report, settings_page=None)))
    assert not toast.settings_button.isVisible()


def test_when_the_rules_stand_in_each_front_end_says_how_to_put_the_key_right(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "m.db")
    rules = OfflineInterpreter()
    with FakeLlmServer([Fail(401, "invalid api key")] * 2) as server:  # one for each run
        agent = LlmAgent(provider_for(server.base_url), PrivacySettings())
        service = MurmurService(store=store, interpreter=agent, rules=rules, fallback=rules)
        result = service.submit("buy milk")
        report = UtteranceJob(service, Run(UtteranceSource.TYPED, ignore_events, text="buy eggs")).run()
        agent.close()
    store.close()
    clock = service.clock()
    said = run_report(result, clock.now, clock.tz)  # what the command line prints of it
    assert said.fallback_note is not None and result.applied
    assert cli_text(said.fallback_note, said.fallback_remedy).endswith("(HTTP 401); `murmur config set-key`")
    assert (report.message or "").endswith("(HTTP 401); see the API key field in Settings → Language model")


def test_the_toasts_settings_button_opens_settings_at_its_page(qtbot: QtBot, murmur: Murmur) -> None:
    seen: list[str] = []

    def look_then_cancel() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, SettingsDialog)
        seen.append(dialog.tabs.tabText(dialog.tabs.currentIndex()))
        dialog.reject()

    QTimer.singleShot(300, look_then_cancel)
    murmur.toast.settings_clicked.emit("Language model")  # the dialog is modal: this returns once it is closed
    assert seen == ["Language model"]
