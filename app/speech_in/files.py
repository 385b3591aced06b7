"""Audio files to text: the whole recording decoded in full-utterance passes, one per piece between pauses.

A file is complete before decoding starts, so nothing is streamed: each piece (at most 25 s, cut in a
pause) is read in one pass with the engine's best offline settings, by Whisper when it is installed and
chosen, else by the dictation engine.
"""

import time
from dataclasses import dataclass
from pathlib import Path

from app.config import SpeechSettings
from app.domain.hints import NO_HINTS, Hints
from app.errors import Command
from app.speech_in.engines import EngineChoice, choose_engine, choose_final_engine, load_engine
from app.speech_in.faint_speech import faint_reader
from app.speech_in.segments import split_at_pauses
from app.speech_in.transcriber import Transcript, Word
from app.speech_in.vad import find_speech
from app.speech_in.wavfile import read_audio


@dataclass(frozen=True)
class FileTranscription:
    transcript: Transcript
    hint: Command | None  # how to get better accuracy, when the bundled engine did the work


def file_engine(settings: SpeechSettings, *, engine: str = "", model: str = "", final_engine: str = "") -> EngineChoice:
    """The engine that reads files: the final engine when one is chosen, else the dictation engine."""
    live = choose_engine(settings, engine=engine, model=model)
    return choose_final_engine(settings, live, final_engine=final_engine, thorough=True) or live


def transcribe_file(
    path: Path,
    settings: SpeechSettings,
    *,
    engine: str = "",
    model: str = "",
    final_engine: str = "",
    hints: Hints = NO_HINTS,
) -> FileTranscription:
    """The text spoken in the file at `path`; AudioFileError or ModelError (one line) when it can't be had."""
    choice = file_engine(settings, engine=engine, model=model, final_engine=final_engine)
    clip = read_audio(path)
    loaded = load_engine(choice)
    began = time.perf_counter()
    texts: list[str] = []
    words: list[Word] = []
    faint = False
    hints = hints if settings.vocabulary_hints else NO_HINTS
    for piece in split_at_pauses(clip.pcm):
        speech = find_speech(piece.pcm)
        if (reader := faint_reader(loaded, piece.pcm, speech)) is not None:  # a whisper the detector missed
            result = reader.read_faint(piece.pcm, hints)
            faint = faint or bool(result.text)
        elif speech.heard:
            result = loaded.decode(piece.pcm, hints)
        else:  # an engine writes words for noise too: a piece with no speech has none
            continue
        if result.text:
            texts.append(result.text)
        words.extend(Word(w.text, w.start + piece.start, w.end + piece.start, w.confidence) for w in result.words)
    elapsed = time.perf_counter() - began
    transcript = Transcript(" ".join(texts), words, loaded.name, round(clip.seconds, 3), round(elapsed, 3), faint=faint)
    return FileTranscription(transcript, choice.hint)
