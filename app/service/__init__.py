"""The application service as a package, one module per area, so `from app.service import MurmurService` stays the
one import of every caller while each area (and its libraries) is read and loaded on its own.

The one place that writes: utterances in, actions applied, undo out. Every front end calls this. Every write is one
transaction through `Store.write()`; the utterance text is committed before it is interpreted, so a crash or a
failing interpreter or model server never loses what the user said (it waits in the inbox, retryable). When another
program holds the database longer than the store waits, what was said goes to the spool (app/changes/spool.py) and
into the inbox at the next start or submit.
An offline utterance is two writes (each an fsync): saving it, then its changes with their undo record and its
outcome. A run holds a lease on its utterance until it ends (app/changes/runs.py): a second run of it is refused
meanwhile, and a run whose process died is reverted by the next service to start or the next run to begin, its
utterance back in the inbox as "interrupted". Reads write nothing: a snooze that has ended reads active (see
`app.store.queries.status_at`) until the next write persists it.
"""

from dataclasses import dataclass

from app.changes.interpretation import Agent
from app.service.data import DataArea, restore_database
from app.service.edits import EditArea
from app.service.memories import MemoryArea
from app.service.reads import ReadArea
from app.service.recordings import RecordingArea
from app.service.runs import RunArea
from app.service.sync import SyncArea
from app.service.utterances import PipelineResult, RehearOffer, UtteranceArea
from app.service.vocabulary import VocabularyArea

__all__ = ["MurmurService", "PipelineResult", "RehearOffer", "restore_database"]


@dataclass
class MurmurService(
    UtteranceArea, EditArea, ReadArea, DataArea, RecordingArea, SyncArea, VocabularyArea, MemoryArea, RunArea
):
    """The one object the front ends hold: every area over one store (app/service/core.py)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.recover_interrupted_runs()
        self.follow_the_zone()
        self.take_in_spooled()
        self.prune_recordings()

    def close(self) -> None:
        """Let go of the interpreter's connections and the database (the service is not used after)."""
        if isinstance(self.interpreter, Agent):
            self.interpreter.close()
        self.store.close()
