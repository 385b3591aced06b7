"""A streaming engine that starts behind the recording (it loaded after the user began, or Whisper fell behind and it
stands in) hears what it missed half a second at a time, so that a stop never waits while it reads all of it at
once (pocketsphinx holds the GIL as it reads); the words it hands on at the stop are still every word said. The real
bundled engine on flite's speech, handed over faster than real time; a spy counts what each feed gives it."""

from pathlib import Path

import pytest

from app.config import SpeechSettings
from app.domain.hints import NO_HINTS, Hints
from app.speech_in import dictation as dictation_module
from app.speech_in.dictation import FEED_BYTES, Dictation
from app.speech_in.transcriber import EngineResult, StreamingEngine, Transcriber
from tests.support.played_clip import PlayedClip
from tests.support.speech import DICTATION, captured_speech, word_error_rate


class CountedFeeds:
    """The real streaming engine; each transcriber it starts notes how many bytes each feed hands it."""

    def __init__(self, engine: StreamingEngine, sizes: list[int]) -> None:
        self.engine, self.sizes = engine, sizes
        self.kind, self.name, self.language = engine.kind, engine.name, engine.language

    def start(self, channel: str = "", hints: Hints = NO_HINTS) -> Transcriber:
        return _Counted(self.engine.start(channel, hints), self.sizes)

    def decode(self, pcm: bytes, hints: Hints = NO_HINTS) -> EngineResult:
        return self.engine.decode(pcm, hints)


class _Counted:
    def __init__(self, transcriber: Transcriber, sizes: list[int]) -> None:
        self.transcriber, self.sizes = transcriber, sizes

    def feed(self, pcm: bytes) -> None:
        self.sizes.append(len(pcm))
        self.transcriber.feed(pcm)

    @property
    def partial(self) -> str:
        return self.transcriber.partial

    def finish(self) -> EngineResult:
        return self.transcriber.finish()

    def cancel(self) -> None:
        self.transcriber.cancel()


def test_a_late_streaming_engine_hears_its_backlog_in_pieces_and_hands_on_every_word(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = f"{DICTATION[2]}. {DICTATION[25]}."  # "the milk is done. the laundry is done."
    audio = captured_speech(said, tmp_path)
    sizes: list[int] = []
    real_as_streaming = dictation_module.as_streaming
    monkeypatch.setattr(dictation_module, "as_streaming", lambda engine: CountedFeeds(real_as_streaming(engine), sizes))
    settings = SpeechSettings(engine="pocketsphinx", final_engine="off")
    dictation = Dictation(settings, source=PlayedClip(audio, real_time=False))  # all of it before the engine is up
    dictation.start()
    transcript = dictation.stop()
    assert len(sizes) >= 2 and max(sizes[:-1]) <= FEED_BYTES, sizes  # the last: the rest, at the stop
    assert sum(sizes) == len(audio)
    assert word_error_rate(said, transcript.text) <= 0.25, transcript.text
