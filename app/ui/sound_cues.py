"""Short, quiet sounds when recording starts and stops, made at run time (no files to ship).

Played through sounddevice on its own thread; a machine without audio output simply stays silent.
A cue can tell when it has been played (or failed to play): a recording that starts with one keeps only what
the microphone heard after it, and cuts the cue's notes (app/speech_in/cue_notes.py) off its start when the speakers
sounded them later than that. One at a time: sounddevice.play closes the previous play's stream, and two
threads doing that at once abort PortAudio (the process dies), so a cue waits for the one before it.
"""

import logging
import threading
from collections.abc import Callable

import numpy as np

from app.api.listening import NOTE_SECONDS, Notes

log = logging.getLogger("murmur.ui.cues")

RATE = 44_100
VOLUME = 0.12
_playing = threading.Lock()


def tone(notes: Notes) -> "np.ndarray[tuple[int], np.dtype[np.float32]]":
    """Notes one after the other, each with a soft attack and release so nothing clicks."""
    samples = int(RATE * NOTE_SECONDS)
    t = np.arange(samples) / RATE
    envelope = np.minimum(1.0, np.minimum(t, t[::-1]) / 0.01)
    sounds = [np.sin(2 * np.pi * f * t) * envelope for f in notes]
    return (np.concatenate(sounds) * VOLUME).astype(np.float32)


def _nothing() -> None:
    pass


def play(notes: Notes, then: Callable[[], None] = _nothing) -> None:
    """Play the notes on a thread of their own; `then` is called there once they have been played (or could not
    be)."""
    threading.Thread(target=_play, args=(tone(notes), then), name="murmur-cue", daemon=True).start()


def wait(timeout: float) -> bool:
    """Let the cue being played end (at quit: its stream closed before PortAudio's teardown); False if it was
    still playing after `timeout` seconds."""
    if not _playing.acquire(timeout=timeout):
        return False
    _playing.release()
    return True


def _play(samples: "np.ndarray[tuple[int], np.dtype[np.float32]]", then: Callable[[], None]) -> None:
    try:
        import sounddevice

        with _playing:
            sounddevice.play(samples, RATE, blocking=True)
    except Exception as error:  # no PortAudio, no output device: a cue is never worth an error
        log.info("audio cue not played: %r", error)
    finally:
        then()
