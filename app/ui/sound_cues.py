"""Short, quiet sounds when recording starts and stops, made at run time (no files to ship).

Played through sounddevice on its own thread; a machine without audio output simply stays silent.
One at a time: sounddevice.play closes the previous play's stream, and two threads doing that at once
abort PortAudio (the process dies), so a cue waits for the one before it.
"""

import logging
import threading

import numpy as np

log = logging.getLogger("murmur.ui.cues")

RATE = 44_100
VOLUME = 0.12
_playing = threading.Lock()


def tone(frequencies: tuple[float, ...], seconds_each: float = 0.06) -> "np.ndarray[tuple[int], np.dtype[np.float32]]":
    """Notes one after the other, each with a soft attack and release so nothing clicks."""
    samples = int(RATE * seconds_each)
    t = np.arange(samples) / RATE
    envelope = np.minimum(1.0, np.minimum(t, t[::-1]) / 0.01)
    notes = [np.sin(2 * np.pi * f * t) * envelope for f in frequencies]
    return (np.concatenate(notes) * VOLUME).astype(np.float32)


START = (660.0, 880.0)  # rising: listening
STOP = (880.0, 660.0)  # falling: got it
ANSWER = (880.0, 880.0)  # one high note, twice: your turn to answer (unlike speech, unlike the others)
ANSWER_MS = 2 * 60 + 80  # its length and a margin: the microphone opens after it


def play(frequencies: tuple[float, ...]) -> None:
    threading.Thread(target=_play, args=(tone(frequencies),), name="murmur-cue", daemon=True).start()


def wait(timeout: float) -> bool:
    """Let the cue being played end (at quit: its stream closed before PortAudio's teardown); False if it was
    still playing after `timeout` seconds."""
    if not _playing.acquire(timeout=timeout):
        return False
    _playing.release()
    return True


def _play(samples: "np.ndarray[tuple[int], np.dtype[np.float32]]") -> None:
    try:
        import sounddevice

        with _playing:
            sounddevice.play(samples, RATE, blocking=True)
    except Exception as error:  # no PortAudio, no output device: a cue is never worth an error
        log.info("audio cue not played: %r", error)
