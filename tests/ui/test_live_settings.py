"""Settings take effect in the running app, as after a restart: a language model set in Settings reads the next
utterance (and its absence hands them back to the built-in rules), with the key typed and the secrets masked or
not as set; the speech language reads the dates typed."""

import json
from collections.abc import Iterator
from dataclasses import replace

import pytest
from pytestqt.qtbot import QtBot

from app.config import LlmSettings, PrivacySettings, Settings
from app.ui.application import Murmur
from app.ui.settings.dialog import SettingsDialog
from tests.support.app_window import WAIT_MS, said_and_shown, summaries
from tests.support.llm_server import FakeLlmServer, Reply, call
from tests.support.planted_secrets import CARD

MILK = call("create_entries", {"entries": [{"content": "Buy oat milk", "summary": "Buy oat milk", "category": "todo"}]})


@pytest.fixture
def llm_server() -> Iterator[FakeLlmServer]:
    with FakeLlmServer([Reply(tool_calls=[MILK]), Reply("Added it.")]) as server:
        yield server


def settings_taken(qtbot: QtBot, murmur: Murmur, settings: Settings, new_key: bool = False) -> None:
    """Apply `settings` as OK in Settings does, and wait until the worker took them (the list is read again)."""
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.apply_settings(settings, new_key)


def test_a_language_model_chosen_in_settings_reads_the_next_utterance(
    qtbot: QtBot, murmur: Murmur, llm_server: FakeLlmServer
) -> None:
    server = LlmSettings(base_url=llm_server.base_url, model="test-model", timeout_seconds=5)
    settings_taken(qtbot, murmur, replace(murmur.settings, llm=server))
    said_and_shown(qtbot, murmur, "I need milk")  # the model makes it oat milk; the rules would not
    assert "Buy oat milk" in summaries(murmur) and len(llm_server.requests) == 2

    settings_taken(qtbot, murmur, replace(murmur.settings, llm=LlmSettings()))  # None: the built-in rules
    said_and_shown(qtbot, murmur, "buy bread")
    assert "Buy bread" in summaries(murmur) and len(llm_server.requests) == 2


def test_a_new_api_key_reaches_the_model_with_the_next_utterance(
    qtbot: QtBot, murmur: Murmur, llm_server: FakeLlmServer
) -> None:
    server = LlmSettings(base_url=llm_server.base_url, model="test-model", timeout_seconds=5)
    settings_taken(qtbot, murmur, replace(murmur.settings, llm=server))
    dialog = SettingsDialog(murmur.settings)
    qtbot.addWidget(dialog)
    dialog.llm_page.api_key.setText("sk-typed-in-settings")
    dialog._on_accepted()
    assert dialog.key_changed
    settings_taken(qtbot, murmur, dialog.result_settings(), new_key=dialog.key_changed)
    said_and_shown(qtbot, murmur, "I need milk")
    assert llm_server.requests[0]["_headers"]["authorization"] == "Bearer sk-typed-in-settings"


def test_masking_secrets_is_switched_off_and_on_for_the_next_utterance(qtbot: QtBot, murmur: Murmur) -> None:
    with FakeLlmServer([Reply("Noted."), Reply("Noted.")]) as llm_server:
        server = LlmSettings(base_url=llm_server.base_url, model="test-model", timeout_seconds=5)
        settings_taken(qtbot, murmur, replace(murmur.settings, llm=server, privacy=PrivacySettings(redact=False)))
        said_and_shown(qtbot, murmur, f"my card is {CARD}")
        settings_taken(qtbot, murmur, replace(murmur.settings, privacy=PrivacySettings(redact=True)))
        said_and_shown(qtbot, murmur, f"my card is {CARD}")
        unmasked, masked = (json.dumps(request["messages"][-1]) for request in llm_server.requests)
    assert CARD in unmasked and CARD not in masked and "[card number]" in masked


def test_the_speech_language_reads_the_dates_typed_in_the_details(qtbot: QtBot, murmur: Murmur) -> None:
    assert murmur.service.read_due("morgen") is None  # English: no date
    settings_taken(qtbot, murmur, replace(murmur.settings, speech=replace(murmur.settings.speech, language="de")))
    assert murmur.service.read_due("morgen") is not None
