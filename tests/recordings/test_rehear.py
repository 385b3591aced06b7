"""Hearing a kept recording again: Whisper (the real base model) reads what the live engine misheard, the utterance
is retried with its words and the words first heard are kept; the inbox offers it while Whisper is installed."""

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.assembly import build_service
from app.config import Settings, SpeechSettings
from app.domain.enums import Status, UtteranceSource
from app.errors import ModelError, UsageError
from app.service import MurmurService
from tests.support.murmur_cli import Murmur
from tests.support.speech import whisper_model, word_error_rate  # noqa: F401 (a fixture)


@pytest.fixture
def with_whisper(db_path: Path, whisper_model: Path) -> Iterator[MurmurService]:  # noqa: F811
    settings = Settings(speech=replace(SpeechSettings(), whisper_model=str(whisper_model)))
    opened = build_service(db_path, settings, offline=True)
    yield opened
    opened.close()


@pytest.mark.slow  # Whisper reads the recording again
def test_rehear_retries_with_what_whisper_hears_and_keeps_the_first_words(
    with_whisper: MurmurService, speech: bytes
) -> None:
    service = with_whisper
    said = service.submit("eggs are done", UtteranceSource.VOICE, audio=speech)
    assert not said.applied
    offer = service.rehear_offer()
    assert offer is not None and offer.count == 1 and offer.engine.startswith("Whisper")
    result = service.rehear(said.utterance_id)
    [entry] = service.entries([Status.ACTIVE])
    assert word_error_rate("buy milk and bread", entry.source_text) == 0
    with service.store.read() as session:
        from app.store.models import Utterance

        utterance = session.get(Utterance, said.utterance_id)
    assert utterance is not None and utterance.heard_text == "eggs are done"
    assert word_error_rate("buy milk and bread", utterance.text) == 0
    assert result.applied and service.rehear_offer() is None  # nothing waits now


@pytest.mark.slow  # Whisper reads the recording again
def test_the_inbox_offers_whisper_and_retry_rehear_takes_it(
    with_whisper: MurmurService,
    speech: bytes,
    db_path: Path,
    tmp_path: Path,
    whisper_model: Path,  # noqa: F811
) -> None:
    said = with_whisper.submit("eggs are done", UtteranceSource.VOICE, audio=speech).utterance_id
    cli = Murmur(db_path, tmp_path)
    assert cli.run("inbox").stdout.count("can be heard again") == 0  # no settings file yet: no Whisper
    assert cli.run("config", "set", "speech.whisper_model", str(whisper_model)).returncode == 0
    shown = cli.run("inbox").stdout
    assert "1 waiting item can be heard again with Whisper (whisper-base): murmur retry ID --rehear" in shown
    done = cli.run("retry", str(said), "--rehear", "--engine", "whisper", "--offline")
    assert done.returncode == 0, done.stderr
    assert "Inbox is empty" in cli.run("inbox").stdout


def test_rehear_with_whisper_when_none_is_installed_says_what_to_download(
    service: MurmurService, speech: bytes
) -> None:
    said = service.submit("eggs are done", UtteranceSource.VOICE, audio=speech)
    assert service.rehear_offer() is None
    with pytest.raises(ModelError, match="no Whisper model") as missing:
        service.rehear(said.utterance_id, engine="whisper")
    assert "models" in str(missing.value.remedy)


def test_without_whisper_the_live_engine_hears_it_again(service: MurmurService, speech: bytes) -> None:
    said = service.submit("eggs are done", UtteranceSource.VOICE, audio=speech)
    service.rehear(said.utterance_id)  # the bundled engine: the best installed here
    [entry] = service.entries([Status.ACTIVE])
    assert word_error_rate("buy milk and bread", entry.source_text) <= 0.25


def test_a_named_whisper_model_that_is_missing_offers_nothing(db_path: Path, speech: bytes) -> None:
    settings = Settings(speech=replace(SpeechSettings(), whisper_model="whisper-large-v3"))
    service = build_service(db_path, settings, offline=True)
    said = service.submit("eggs are done", UtteranceSource.VOICE, audio=speech)
    assert service.rehear_offer() is None
    with pytest.raises(UsageError, match="unknown speech engine 'deepgram'"):
        service.rehear(said.utterance_id, engine="deepgram")
    service.close()
