"""`murmur play`, `murmur forget-audio` and `murmur retry --rehear` as a user types them, on a database where a
dictated utterance waits in the inbox with its recording (real speech from flite)."""

from pathlib import Path

import pytest

from app.domain.enums import UtteranceSource
from app.service import MurmurService
from app.speech_in.wavfile import read_audio
from tests.support.murmur_cli import Murmur


@pytest.fixture
def cli(db_path: Path, tmp_path: Path) -> Murmur:
    return Murmur(db_path, tmp_path)


def waiting(service: MurmurService, speech: bytes) -> int:
    """What was said, misheard as words that change nothing: it waits in the inbox, its recording kept."""
    said = service.submit("eggs are done", UtteranceSource.VOICE, audio=speech)
    assert not said.applied
    return said.utterance_id


def test_play_writes_the_recording_and_forget_audio_takes_it_until_undo(
    cli: Murmur, service: MurmurService, speech: bytes, tmp_path: Path
) -> None:
    said = waiting(service, speech)
    assert f"(murmur retry {said}, or murmur dismiss {said}; murmur play {said})" in cli.run("inbox").stdout
    out = tmp_path / "again.wav"
    done = cli.run("play", str(said), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert read_audio(out).pcm == speech
    assert cli.run("play", str(said), "--out", str(out)).returncode != 0  # there already: --force replaces it

    forgot = cli.run("forget-audio", str(said))
    assert forgot.returncode == 0 and "Forgot 1 recording" in forgot.stdout
    refused = cli.run("play", str(said), "--out", str(tmp_path / "gone.wav"))
    assert refused.returncode != 0
    assert f"the recording of utterance {said} was forgotten" in refused.stderr and "murmur history" in refused.stderr

    undone = cli.run("undo")
    assert undone.returncode == 0 and "the recording of “eggs are done” is kept again" in undone.stdout, undone.stdout
    assert cli.run("play", str(said), "--out", str(out), "--force").returncode == 0
    assert read_audio(out).pcm == speech
    forgotten = cli.json("forget-audio", "--all")
    [trashed] = service.recordings.trash.glob("*.flac")
    assert forgotten == {"forgotten": 1, "bytes": trashed.stat().st_size, "undo_id": 2}


def test_a_typed_utterance_has_nothing_to_play(cli: Murmur, service: MurmurService, tmp_path: Path) -> None:
    said = service.submit("eggs are done", UtteranceSource.CLI).utterance_id
    assert f"(murmur retry {said}, or murmur dismiss {said})" in cli.run("inbox").stdout
    refused = cli.run("play", str(said), "--out", str(tmp_path / "x.wav"))
    assert refused.returncode != 0 and "has no recording" in refused.stderr


def test_forget_audio_needs_to_be_told_which(cli: Murmur) -> None:
    assert cli.run("forget-audio").returncode == 2


def test_engine_goes_with_rehear(cli: Murmur, service: MurmurService, speech: bytes) -> None:
    said = waiting(service, speech)
    refused = cli.run("retry", str(said), "--engine", "whisper", "--offline")
    assert refused.returncode != 0 and "add --rehear" in refused.stderr


def test_undo_after_the_trash_was_emptied_says_the_sound_is_gone(
    cli: Murmur, service: MurmurService, speech: bytes, tmp_path: Path
) -> None:
    said = waiting(service, speech)
    assert cli.run("forget-audio", str(said)).returncode == 0
    for sound in service.recordings.trash.glob("*.flac"):
        sound.unlink()  # what the housekeeping does to a sound forgotten long enough ago
    undone = cli.run("undo")
    assert "kept again" not in undone.stdout and "1 left as it is (its sound was emptied from the trash since)" in (
        undone.stdout
    )
    refused = cli.run("play", str(said), "--out", str(tmp_path / "gone.wav"))
    assert refused.returncode != 0 and "removed by the retention settings" in refused.stderr
