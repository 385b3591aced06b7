"""One typed run's event stream, written out: a real SQLite file, the offline rules and a fixed clock; and the
run ID `murmur add` begins with."""

from pathlib import Path

from app.assembly import build_service
from app.config import Settings
from app.domain.clock import Clock
from app.domain.enums import Status, UtteranceSource
from app.domain.events import PipelineEvent
from app.run.conductor import Stages, drive
from app.run.run import Run
from tests.support.murmur_cli import Murmur
from tests.support.run_events import reduced

TYPED_RUN = [
    ("interpret", "RunStart", ("typed",)),
    ("interpret", "TranscriptEvent", ("remind me to call the dentist thursday, and buy milk", "typed")),
    ("interpret", "ThinkingEvent", (1, "offline")),
    ("apply", "AppliedEvent", (2, 0)),
    ("apply", "RunEnd", ("2 created", 2, 0, True, ("Call the dentist", "Buy milk"))),
]


def test_a_typed_run_reports_its_stages_under_one_id(db_path: Path, clock: Clock) -> None:
    service = build_service(db_path, Settings(), offline=True)
    service.clock = lambda: clock
    events: list[PipelineEvent] = []
    said = "remind me to call the dentist thursday, and buy milk"
    run = drive(Run(UtteranceSource.TYPED, events.append, text=said), Stages(service))
    names = {entry.id: entry.summary for entry in service.entries(list(Status))}
    assert reduced(events, names.__getitem__) == TYPED_RUN
    assert run.result is not None and events == run.events
    assert events[0].run_id == run.id and run.result.touched == events[-1].touched
    service.close()


def test_murmur_add_says_its_run_id(tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "cli.db", tmp_path)
    first, second = (murmur.json("add", "buy milk") for _ in range(2))
    assert len(first["run_id"]) == 12 and first["run_id"] != second["run_id"]
