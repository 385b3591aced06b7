"""The problems bar in the real window: a sync failing with a wrong password (a real Radicale server) is said in
`murmur sync status`, the tray's tooltip and the bar, with Settings… and Retry; fixed, the next sync takes it
away. A model that failed, an import's skipped lines and a microphone that failed show there too, until they
are dismissed or work."""

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from app.agent.loop import LlmAgent
from app.config import PrivacySettings, Settings
from app.domain.enums import UtteranceSource
from app.domain.events import ErrorCode, ErrorEvent, PartialTranscript, Stage
from app.offline import OfflineInterpreter
from app.secrets import SYNC_PASSWORD
from app.service import MurmurService
from app.store import Store
from app.ui.application import Murmur
from app.ui.microphone import real_dictation
from tests.support.llm_server import Fail, FakeLlmServer, Reply, call, provider_for
from tests.support.murmur_cli import Murmur as MurmurCli
from tests.sync.radicale_server import RadicaleServer
from tests.ui.sync_app import syncing_app

WRONG = "not-the-password-17"


def buttons(murmur: Murmur) -> list[str]:
    shown = murmur.window.problems_bar.findChildren(QToolButton)
    return [button.accessibleName() for button in shown if button.isVisible()]


def button(murmur: Murmur, name: str) -> QToolButton:
    return next(b for b in murmur.window.problems_bar.findChildren(QToolButton) if b.accessibleName() == name)


def bar_lines(murmur: Murmur) -> list[str]:
    bar = murmur.window.problems_bar
    return bar.lines if bar.isVisible() else []


@pytest.fixture
def failing(qtbot: QtBot, db_path: Path, radicale: RadicaleServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[Murmur]:
    """The app with a tray, syncing with the wrong password."""
    monkeypatch.setenv(SYNC_PASSWORD.env, WRONG)
    yield from syncing_app(qtbot, db_path, radicale, use_tray=True)


@pytest.mark.slow  # a Radicale server, syncs failing then working
@pytest.mark.qt_log_ignore("systemTrayWindowChanged")  # a tray icon shown offscreen: no tray to dock in
def test_a_wrong_password_shows_everywhere_until_the_next_sync_works(
    qtbot: QtBot, failing: Murmur, db_path: Path, tmp_path: Path, radicale: RadicaleServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    refused = f"the sync server at 127.0.0.1:{radicale.port} refused the user name or password"
    status = MurmurCli(db_path, tmp_path, MURMUR_CALDAV_PASSWORD=WRONG).run("sync", "status").stdout
    assert re.search(rf"Last error \(Today \d\d:\d\d\): {refused}; check the account with", status)
    assert "Failing since " in status
    assert failing.tray is not None
    assert re.search(rf"Sync: failing since \d\d:\d\d — {refused}", failing.tray.icon.toolTip())
    [line] = bar_lines(failing)
    assert re.fullmatch(
        rf"Sync is failing since \d\d:\d\d — {refused}; see the Server address field in Settings → Sync", line
    )
    assert buttons(failing) == ["Settings…", "Retry", "Dismiss"]

    failing.sync.sync_now()  # by itself, not again so soon after a failure
    assert not failing.sync.syncing

    monkeypatch.setenv(SYNC_PASSWORD.env, radicale.password)
    with qtbot.waitSignal(failing.sync.synced, timeout=20_000):
        button(failing, "Retry").click()
    assert bar_lines(failing) == []
    assert "Sync: Last sync" in failing.tray.icon.toolTip()


def test_an_import_that_skipped_lines_is_said_until_dismissed(qtbot: QtBot, murmur: Murmur, tmp_path: Path) -> None:
    chosen = tmp_path / "todo.txt"
    chosen.write_text("Call Mom\n2026-11-22 Pick up the parcel due:2026-13-45\n")
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        murmur.import_from(chosen)
    assert bar_lines(murmur) == ["Importing todo.txt: line 2 skipped"]
    assert buttons(murmur) == ["Dismiss"]
    murmur.window.resize(480, 360)  # a narrow window: the buttons as symbols, the line kept to one
    qtbot.waitUntil(lambda: button(murmur, "Dismiss").text() == "✕", timeout=5_000)
    button(murmur, "Dismiss").click()
    assert bar_lines(murmur) == []


def test_a_microphone_that_failed_is_said_until_it_hears(qtbot: QtBot, murmur: Murmur) -> None:
    murmur.bridge.post_event(
        ErrorEvent("the microphone stopped delivering audio", ErrorCode.SPEECH, stage=Stage.LISTEN, run_id="r1")
    )
    said = "the microphone stopped delivering audio; see the Microphone field in Settings → Speech"
    qtbot.waitUntil(lambda: bar_lines(murmur) == [said], timeout=5_000)
    assert buttons(murmur) == ["Settings…", "Dismiss"]
    murmur.bridge.post_event(PartialTranscript("buy", run_id="r2"))
    qtbot.waitUntil(lambda: bar_lines(murmur) == [], timeout=5_000)


def test_a_model_that_failed_is_said_until_it_does_the_work(qtbot: QtBot, db_path: Path) -> None:
    milk = call("create_entries", {"entries": [{"content": "Buy milk", "summary": "Buy milk", "category": "todo"}]})
    rules = OfflineInterpreter()
    with FakeLlmServer([Fail(401, "invalid api key"), Reply(tool_calls=[milk]), Reply("Done.")]) as server:
        agent = LlmAgent(provider_for(server.base_url), PrivacySettings())
        service = MurmurService(store=Store.open(db_path), interpreter=agent, rules=rules, fallback=rules)
        app = Murmur(service, Settings(ui=replace(Settings().ui, audio_cues=False)), real_dictation, use_tray=False)
        qtbot.addWidget(app.window)
        qtbot.addWidget(app.toast)
        with qtbot.waitSignal(app.entries_shown, timeout=15_000):
            app.start(
                listen_for_hotkey=False, arm_microphone=False, preload_speech=False, offer_models=False,
                check_setup=False,
            )  # fmt: skip
        app.conductor.submit("buy eggs", UtteranceSource.TYPED)
        qtbot.waitUntil(lambda: bool(bar_lines(app)), timeout=15_000)
        [line] = bar_lines(app)
        assert line.startswith("The language model failed, so the built-in rules filed what you said: ")
        assert line.endswith("(HTTP 401); see the API key field in Settings → Language model")
        assert buttons(app) == ["Settings…", "Dismiss"]
        app.conductor.submit("buy milk", UtteranceSource.TYPED)
        qtbot.waitUntil(lambda: bar_lines(app) == [], timeout=15_000)
        assert app.worker.close(timeout=10)
    app.notifications.close()
    service.close()
