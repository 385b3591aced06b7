"""The natural voice offered beside the speech models on the first run: which voice, with its size, when it is left
out, and accepting it (a real download from the local server standing in for rhasspy/piper-voices, then a reply
spoken by Piper with the real joe voice, served under the recommended voice's name: never the product's source).
The speech models are model-shaped fakes (tests/support/fake_models.py)."""

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from app.config import Settings, SpeechSettings, load_settings, save_settings
from app.speech_in.model_offer import accept
from app.speech_in.models import models_dir
from app.speech_out.choice import choose_synthesizer
from app.speech_out.synthesis import PiperSynthesizer, speak
from app.speech_out.voice_offer import ENGLISH_VOICE, first_run_offer
from app.speech_out.voices import PiperVoices
from tests.support.fake_models import WHISPER_ENGLISH, joe_as, publish_english_voice, publish_whisper
from tests.support.model_server import ModelServer
from tests.support.murmur_cli import Murmur

FAKE_GERMAN = (b"thorsten model" * 2000, b'{"audio": {"sample_rate": 22050}}')


@pytest.fixture
def models(tmp_path: Path) -> Path:
    """The default models dir (<data dir>/models, the data dir in tmp_path)."""
    return models_dir(SpeechSettings())


def test_the_english_offer_has_a_natural_voice_with_its_size(models: Path) -> None:
    offer = first_run_offer(Settings())
    assert offer is not None and offer.voice is not None
    assert (offer.voice.kind, offer.voice.name, offer.voice.size_text) == ("piper", ENGLISH_VOICE, "63 MB")
    assert offer.voice_line() == f"A natural voice for replies, 63 MB ({ENGLISH_VOICE})"
    assert [m.name for m in offer.models] == [WHISPER_ENGLISH]  # the models as before, beside it
    assert offer.size_text == "211 MB" and offer.without_voice().size_text == "148 MB"
    assert offer.without_voice().voice is None


@pytest.mark.parametrize("have", ["a voice chosen", "espeak-ng chosen", "a piper voice installed"])
def test_no_voice_is_offered_when_the_user_has_one(have: str, server: ModelServer, models: Path) -> None:
    speech = SpeechSettings()
    if have == "a voice chosen":
        speech = replace(speech, voice="en_GB-alan-low")
    elif have == "espeak-ng chosen":
        speech = replace(speech, voice="espeak-ng:en-gb")
    else:
        server.piper_voices(joe_as("en_GB-alan-low"))
        voices = PiperVoices.from_settings(speech)
        voices.download(voices.find_available("en_GB-alan-low"))
    offer = first_run_offer(Settings(speech=speech))
    assert offer is not None and [m.name for m in offer.models] == [WHISPER_ENGLISH]
    assert offer.voice is None and offer.voice_line() == "" and offer.size_text == "148 MB"


def test_without_piper_the_models_are_offered_alone(models: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "piper", None)  # as in a build that leaves Piper out: it cannot be imported
    offer = first_run_offer(Settings())
    assert offer is not None and offer.voice is None and offer.size_text == "148 MB"


def test_another_language_is_offered_its_voice_from_the_catalogue(
    server: ModelServer, models: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.listing([server.row("vosk-model-small-de-0.15", b"1", "de")])
    server.piper_voices({"de_DE-thorsten-low": FAKE_GERMAN, "de_DE-thorsten-medium": FAKE_GERMAN})
    offer = first_run_offer(Settings(speech=SpeechSettings(language="de")))
    assert offer is not None and offer.voice is not None
    assert offer.voice.name == "de_DE-thorsten-medium" and offer.voice.size == sum(map(len, FAKE_GERMAN))
    server.piper_voices({"de_DE-eva_k-x_low": FAKE_GERMAN, "de_DE-kerstin-low": FAKE_GERMAN})  # not the usual one
    fallback = first_run_offer(Settings(speech=SpeechSettings(language="de")))
    assert fallback is not None and fallback.voice is not None and fallback.voice.name == "de_DE-kerstin-low"
    monkeypatch.setenv("MURMUR_PIPER_HUB", "http://127.0.0.1:9")  # the voice list cannot be had: the models still are
    offline = first_run_offer(Settings(speech=SpeechSettings(language="de")))
    assert offline is not None and offline.voice is None and len(offline.models) == 2


def test_no_offer_at_all_once_declined(models: Path) -> None:
    assert first_run_offer(Settings(speech=SpeechSettings(offer_models=False))) is None


def test_accepting_downloads_the_voice_sets_it_and_a_reply_is_spoken_by_piper(
    server: ModelServer, models: Path
) -> None:
    publish_whisper(server)
    publish_english_voice(server)
    save_settings(Settings())
    offer = first_run_offer(load_settings())
    assert offer is not None
    progress: list[tuple[int, int | None]] = []
    chosen = accept(offer, load_settings(), lambda done, total: progress.append((done, total)))
    assert sorted(p.name for p in models.iterdir()) == [".partial", ENGLISH_VOICE, WHISPER_ENGLISH]
    speech = load_settings().speech
    assert (speech.voice, speech.model, speech.whisper_model, speech.offer_models) == (
        ENGLISH_VOICE,
        "",
        WHISPER_ENGLISH,
        False,
    )
    assert chosen == load_settings()
    assert progress[-1][0] == progress[-1][1] and [d for d, _ in progress] == sorted(d for d, _ in progress)
    assert server.requests[-1]["path"].endswith(f"{ENGLISH_VOICE}.onnx")  # the voice came last, checked by MD5
    synthesizer = choose_synthesizer(speech)
    assert isinstance(synthesizer, PiperSynthesizer) and synthesizer.name == f"Piper ({ENGLISH_VOICE})"
    sounds = list(speak(synthesizer, "I added call the plumber, tomorrow at 9 am."))
    samples = np.frombuffer(b"".join(s.pcm for s in sounds), dtype=np.int16)
    assert sum(s.seconds for s in sounds) > 1.0 and np.abs(samples).max() > 1000  # real speech, not silence


def test_unticking_the_voice_keeps_espeak_ng(server: ModelServer, models: Path) -> None:
    publish_whisper(server)
    offer = first_run_offer(Settings())
    assert offer is not None
    accept(offer.without_voice(), Settings())
    assert ENGLISH_VOICE not in [p.name for p in models.iterdir()]
    assert load_settings().speech.voice == ""
    assert not any("piper-voices" in r["path"] for r in server.requests)


def test_murmur_models_recommended_names_the_voice(server: ModelServer, models: Path, tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path)
    text = murmur.run("models", "recommended")
    assert text.returncode == 0, text.stderr
    line = f"A natural voice for replies: {ENGLISH_VOICE} (63 MB); `murmur voices download {ENGLISH_VOICE}`"
    assert line in text.stdout
    assert [r["kind"] for r in murmur.json("models", "recommended")] == ["whisper"]  # the models only
    server.piper_voices(joe_as(ENGLISH_VOICE) | joe_as("en_GB-alan-low"))
    listed = murmur.run("voices", "list", "--available").stdout
    assert f"{ENGLISH_VOICE}" in listed and "recommended" in listed.split(ENGLISH_VOICE)[1].splitlines()[0]
    rows = {r["name"]: r["recommended"] for r in murmur.json("voices", "list", "--available")}
    assert rows == {"en_GB-alan-low": False, ENGLISH_VOICE: True}
