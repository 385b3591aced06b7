"""The user's words through the real engines: a misheard name written right, and replacements in dictation only."""

from pathlib import Path

import pytest
from sqlmodel import col, select

from app.domain.clock import Clock
from app.domain.enums import UtteranceSource
from app.domain.hints import NO_HINTS
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.speech_in.engines import EngineChoice, load_engine
from app.speech_in.pronounce import arpabet, pronunciations
from app.speech_in.sphinx_engine import PocketsphinxEngine
from app.speech_in.wavfile import read_audio
from app.store import Store
from app.store.models import Utterance
from app.vocabulary.words import replacement, term
from tests.support.speech import RARE_NAMES, flite_wav, pad_with_silence, words_of

KUBERNETES = RARE_NAMES[0]  # "email Siobhan about the Kubernetes upgrade"
FIGMA = RARE_NAMES[7]  # "tell Niamh the Figma file is ready"
SAOIRSE = RARE_NAMES[3]  # "buy a present for Saoirse"


def spoken(text: str, folder: Path) -> bytes:
    wav = flite_wav(text, folder / "said.wav")
    return read_audio(pad_with_silence(wav, folder / "padded.wav")).pcm


@pytest.fixture
def service(store: Store, clock: Clock) -> MurmurService:
    return MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)


def test_ipa_is_spelt_in_the_bundled_models_phones() -> None:
    assert arpabet("kjˈuːbɚnˌiːts") == "K Y UW B ER N IY T S"
    assert arpabet("d\u200dʒˈe\u200dɪsˈɑːn") == "JH EY S AA N"
    assert arpabet("ʘ") is None  # a click: no phone for it, so no pronunciation rather than a wrong one
    assert pronunciations(["Grafana"]) == {"Grafana": "G R AE F AA N AH"}


@pytest.mark.slow  # a fresh engine loaded and taught
def test_the_bundled_engine_writes_the_users_terms_it_could_not_before(service: MurmurService, tmp_path: Path) -> None:
    engine = PocketsphinxEngine()  # its own: taught words stay with an engine for the life of the process
    recordings = {text: spoken(text, tmp_path) for text in (KUBERNETES, FIGMA)}
    before = {text: engine.decode(pcm, service.vocabulary()).text for text, pcm in recordings.items()}
    assert "kubernetes" not in words_of(before[KUBERNETES]) and "figma" not in words_of(before[FIGMA])
    service.keep_words([term("Kubernetes"), term("Figma")])
    after = {text: engine.decode(pcm, service.vocabulary()).text for text, pcm in recordings.items()}
    assert "kubernetes" in words_of(after[KUBERNETES]), after
    assert "figma" in words_of(after[FIGMA]), after


def test_a_replacement_mends_a_dictated_name_but_not_typed_text(
    service: MurmurService, sphinx: PocketsphinxEngine, tmp_path: Path
) -> None:
    heard = sphinx.decode(spoken(SAOIRSE, tmp_path), NO_HINTS).text
    assert heard == "buy a present for so worse"  # the name the engine cannot know
    service.keep_words([replacement("so worse", "Saoirse")])
    service.submit(heard, UtteranceSource.VOICE)
    service.submit("so worse than yesterday", UtteranceSource.TYPED)
    with service.store.read() as session:
        saved = [(u.text, u.heard_text) for u in session.exec(select(Utterance).order_by(col(Utterance.id)))]
    assert saved == [("buy a present for Saoirse", heard), ("so worse than yesterday", None)]


@pytest.mark.slow
def test_whisper_spells_names_its_way_with_the_terms_as_hotwords(
    service: MurmurService, whisper_model: Path, tmp_path: Path
) -> None:
    whisper = load_engine(EngineChoice("whisper", whisper_model, "en"))
    pcm = spoken(RARE_NAMES[5], tmp_path)  # "update the Grafana dashboard before Friday"
    assert "Grafana" not in whisper.decode(pcm, service.vocabulary()).text
    service.keep_words([term("Grafana")])
    assert "Grafana" in whisper.decode(pcm, service.vocabulary()).text
