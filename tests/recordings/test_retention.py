"""How long recordings are kept: the oldest go first, by age and by size; forgotten by hand into a trash that undo
empties back. The real service on a clock the test moves, real speech from flite."""

from pathlib import Path

import pytest
from sqlalchemy import text

from app.cli.output import cli_line
from app.domain.enums import UtteranceSource
from app.errors import RecordingGoneError, UsageError
from app.recordings.retention import Retention
from app.service import MurmurService
from app.ui.remedies import window_line
from tests.recordings.conftest import MovingClock


def say(service: MurmurService, speech: bytes) -> int:
    return service.submit("buy milk and bread", UtteranceSource.VOICE, audio=speech).utterance_id


def kept(service: MurmurService) -> list[Path]:
    return sorted(service.recordings.path.glob("*.flac"))


def test_recordings_older_than_the_limit_go_at_the_next_recording(
    service: MurmurService, speech: bytes, moving_clock: MovingClock
) -> None:
    service.retention = Retention(max_days=30)
    first = say(service, speech)
    moving_clock.advance(29)
    second = say(service, speech)
    assert len(kept(service)) == 2
    moving_clock.advance(2)  # the first is 31 days old now
    third = say(service, speech)
    assert len(kept(service)) == 2
    with pytest.raises(RecordingGoneError, match="removed by the retention settings") as gone:
        service.recording_sound(first)
    assert cli_line(gone.value).endswith("keep them longer with `murmur config set recordings.max_days DAYS`")
    assert window_line(gone.value).endswith("recordings.max_days in the settings file keeps them longer")
    assert service.recording_sound(second) == service.recording_sound(third) == speech


def test_recordings_over_the_size_limit_go_oldest_first(service: MurmurService, speech: bytes) -> None:
    first = say(service, speech)
    size = kept(service)[0].stat().st_size
    service.retention = Retention(max_bytes=2 * size)
    second, third = say(service, speech), say(service, speech)
    assert len(kept(service)) == 2
    with pytest.raises(RecordingGoneError):
        service.recording_sound(first)
    assert service.recording_sound(second) == service.recording_sound(third) == speech


def test_a_start_prunes_what_the_settings_no_longer_allow(
    service: MurmurService, speech: bytes, moving_clock: MovingClock
) -> None:
    say(service, speech)
    moving_clock.advance(8)
    service.retention = Retention(max_days=7)
    assert service.prune_recordings() == 1 and kept(service) == []


def test_forgotten_audio_goes_to_the_trash_and_undo_brings_it_back(service: MurmurService, speech: bytes) -> None:
    first, second = say(service, speech), say(service, speech)
    forgotten = service.forget_audio(first)
    assert forgotten.count == 1 and len(kept(service)) == 1
    with pytest.raises(RecordingGoneError, match="was forgotten"):
        service.recording_sound(first)
    [batch, *_] = service.history()
    assert batch.batch.label == 'forgot the sound of "buy milk and bread"'
    service.undo()
    assert len(kept(service)) == 2 and service.recording_sound(first) == speech
    assert service.forget_audio(everything=True).count == 2
    assert kept(service) == []
    with pytest.raises(RecordingGoneError):
        service.recording_sound(second)


def test_forgetting_by_age_keeps_the_newer_ones(
    service: MurmurService, speech: bytes, moving_clock: MovingClock
) -> None:
    old = say(service, speech)
    moving_clock.advance(3)
    new = say(service, speech)
    assert service.forget_audio(older_than_days=2).count == 1
    with pytest.raises(RecordingGoneError):
        service.recording_sound(old)
    assert service.recording_sound(new) == speech


def test_forgetting_asks_for_one_choice(service: MurmurService) -> None:
    with pytest.raises(UsageError, match="one utterance"):
        service.forget_audio()
    with pytest.raises(UsageError, match="one utterance"):
        service.forget_audio(1, everything=True)


def test_the_trash_is_emptied_after_a_week(service: MurmurService, speech: bytes, moving_clock: MovingClock) -> None:
    first = say(service, speech)
    service.forget_audio(first)
    assert len(list(service.recordings.trash.glob("*.flac"))) == 1
    moving_clock.advance(8)
    service.prune_recordings()
    assert list(service.recordings.trash.glob("*.flac")) == []


def test_a_start_with_nothing_to_prune_writes_nothing(service: MurmurService, speech: bytes) -> None:
    say(service, speech)
    service.changed_since_last_look()
    assert service.prune_recordings() == 0
    assert not service.changed_since_last_look()


def test_a_sound_file_no_row_names_is_swept(service: MurmurService, speech: bytes) -> None:
    say(service, speech)
    stray = service.recordings.path / "7-0123456789ab.flac"  # named as Murmur names them, its row never committed
    stray.write_bytes(b"fLaC")
    assert service.prune_recordings() == 0
    assert not stray.exists() and len(kept(service)) == 1


def test_an_utterance_deleted_takes_its_recording_with_it(service: MurmurService, speech: bytes) -> None:
    said = say(service, speech)
    with service.store.write() as session:
        session.execute(text("DELETE FROM utterances WHERE id = :id"), {"id": said})
    assert service.prune_recordings() == 0  # its row went with it (ON DELETE CASCADE); the file is swept
    assert kept(service) == []


def test_a_forgetting_undone_after_the_trash_was_emptied_says_the_sound_is_gone(
    service: MurmurService, speech: bytes, moving_clock: MovingClock
) -> None:
    said = say(service, speech)
    service.forget_audio(said)
    moving_clock.advance(8)
    service.prune_recordings()  # the trash emptied
    service.undo()
    with pytest.raises(RecordingGoneError, match="removed by the retention settings"):
        service.recording_sound(said)
    assert service.prune_recordings() == 0
    service.changed_since_last_look()
    service.prune_recordings()  # the row says the sound is gone: nothing is left to do at the next start
    assert not service.changed_since_last_look()
