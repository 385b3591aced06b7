"""`murmur listen` tells the user to speak once the microphone sends sound, not when it opens: a microphone may
take seconds to start (here an idle PulseAudio sink, which the microphone records: it sends nothing for up to 2 s),
and one that sends nothing is an error that says what to do."""

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli.exits import ExitCode
from tests.support.pulse import PulseAudio, missing, private_pulseaudio

pytestmark = pytest.mark.pulse

LISTEN = [sys.executable, "-m", "app", "listen", "--device", "pulse", "--engine", "pocketsphinx", "--json"]


@pytest.fixture
def slow_microphone(tmp_path: Path) -> Iterator[PulseAudio]:
    """A private PulseAudio with nothing playing into its sink until a test plays something."""
    reason = missing()
    if reason:
        pytest.skip(reason)
    with private_pulseaudio(tmp_path, idle_sink=True) as pulse:
        yield pulse


def listen(pulse: PulseAudio, *options: str) -> "subprocess.Popen[str]":
    return subprocess.Popen(
        [*LISTEN, *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **pulse.env}
    )


def test_speak_now_comes_with_the_first_sound_and_the_seconds_count_from_it(slow_microphone: PulseAudio) -> None:
    process = listen(slow_microphone, "--seconds", "2", "--final-engine", "off")
    assert process.stderr is not None
    while "listening" not in (line := process.stderr.readline()) and line:
        pass
    assert line == "Speak now: listening for 2 s...\n"
    out, err = process.communicate(timeout=60)
    assert process.returncode in (ExitCode.OK, ExitCode.NOTHING_APPLIED), err  # nothing was said
    heard = json.loads(out)
    assert heard["audio_seconds"] >= 1.9, heard  # all the time the user was given to speak was recorded


def test_a_microphone_that_sends_no_sound_is_an_error_with_what_to_do(slow_microphone: PulseAudio) -> None:
    slow_microphone.pactl("suspend-sink", slow_microphone.sink, "1")
    started = time.monotonic()
    process = listen(slow_microphone, "--seconds", "2", "--final-engine", "off")
    out, err = process.communicate(timeout=60)
    assert process.returncode == ExitCode.SPEECH and out == "", err
    assert "Speak now" not in err
    assert (
        "murmur: error: the microphone 'pulse' sent no sound in 5 s (muted, unplugged, or held by another program?);"
        " check it, or pick another: `murmur devices` lists them"
    ) in err
    assert time.monotonic() - started < 30
