"""The pass at release: the whole utterance read again within a budget; the live text stands when it can't be."""

import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from app.speech_in.final_pass import FinalPass, SpeedMeter
from app.speech_in.transcriber import Engine, EngineResult
from app.speech_in.wavfile import read_audio
from tests.support.speech import word_error_rate

LIVE = EngineResult(text="what the streaming decoder heard", words=[])


class BrokenEngine:
    """An engine whose decoding raises: a real engine can't be made to fail on demand (a stand-in, on purpose)."""

    kind = "pocketsphinx"
    name = "broken"
    language = "en"

    def decode(self, pcm: bytes, hints: Sequence[str] = ()) -> EngineResult:
        raise RuntimeError("the decoder fell over")


@pytest.fixture(scope="module")
def utterance(flite_corpus: dict[str, list[tuple[str, Path]]]) -> tuple[str, bytes]:
    text, wav = flite_corpus["rms"][1]
    return text, read_audio(wav).pcm


def test_the_full_pass_text_is_handed_on_when_it_fits(sphinx: Engine, utterance: tuple[str, bytes]) -> None:
    text, pcm = utterance
    outcome = FinalPass(sphinx, budget=10.0).run(pcm, LIVE)
    assert outcome.used_final_pass and outcome.note is None
    assert outcome.result.text == sphinx.decode(pcm).text
    assert word_error_rate(text, outcome.result.text) <= 0.2
    assert 0 < outcome.seconds < 10.0


def test_a_dictation_of_several_seconds_is_read_again_by_the_live_engine_as_a_file_would_be(
    sphinx: Engine, utterance: tuple[str, bytes]
) -> None:
    pcm = utterance[1] * 3  # about five seconds, as a todo dictated at once
    outcome = FinalPass(sphinx).run(pcm, LIVE)  # the budget and first guess of speed a fresh process starts with
    assert outcome.used_final_pass and outcome.note is None
    assert outcome.result.text == sphinx.decode(pcm).text


def test_a_pass_predicted_over_budget_is_not_started(sphinx: Engine, utterance: tuple[str, bytes]) -> None:
    meter = SpeedMeter(fixed=0.0, per_second=1.0)  # a machine where decoding runs at real time
    outcome = FinalPass(sphinx, budget=0.3, meter=meter).run(utterance[1], LIVE)
    assert outcome.result == LIVE and not outcome.used_final_pass
    assert outcome.seconds == 0.0 and outcome.note is not None and "skipped" in outcome.note


def test_a_pass_that_overruns_its_deadline_leaves_the_live_text(
    whisper_model: Path, utterance: tuple[str, bytes]
) -> None:
    from app.speech_in.engines import EngineChoice, load_engine

    whisper = load_engine(EngineChoice("whisper", whisper_model, "en"))
    meter = SpeedMeter(fixed=0.0, per_second=0.0)  # predicts instant, so it starts; the deadline stops the wait
    outcome = FinalPass(whisper, budget=0.05, meter=meter).run(utterance[1], LIVE)
    assert outcome.result == LIVE and not outcome.used_final_pass
    assert outcome.note is not None and "too slow" in outcome.note
    assert outcome.seconds < 0.3  # Whisper (CTranslate2) lets go of the GIL, so the wait really ends on time


def test_the_live_engines_pass_once_started_is_waited_for_past_its_budget(
    sphinx: Engine, utterance: tuple[str, bytes]
) -> None:
    meter = SpeedMeter(fixed=0.0, per_second=0.0)  # predicts instant, so it starts, and takes longer than the budget
    outcome = FinalPass(sphinx, budget=0.01, meter=meter).run(utterance[1], LIVE)
    assert outcome.used_final_pass and outcome.result.text == sphinx.decode(utterance[1]).text
    assert outcome.seconds > 0.01


def test_a_failing_pass_leaves_the_live_text_and_says_why(utterance: tuple[str, bytes]) -> None:
    engine: Engine = BrokenEngine()
    outcome = FinalPass(engine, budget=1.0).run(utterance[1], LIVE)
    assert outcome.result == LIVE and not outcome.used_final_pass
    assert outcome.note == "final pass failed: the decoder fell over"


def test_the_meter_learns_how_fast_the_engine_really_is() -> None:
    meter = SpeedMeter(fixed=0.1, per_second=0.1)
    before = meter.predict(5.0)
    for _ in range(5):
        meter.record(5.0, 3.1)  # 0.6 s per second of audio on a busy machine
    assert meter.predict(5.0) > before + 1.5
    assert meter.predict(5.0) < 0.1 + 0.6 * 5.0 + 1e-9


@pytest.mark.slow  # twelve passes
def test_a_skipped_pass_lets_the_meter_drift_back_so_the_pass_runs_again(
    sphinx: Engine, utterance: tuple[str, bytes]
) -> None:
    meter = SpeedMeter(fixed=0.0, per_second=0.01)
    meter.record(1.0, 5.0)  # one pass on a machine that was busy for a moment
    final = FinalPass(sphinx, budget=1.0, meter=meter)
    runs = [final.run(utterance[1], LIVE).used_final_pass for _ in range(12)]
    assert runs[0] is False and runs[-1] is True


def test_whisper_is_waited_for_longer_the_more_audio_is_left_to_read(whisper_model: Path) -> None:
    """What stands when Whisper is cut short is the live engine's text, mostly wrong on a real voice: a busy
    machine waits for Whisper a while rather than keep it, longer for more audio."""
    from app.speech_in.engines import EngineChoice, load_engine

    final = FinalPass(load_engine(EngineChoice("whisper", whisper_model, "en")), meter=SpeedMeter(0.0, 0.0))
    heard = EngineResult("buy oat milk and call the plumber", [])

    def slow_read() -> EngineResult:  # as Whisper on a machine five times busier than it expects
        time.sleep(3.0)
        return heard

    after_long = final.run_work(20.0, slow_read, lambda: LIVE)
    assert after_long.used_final_pass and after_long.result == heard
    after_short = final.run_work(2.0, slow_read, lambda: LIVE)
    assert not after_short.used_final_pass and after_short.result == LIVE  # 2.5 s, as before
