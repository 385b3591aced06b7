"""`murmur play N` through the speaker (a private PulseAudio's): what was said is heard in the room again."""

from pathlib import Path

import pytest

from app.config import Settings, SpeechSettings, save_settings
from app.domain.enums import UtteranceSource
from app.service import MurmurService
from app.speech_in.files import transcribe_file
from tests.support.murmur_cli import Murmur
from tests.support.pulse import PulseAudio, room_recording
from tests.support.speech import word_error_rate


@pytest.mark.pulse
def test_play_says_the_recording_again_on_the_speaker(
    pulse_audio: PulseAudio, service: MurmurService, speech: bytes, db_path: Path, tmp_path: Path
) -> None:
    said = service.submit("eggs are done", UtteranceSource.VOICE, audio=speech).utterance_id
    save_settings(Settings(speech=SpeechSettings(output_device=pulse_audio.device)))
    with room_recording(pulse_audio, tmp_path / "room.wav") as room:
        done = Murmur(db_path, tmp_path).run("play", str(said))
    assert done.returncode == 0, done.stderr
    heard = transcribe_file(room, SpeechSettings(engine="pocketsphinx", final_engine="live")).transcript.text
    assert word_error_rate("buy milk and bread", heard) <= 0.25, heard


def test_play_without_a_speaker_says_so(service: MurmurService, speech: bytes, db_path: Path, tmp_path: Path) -> None:
    said = service.submit("eggs are done", UtteranceSource.VOICE, audio=speech).utterance_id
    save_settings(Settings(speech=SpeechSettings(output_device="no such speaker")))
    done = Murmur(db_path, tmp_path).run("play", str(said))
    assert done.returncode != 0, done.stderr
    assert done.stderr.startswith("murmur: error: no output device named 'no such speaker'") or (
        "no speaker found" in done.stderr
    ), done.stderr
