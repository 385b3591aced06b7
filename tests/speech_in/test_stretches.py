"""Speech decoded while the user speaks: the agreement rule, where stretches end, and Whisper base fed as it hears."""

import threading
from difflib import SequenceMatcher
from pathlib import Path

import pytest

from app.config import SpeechSettings
from app.domain.hints import NO_HINTS, Hints
from app.speech_in.agreement import LocalAgreement
from app.speech_in.audio import SAMPLE_RATE
from app.speech_in.dictation import Dictation
from app.speech_in.engines import EngineChoice, load_engine
from app.speech_in.final_pass import SpeedMeter, final_pass_for
from app.speech_in.segments import FRAME_SECONDS
from app.speech_in.stretch_decoding import StretchDecoder, falls_behind
from app.speech_in.stretches import Cut, StretchCutter
from app.speech_in.transcriber import Engine, EngineResult, LiveText
from app.speech_in.wavfile import read_audio
from tests.support.played_clip import PlayedClip
from tests.support.speech import DICTATION, captured_speech, edit_distance, flite_wav, word_error_rate, words_of

# Left out of `make test-fast`: Whisper reads up to a minute of speech, stretch by stretch.
pytestmark = pytest.mark.slow

CHUNK = SAMPLE_RATE * 2 // 10  # 100 ms, as the microphone hands it on


def frames(*runs: tuple[bool, float]) -> list[bool]:
    return [speech for speech, seconds in runs for _ in range(round(seconds / FRAME_SECONDS))]


def cuts(cutter: StretchCutter, pattern: list[bool]) -> list[Cut]:
    return [cut for speech in pattern if (cut := cutter.push(speech)) is not None]


def test_two_reads_in_a_row_commit_the_words_they_agree_on_whatever_their_case_and_punctuation() -> None:
    agreement = LocalAgreement()
    assert agreement.read("Remind me") == LiveText("", "Remind me")
    assert agreement.read("remind me, to call") == LiveText("remind me,", "to call")
    assert agreement.read("Remind me to call the dentist.") == LiveText("remind me, to call", "the dentist.")
    # A read that says the start differently takes back nothing committed; its words beyond them are the tail.
    assert agreement.read("Remind him to call the dentist on") == LiveText("remind me, to call", "the dentist on")
    assert agreement.live.text == "remind me, to call the dentist on"


