"""What every area of the service works over: the store, the settings a run reads with, and the clock."""

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import TYPE_CHECKING

from app.bounds.limits import MASS_CHANGE_CAP
from app.changes.interpretation import Agent, Interpreter
from app.changes.spool import Spool
from app.domain.clock import Clock
from app.domain.local_calendar import personal_days
from app.memory.profile import active_memories
from app.recordings.folder import RecordingsFolder
from app.recordings.hearing import Ears
from app.recordings.retention import Retention
from app.store import Store

if TYPE_CHECKING:  # the sync's code loads at the first sync (app/service/sync.py)
    from app.sync.remote import SyncSource


@dataclass
class ServiceCore:
    """The store and the settings every area of `MurmurService` reads and writes with."""

    store: Store
    interpreter: Interpreter | Agent
    clock: Callable[[], Clock] = field(default=Clock.system)
    session_gap: timedelta = timedelta(minutes=30)  # silence that ends a session (memory.session_gap_minutes)
    fallback: Interpreter | None = None  # files what the model failed (llm.fallback = offline); None: the inbox
    # Reads what was said when the model changed nothing, to tell an answer from work it left undone.
    rules: Interpreter | None = None
    # Opens the user's task list on the sync server for one sync; None: sync is not set up.
    sync_source: "SyncSource | None" = None
    retention: Retention = field(default_factory=Retention)  # how long the sound of what was said is kept
    ears: Ears | None = None  # the speech engines that hear a kept recording again; None: none to load
    # Changes one utterance's reading makes unasked (llm.max_mutations): past it they wait for the user's yes,
    # whichever reads the words (the rules too: pasted words can name hundreds of entries).
    max_changes: int = MASS_CHANGE_CAP
    spool: Spool = field(init=False)  # what was said while another program held the database
    recordings: RecordingsFolder = field(init=False)

    def __post_init__(self) -> None:
        self.spool = Spool.beside(self.store.path)
        self.recordings = RecordingsFolder.beside(self.store.path)

    def _run_clock(self) -> Clock:
        """The clock for reading what was said: the user's calendar with the days their memories name, so
        "on my birthday" is a date once "my birthday is May 5" is remembered."""
        clock = self.clock()
        with self.store.read() as session:
            days = personal_days(m.text for m in active_memories(session))
        return replace(clock, calendar=replace(clock.calendar, personal=days)) if days else clock
