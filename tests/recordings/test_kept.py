"""The sound of each dictated utterance: kept with it as FLAC, owner-only, lossless; none for what was typed; played
back as WAV. The real service (the entry point dictation submits to), real speech from flite, a real SQLite file."""

import stat
from pathlib import Path

import pytest

from app.assembly import build_service
from app.config import RecordingsSettings, Settings
from app.domain.enums import RecordingRemoval, UtteranceSource
from app.errors import NoRecordingError
from app.recordings.retention import Retention
from app.recordings.sound import read_sound
from app.service import MurmurService
from app.speech_in.wavfile import read_audio
from tests.recordings.conftest import MovingClock


def kept_files(service: MurmurService) -> list[Path]:
    return sorted(service.recordings.path.glob("*.flac"))


def test_a_dictated_utterance_keeps_its_recording_as_owner_only_flac(service: MurmurService, speech: bytes) -> None:
    result = service.submit("buy milk and bread", UtteranceSource.VOICE, audio=speech)
    [flac] = kept_files(service)
    assert flac.read_bytes()[:4] == b"fLaC"
    assert stat.S_IMODE(flac.stat().st_mode) == 0o600
    assert stat.S_IMODE(service.recordings.path.stat().st_mode) == 0o700
    assert read_sound(flac) == speech  # lossless: the same samples, so the same length
    assert flac.stat().st_size < len(speech)  # and smaller than the raw samples
    assert service.recording_sound(result.utterance_id) == speech


def test_typed_words_keep_no_recording(service: MurmurService) -> None:
    result = service.submit("buy milk and bread", UtteranceSource.TYPED)
    assert kept_files(service) == []
    with pytest.raises(NoRecordingError, match="has no recording"):
        service.recording_sound(result.utterance_id)
    with pytest.raises(NoRecordingError, match="no utterance 99"):
        service.recording_sound(99)


def test_with_recordings_off_none_is_kept(service: MurmurService, speech: bytes) -> None:
    from app.recordings.retention import Retention

    service.retention = Retention(keep=False)
    result = service.submit("buy milk and bread", UtteranceSource.VOICE, audio=speech)
    assert kept_files(service) == []
    with pytest.raises(NoRecordingError):
        service.recording_sound(result.utterance_id)


def test_a_recording_is_written_out_as_wav(service: MurmurService, speech: bytes, tmp_path: Path) -> None:
    result = service.submit("buy milk and bread", UtteranceSource.VOICE, audio=speech)
    out = tmp_path / "said.wav"
    service.write_recording(result.utterance_id, out)
    assert read_audio(out).pcm == speech


def test_the_settings_say_whether_and_how_long_recordings_are_kept(db_path: Path, speech: bytes) -> None:
    off = build_service(db_path, Settings(recordings=RecordingsSettings(keep=False)), offline=True)
    assert off.retention == Retention(keep=False, max_days=30, max_bytes=500_000_000)
    off.submit("buy milk and bread", UtteranceSource.VOICE, audio=speech)
    assert kept_files(off) == []
    off.close()
    limited = build_service(db_path, Settings(recordings=RecordingsSettings(max_days=7, max_mb=2)), offline=True)
    assert limited.retention == Retention(keep=True, max_days=7, max_bytes=2_000_000)
    limited.close()


def test_recording_removals_say_which_sounds_are_kept_and_why_the_others_went(
    service: MurmurService, speech: bytes, moving_clock: MovingClock
) -> None:
    old = service.submit("eggs are done", UtteranceSource.VOICE, audio=speech).utterance_id
    moving_clock.advance(31)
    forgotten = service.submit("socks are done", UtteranceSource.VOICE, audio=speech).utterance_id
    kept = service.submit("milk is done", UtteranceSource.VOICE, audio=speech).utterance_id  # prunes the old one
    typed = service.submit("bread is done", UtteranceSource.TYPED).utterance_id
    service.forget_audio(forgotten)
    assert service.recording_removals([old, forgotten, kept, typed]) == {
        old: RecordingRemoval.PRUNED,
        forgotten: RecordingRemoval.FORGOTTEN,
        kept: None,
    }