def test_a_stretch_ends_in_the_middle_of_a_pause_after_enough_speech() -> None:
    cutter = StretchCutter(min_seconds=2.0, pause=0.5)
    pattern = frames((False, 0.3), (True, 0.9), (False, 0.6), (True, 1.5), (False, 0.9), (True, 0.6))
    found = cuts(cutter, pattern)
    # The first pause came after 1.2 s (too short a stretch to stand alone); the second ends one.
    speech_end = round(3.3 / FRAME_SECONDS)
    assert found == [Cut(speech_end + round(0.5 / FRAME_SECONDS) // 2, speech_end)]
    assert cutter.begin == found[0].end and cutter.speech_end == len(pattern)


def test_speech_without_a_long_pause_is_cut_at_the_cap_in_its_longest_pause() -> None:
    cutter = StretchCutter(min_seconds=2.0, pause=0.5, cap=10.0)
    pattern = frames((True, 4.0), (False, 0.3), (True, 3.0), (False, 0.15), (True, 5.0))
    found = cuts(cutter, pattern)
    assert [cut.end for cut in found] == [round(4.15 / FRAME_SECONDS)]
    assert found[0].speech_end == round(4.0 / FRAME_SECONDS)


def test_silence_alone_is_never_a_stretch_and_reads_fall_behind_past_a_second_and_a_half() -> None:
    assert cuts(StretchCutter(), frames((False, 30.0))) == []
    assert not falls_behind(1.5) and falls_behind(1.6)


class CountingEngine:
    """The real Whisper engine, counting what it is asked to decode."""

    def __init__(self, engine: Engine) -> None:
        self.engine, self.kind, self.name, self.language = engine, engine.kind, engine.name, engine.language
        self.decoded: list[float] = []  # seconds of audio, per call

    def decode(self, pcm: bytes, hints: Hints = NO_HINTS) -> EngineResult:
        self.decoded.append(len(pcm) / (2 * SAMPLE_RATE))
        return self.engine.decode(pcm, hints)


@pytest.fixture(scope="session")
def whisper(whisper_model: Path) -> Engine:
    return load_engine(EngineChoice("whisper", whisper_model, "en"))


def test_whisper_commits_words_while_it_hears_and_finishes_as_a_file_decode_reads(
    whisper: Engine, tmp_path: Path
) -> None:
    pcm = captured_speech(f"{DICTATION[0]}. {DICTATION[13]}.", tmp_path)
    decoder = StretchDecoder(whisper, live=True)
    shown: list[LiveText] = []
    for start in range(0, len(pcm), CHUNK):
        decoder.feed(pcm[start : start + CHUNK])
        assert decoder.wait_idle(30)
        shown.append(decoder.live)
    assert any(len(words_of(live.committed)) >= 3 for live in shown[:-5]), shown  # well before the end
    assert not decoder.behind
    final = decoder.finish().text
    assert edit_distance(words_of(whisper.decode(pcm).text), words_of(final)) <= 2, final


def test_a_minute_of_dictation_loses_no_sentence_and_leaves_only_its_last_stretch_for_the_release(
    whisper: Engine, tmp_path: Path
) -> None:
    sentences = DICTATION[:1] + DICTATION[2:21]  # Whisper base hears flite's "buy milk eggs and bread" as "Bimil Kegs"
    pauses = [b"\0\0" * int(seconds * SAMPLE_RATE) for seconds in (1.0, 0.3)]  # a stretch may hold two sentences
    pcm = pauses[0] + b"".join(
        read_audio(flite_wav(text, tmp_path / f"{i}.wav")).pcm + pauses[i % 2] for i, text in enumerate(sentences)
    )
    assert len(pcm) / (2 * SAMPLE_RATE) >= 60
    counting = CountingEngine(whisper)
    decoder = StretchDecoder(counting)
    for start in range(0, len(pcm), 8 * CHUNK):
        decoder.feed(pcm[start : start + 8 * CHUNK])
        assert decoder.wait_idle(60)
    before_release = len(counting.decoded)
    final = words_of(decoder.finish().text)
    assert all(seconds <= 25 for seconds in counting.decoded)
    assert len(counting.decoded) - before_release <= 1  # the last stretch, unless a read in its pause holds it
    assert before_release >= 3 and max(counting.decoded[before_release:], default=0) < 12
    said = [word for text in sentences for word in words_of(text)]
    matched = {
        index
        for block in SequenceMatcher(a=said, b=final, autojunk=False).get_matching_blocks()
        for index in range(block.a, block.a + block.size)
    }
    start = 0
    for text in sentences:  # every sentence is there: half its words at least, in order
        count = len(words_of(text))
        assert sum(index in matched for index in range(start, start + count)) >= 0.5 * count, (text, final)
        start += count


def test_a_release_with_no_time_for_whisper_keeps_every_word_the_live_engine_heard(
    whisper: Engine, whisper_model: Path, sphinx: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = f"{DICTATION[2]}. {DICTATION[25]}."  # "the milk is done. the laundry is done."
    settings = SpeechSettings(engine="pocketsphinx", final_engine="whisper", whisper_model=str(whisper_model))
    too_slow = SpeedMeter(fixed=100.0, per_second=100.0)  # what a machine far too slow for Whisper has learned
    monkeypatch.setattr(final_pass_for(whisper), "meter", too_slow)
    dictation = Dictation(settings, source=PlayedClip(captured_speech(said, tmp_path), real_time=False))
    dictation.start()
    transcript = dictation.stop()
    assert transcript.final_pass_note is not None and "skipped" in transcript.final_pass_note
    assert word_error_rate(said, transcript.text) <= 0.5, transcript.text


def test_a_read_holding_more_words_than_anyone_says_in_its_time_is_read_again_without_hints(
    whisper: Engine, tmp_path: Path
) -> None:
    # A short word, the user's list as the prompt: Whisper base writes the list out ("Pay the water bill, Book the
    # dry cleaning."), as it looped on a real voice's "four" ("4.4.4.3.4.4...") with the same list.
    listed = ("Buy oat milk", "Call the dentist", "Pay the water bill", "Book the MOT", "Pick up the dry cleaning")
    hints = Hints(terms=("Dr. Okafor", "Zumba"), phrases=listed)
    pcm = read_audio(flite_wav("bat", tmp_path / "bat.wav", "slt")).pcm
    heard = words_of(whisper.decode(pcm, hints).text)
    assert 1 <= len(heard) <= 2, heard
    gap = b"\0\0" * SAMPLE_RATE  # and in a dictation, where the stretch before is the prompt too
    decoder = StretchDecoder(whisper, hints)
    said = captured_speech(DICTATION[4], tmp_path) + gap + pcm + gap
    for start in range(0, len(said), CHUNK):
        decoder.feed(said[start : start + CHUNK])
        assert decoder.wait_idle(30)
    final = words_of(decoder.finish().text)
    written_out = {word for phrase in listed for word in words_of(phrase)} - set(words_of(DICTATION[4]))
    assert len(final) <= len(words_of(DICTATION[4])) + 2 and not written_out & set(final), final


class Stalled:
    """The real Whisper engine, its first read held up as a load spike would (another program taking the cores for
    seconds): a stand-in for the spike alone, which cannot be had on demand."""

    def __init__(self, engine: Engine, seconds: float) -> None:
        self.engine, self.kind, self.name, self.language = engine, engine.kind, engine.name, engine.language
        self.release = threading.Event()
        self.seconds = seconds

    def decode(self, pcm: bytes, hints: Hints = NO_HINTS) -> EngineResult:
        self.release.wait(self.seconds)
        self.release.set()  # one read held, no more
        return self.engine.decode(pcm, hints)


def test_reads_that_fell_behind_go_on_once_the_finished_stretches_are_decoded(whisper: Engine, tmp_path: Path) -> None:
    first, second = DICTATION[0], DICTATION[13]
    gap = b"\0\0" * SAMPLE_RATE
    pcm_first = captured_speech(first, tmp_path) + gap
    pcm_second = read_audio(flite_wav(second, tmp_path / "second.wav")).pcm + gap
    stalled = Stalled(whisper, 30.0)
    decoder = StretchDecoder(stalled, live=True)
    for start in range(0, len(pcm_first) - len(gap), CHUNK):  # the first sentence while its first read is held
        decoder.feed(pcm_first[start : start + CHUNK])
    assert decoder.behind
    stalled.release.set()  # the spike passes
    shown: list[LiveText] = []
    for pcm in (pcm_first[len(pcm_first) - len(gap) :], pcm_second):
        for start in range(0, len(pcm), CHUNK):
            decoder.feed(pcm[start : start + CHUNK])
            assert decoder.wait_idle(30)
            shown.append(decoder.live)
    assert not decoder.behind
    # Words of the second sentence committed by reads while it was said, not only its decode at the end
    said_first = len(words_of(first))
    assert any(len(words_of(live.committed)) >= said_first + 3 for live in shown[:-5]), shown
    final = decoder.finish().text
    assert word_error_rate(f"{first} {second}", final) <= 0.25, final
