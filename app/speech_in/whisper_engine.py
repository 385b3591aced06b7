"""faster-whisper (CTranslate2 Whisper) for the final text: no streaming, but the most accurate pass we have.

Whisper only decodes whole stretches of audio; a dictation reads the growing audio again and again for its live
words (app/speech_in/stretch_decoding.py). Int8 on the CPU; a dictation gets greedy search and no word timings (the
user is waiting), a file a beam of 5 and word timings (`thorough`). A dictation's encoder reads a window fitted to
the utterance, not Whisper's fixed 30 s (`fitted_window`).
"""

import logging
import math
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from app.domain.hints import NO_HINTS, Hints
from app.errors import ModelError
from app.speech_in.audio import pcm16_as_float, seconds_of
from app.speech_in.faint_speech import confident_segments
from app.speech_in.language import base_language
from app.speech_in.speech_rate import said_in_time
from app.speech_in.transcriber import EngineResult, Word
from app.speech_in.vad import MIN_SPEECH_MS

log = logging.getLogger("murmur.speech")

# Whisper reads a prompt as the text that came before; a list of the user's own words makes it spell them
# the user's way. It is cut well under Whisper's 224-token prompt limit.
HINT_PROMPT_CHARACTERS = 400
# Whisper was trained on 30 s windows, speech followed by padding: a window cut at the last word loses words
# (+3.8 points of WER on 80 utterances of ~5 s), two seconds of padding keep them within half a point of the full
# window's at half its time; under ten seconds a short command lacks the context to be read as the full window
# reads it (bench/whisper_window_bench.py).
WINDOW_MARGIN_SECONDS = 2.0
SHORTEST_WINDOW_SECONDS = 10.0
# A dictation's text is at most this many tokens per second of audio (fast speech is ~6): on a read of half a
# word Whisper can loop on one phrase until its 448-token limit, at every fallback temperature, for seconds.
TOKENS_PER_SECOND = 12
FEWEST_TOKENS = 16
# Whisper reads at most 448 tokens, prompt included, and faster-whisper keeps up to 223 of the prompt's.
MOST_TOKENS = 220


def fitted_window(audio_seconds: float) -> float:
    """The encoder window for an utterance: its length rounded up to whole seconds plus the margin, at least ten."""
    return max(SHORTEST_WINDOW_SECONDS, math.ceil(audio_seconds) + WINDOW_MARGIN_SECONDS)


def most_tokens(audio_seconds: float) -> int:
    """The most tokens a dictation's decoding may write for this much audio."""
    return min(MOST_TOKENS, FEWEST_TOKENS + math.ceil(TOKENS_PER_SECOND * audio_seconds))


def full_window(audio_seconds: float) -> float:
    """Whisper's own 30 s window, whatever the length (what faster-whisper does by itself)."""
    return 30.0


def hint_prompt(hints: Sequence[str]) -> str | None:
    """The user's phrases as a prompt, most important (first) first, cut at a phrase boundary."""
    prompt = ""
    for phrase in hints:
        phrase = " ".join(phrase.split())
        if not phrase:
            continue
        candidate = f"{prompt}, {phrase}" if prompt else phrase
        if len(candidate) > HINT_PROMPT_CHARACTERS:
            break
        prompt = candidate
    return f"{prompt}." if prompt else None


class WhisperEngine:
    """A Whisper model loaded once (about half a second for base) and shared; decoding is thread-safe."""

    kind = "whisper"

    def __init__(
        self,
        model_path: Path,
        language: str,
        *,
        thorough: bool = False,
        window: Callable[[float], float] | None = None,
    ) -> None:
        try:
            from app.speech_in.whisper_window import WindowedWhisperModel
        except ImportError:
            # faster-whisper is a dependency: only an installation missing part of itself gets here
            raise ModelError(
                "faster-whisper is missing from this installation of Murmur; install Murmur again"
            ) from None
        if not (model_path / "model.bin").is_file():
            raise ModelError(f"{model_path} is not a Whisper model folder (no model.bin in it)")
        try:
            self._model: Any = WindowedWhisperModel(
                str(model_path),
                device="cpu",
                compute_type="int8",
                cpu_threads=os.cpu_count() or 0,
                # Nobody waits on a file or a recording heard again: they keep the window Whisper was trained on.
                window=window or (full_window if thorough else fitted_window),
            )
        except (RuntimeError, ValueError, OSError) as error:
            raise ModelError(f"cannot load the Whisper model in {model_path}: {error}") from None
        self.model_path = model_path
        self.language = language
        self.thorough = thorough
        self.name = f"Whisper ({model_path.name})"
        log.info("loaded the Whisper model %s", model_path)

    def decode(self, pcm: bytes, hints: Hints = NO_HINTS) -> EngineResult:
        # A dictation's Whisper reads only the speech Silero hears: over noise alone Whisper writes words ("Thank
        # you."), and an encoder window fitted to the audio makes that likelier; with no speech, nothing is decoded.
        # A file's pieces are checked for speech before they come here.
        return _words(self._read_said(pcm, hints, vad_filter=not self.thorough))

    def read_faint(self, pcm: bytes, hints: Hints = NO_HINTS) -> EngineResult:
        """All of `pcm`, past the detector (it heard no speech in a whisper), keeping only what Whisper is sure of
        (app/speech_in/faint_speech.py); a read Whisper judges failed is dropped, not tried again less greedily."""
        return _words(confident_segments(self._read_said(pcm, hints, vad_filter=False, temperature=0.0)))

    def _read_said(self, pcm: bytes, hints: Hints, **options: Any) -> list[Any]:
        """Whisper's segments for `pcm`; read again without the hints (the user's words, the text before) when
        the read holds more words than anyone says in the time: Whisper wrote its prompt out, or looped."""
        segments = self._read(pcm, hints, **options)
        if not hints or said_in_time(" ".join(s.text for s in segments), seconds_of(pcm)):
            return segments
        log.info("a read of %.1f s wrote more words than were said: read again without hints", seconds_of(pcm))
        return self._read(pcm, NO_HINTS, **options)

    def _read(self, pcm: bytes, hints: Hints, *, vad_filter: bool, **options: Any) -> list[Any]:
        """Whisper's segments for `pcm`, read whole."""
        language = base_language(self.language) if self._model.model.is_multilingual else None
        segments, _ = self._model.transcribe(
            pcm16_as_float(pcm),
            language=language,
            beam_size=5 if self.thorough else 1,
            # The user's terms as hotwords (before the prompt), their list's phrases as the text before: on
            # sentences with rare names this beat either alone, and the terms put in both (bench/vocabulary_bench.py).
            hotwords=hint_prompt(hints.terms),
            initial_prompt=hint_prompt(hints.phrases),
            condition_on_previous_text=False,  # a wrong first sentence must not steer the rest
            vad_filter=vad_filter,
            vad_parameters={"min_speech_duration_ms": MIN_SPEECH_MS},
            word_timestamps=self.thorough,
            max_new_tokens=None if self.thorough else most_tokens(seconds_of(pcm)),
            **options,
        )
        return list(segments)


def _words(segments: Iterable[Any]) -> EngineResult:
    """The text and word timings of Whisper's `segments`."""
    words: list[Word] = []
    texts: list[str] = []
    for segment in segments:
        texts.append(segment.text.strip())
        words.extend(
            Word(text=w.word.strip(), start=float(w.start), end=float(w.end), confidence=float(w.probability))
            for w in segment.words or []
        )
    return EngineResult(text=" ".join(t for t in texts if t), words=words)
