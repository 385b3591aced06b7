"""The window's jobs and a model that archives everything: the run waits for a yes, and the yes applies it
(real agent, real openai client, the local test server, a real SQLite file)."""

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.agent.loop import LlmAgent
from app.changes.interpretation import RunOptions
from app.config import PrivacySettings
from app.domain.enums import Status, UtteranceSource
from app.domain.events import ignore_events
from app.offline import OfflineInterpreter
from app.run.run import Again, Run
from app.service import MurmurService
from app.store import Store
from app.ui.jobs import UtteranceJob
from app.ui.toast import Toast, content_of
from tests.support.agent_service import add_entries, all_entries
from tests.support.llm_server import FakeLlmServer, Reply, Step, call, closed_port_url, provider_for


def archive_all(body: dict[str, Any]) -> Step:
    messages = body["messages"]
    if messages[-1]["role"] == "tool":
        return Reply("Archived everything.")
    shorts = [line.split("]")[0][1:] for line in messages[0]["content"].splitlines() if line.startswith("[")]
    return Reply(tool_calls=[call("archive_entries", {"entries": [{"id": s, "reason": "asked"} for s in shorts]})])


def test_archiving_everything_waits_for_a_yes_and_the_yes_applies_it(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "m.db")
    with FakeLlmServer(archive_all) as server:
        agent = LlmAgent(provider_for(server.base_url), PrivacySettings())
        service = MurmurService(store=store, interpreter=agent)
        add_entries(service, *(f"Task {n}" for n in range(6)))
        report = UtteranceJob(service, Run(UtteranceSource.TYPED, ignore_events, text="delete everything")).run()
        assert report.confirm and report.utterance_id is not None and "6 entries" in (report.error or "")
        assert {e.status for e in all_entries(store)} == {Status.ACTIVE}
        done = UtteranceJob(
            service,
            Run(
                UtteranceSource.TYPED,
                ignore_events,
                again=Again(report.utterance_id),
                options=RunOptions(confirmed=True),
            ),
        ).run()
        agent.close()
    assert not done.confirm and len(done.applied) == 6
    assert {e.status for e in all_entries(store)} == {Status.ARCHIVED}
    store.close()


def test_the_toast_of_a_run_waiting_for_a_yes_offers_its_button_and_names_no_command(
    qtbot: QtBot, tmp_path: Path
) -> None:
    store = Store.open(tmp_path / "m.db")
    with FakeLlmServer(archive_all) as server:
        agent = LlmAgent(provider_for(server.base_url), PrivacySettings())
        service = MurmurService(store=store, interpreter=agent)
        add_entries(service, *(f"Task {n}" for n in range(6)))
        report = UtteranceJob(service, Run(UtteranceSource.TYPED, ignore_events, text="delete everything")).run()
        agent.close()
    store.close()
    toast = Toast(60)
    qtbot.addWidget(toast)
    toast.show_content(content_of(report))
    shown = " ".join(label.text() for label in (toast.title, toast.message, toast.details))
    assert toast.retry_button.isVisible() and toast.retry_button.text() == "Do it"
    assert "6 entries" in shown and "murmur" not in shown and "--confirm" not in shown
    with qtbot.waitSignal(toast.confirm_clicked) as confirmed:
        qtbot.mouseClick(toast.retry_button, Qt.MouseButton.LeftButton)
    assert confirmed.args == [report.utterance_id]


def test_a_run_the_rules_filed_says_so_in_the_toast(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "m.db")
    agent = LlmAgent(provider_for(closed_port_url()), PrivacySettings())
    rules = OfflineInterpreter()
    service = MurmurService(store=store, interpreter=agent, rules=rules, fallback=rules)
    report = UtteranceJob(
        service, Run(UtteranceSource.TYPED, ignore_events, text="remind me to call mom tomorrow")
    ).run()
    agent.close()
    store.close()
    assert report.summary.startswith("Created “Call mom”") and not report.failed
    assert (report.message or "").startswith("The built-in rules filed this: cannot reach the model server at")


def test_words_heard_faintly_are_asked_about_in_the_toast_and_the_yes_files_them(qtbot: QtBot, tmp_path: Path) -> None:
    store = Store.open(tmp_path / "m.db")
    service = MurmurService(store=store, interpreter=OfflineInterpreter())
    faint = Run(UtteranceSource.VOICE, ignore_events, text="Buy oat milk.", options=RunOptions(faint=True))
    report = UtteranceJob(service, faint).run()
    assert report.confirm and all_entries(store) == []
    toast = Toast(60)
    qtbot.addWidget(toast)
    toast.show_content(content_of(report))
    assert "heard faintly: “Buy oat milk”. Is that what you said?" in toast.message.text()
    with qtbot.waitSignal(toast.confirm_clicked) as confirmed:
        qtbot.mouseClick(toast.retry_button, Qt.MouseButton.LeftButton)
    yes = Run(UtteranceSource.TYPED, ignore_events, again=Again(confirmed.args[0]), options=RunOptions(confirmed=True))
    assert UtteranceJob(service, yes).run().applied and [e.summary for e in all_entries(store)] == ["Buy oat milk"]
    store.close()
