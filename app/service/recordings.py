"""The kept sound of each dictation: kept, pruned, played, forgotten."""

import logging
import time
from collections.abc import Collection
from datetime import timedelta
from pathlib import Path

from app.domain.enums import RecordingRemoval
from app.errors import MurmurError, StoreError, UsageError
from app.private_files import output_target
from app.recordings.kept import (
    Forgetting,
    forget_sounds,
    keep,
    kept_recordings,
    recorded_of,
    recording_file,
    removals_of,
    to_trash,
)
from app.recordings.retention import housekeeping, housekeeping_due, prune
from app.recordings.sound import read_sound, write_wav
from app.service.core import ServiceCore

log = logging.getLogger("murmur.service")


class RecordingArea(ServiceCore):
    """The recordings beside the database, as retention allows."""

    def _keep_recording(self, utterance_id: int, audio: bytes) -> None:
        """The sound with its utterance, then the oldest pruned past the limits; a sound that cannot be kept is
        logged, never a reason to lose the words."""
        if not self.retention.keep:
            return
        began = time.monotonic()
        now = self.clock().now
        try:
            with self.store.write() as session:
                keep(session, self.recordings, utterance_id, audio, now)
                prune(session, self.recordings, self.retention, now)
        except (MurmurError, OSError, RuntimeError) as error:  # soundfile's errors are RuntimeErrors
            log.warning("the recording of utterance %d was not kept: %s", utterance_id, error)
            return
        log.info("kept the recording of utterance %d in %.3f s", utterance_id, time.monotonic() - began)

    def prune_recordings(self) -> int:
        """Remove the sounds the retention settings no longer allow, oldest first; returns how many. A database
        that cannot be written now (or a folder that cannot be read) is pruned at the next start or recording."""
        now = self.clock().now
        try:
            with self.store.read() as session:
                if not housekeeping_due(session, self.recordings, self.retention, now):
                    return 0
            with self.store.write() as session:
                return housekeeping(session, self.recordings, self.retention, now)
        except (StoreError, OSError) as error:
            log.warning("cannot prune the recordings now: %s", error)
            return 0

    def recording_sound(self, utterance_id: int) -> bytes:
        """What utterance `utterance_id` sounded like (16 kHz mono int16); NoRecordingError or RecordingGoneError."""
        with self.store.read() as session:
            path = recording_file(session, self.recordings, utterance_id)
        return read_sound(path)

    def write_recording(self, utterance_id: int, path: Path, force: bool = False) -> None:
        """The recording as a WAV file at `path` (a file there is replaced only with `force`)."""
        target = output_target(path, force)
        try:
            write_wav(target, self.recording_sound(utterance_id))
        except OSError as error:
            raise UsageError(f"cannot write {path}: {error.strerror}") from None

    def forget_audio(
        self, utterance_id: int | None = None, older_than_days: float | None = None, everything: bool = False
    ) -> Forgetting:
        """Forget kept sounds (one utterance's, those older than some days, or all; the words stay): moved to the
        trash, and one undo brings them back."""
        if (utterance_id is not None) + (older_than_days is not None) + everything != 1:
            raise UsageError("forget the recording of one utterance, those older than some days, or all of them")
        now = self.clock().now
        older_than = None if older_than_days is None else now - timedelta(days=older_than_days)
        with self.store.write() as session:
            if utterance_id is not None:
                recording_file(session, self.recordings, utterance_id)  # says why there is none to forget
            forgetting = forget_sounds(session, kept_recordings(session, utterance_id, older_than), now)
        return to_trash(self.recordings, forgetting)

    def recorded(self, utterance_ids: Collection[int]) -> set[int]:
        """Those of `utterance_ids` whose recording is kept: the ones that can be played and heard again."""
        with self.store.read() as session:
            return recorded_of(session, utterance_ids)

    def recording_removals(self, utterance_ids: Collection[int]) -> dict[int, RecordingRemoval | None]:
        """Of `utterance_ids`, those recorded: None while the sound is kept, else why it went (the window says why
        there is nothing to play)."""
        with self.store.read() as session:
            return removals_of(session, utterance_ids)
