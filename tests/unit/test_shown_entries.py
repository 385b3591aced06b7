"""After a change of the app's own, the window's list reads again only the entries the change touched, and
reads them all when someone else changed entries meanwhile. Real SQLite file, the offline rules, a fixed clock."""

from pathlib import Path

from app.assembly import build_service
from app.config import Settings
from app.domain.clock import Clock
from app.domain.enums import Status, UtteranceSource
from app.domain.events import ignore_events
from app.service import MurmurService
from app.ui.jobs import EditJob, ShownEntries, UndoJob, UtteranceJob


def service_at(db_path: Path, clock: Clock) -> MurmurService:
    service = build_service(db_path, Settings(), offline=True)
    service.clock = lambda: clock
    return service


def listed(shown: ShownEntries, service: MurmurService) -> dict[str, str]:
    return {entry.id: entry.summary for entry in shown.read(service).entries}


def test_only_the_touched_entries_are_read_again_and_the_list_equals_a_full_read(db_path: Path, clock: Clock) -> None:
    service, shown = service_at(db_path, clock), ShownEntries()
    for text in ("buy milk", "buy bread", "call mom"):
        service.submit(text, UtteranceSource.CLI)
    before = {entry.id: entry for entry in shown.read(service).entries}
    [milk] = [entry_id for entry_id, entry in before.items() if entry.summary == "Buy milk"]

    report = EditJob(service, lambda s: s.edit([milk], {"summary": "Buy oat milk"})).run()
    assert report.touched == (milk,)
    shown.changed(report.touched)
    after = {entry.id: entry for entry in shown.read(service).entries}
    assert after[milk].summary == "Buy oat milk" and after[milk] is not before[milk]
    assert all(after[entry_id] is before[entry_id] for entry_id in before if entry_id != milk)  # not read again
    assert {e.id: e.summary for e in after.values()} == {e.id: e.summary for e in service.entries(list(Status))}
    service.close()


def test_a_run_names_the_entry_it_made_and_its_undo_takes_it_off_the_list(db_path: Path, clock: Clock) -> None:
    service, shown = service_at(db_path, clock), ShownEntries()
    service.submit("buy bread", UtteranceSource.CLI)
    listed(shown, service)
    report = UtteranceJob(service, ignore_events, "buy milk and call mom tomorrow").run()
    assert report.created == report.touched and len(report.created) == 2 and report.run_id
    shown.changed(report.touched)
    assert sorted(listed(shown, service).values()) == ["Buy bread", "Buy milk", "Call mom"]
    undone = UndoJob(service, lambda s: s.undo()).run()
    assert undone.touched is not None and set(undone.touched) == set(report.created)
    shown.changed(undone.touched)
    assert list(listed(shown, service).values()) == ["Buy bread"]
    service.close()


def test_a_change_by_another_process_meanwhile_is_read_too(db_path: Path, clock: Clock) -> None:
    service, other, shown = service_at(db_path, clock), service_at(db_path, clock), ShownEntries()
    for text in ("buy milk", "buy bread"):
        service.submit(text, UtteranceSource.CLI)
    ids = {entry.summary: entry.id for entry in shown.read(service).entries}
    other.edit([ids["Buy bread"]], {"summary": "Buy rye bread"})  # another process, between the change and the read
    other.submit("call mom", UtteranceSource.CLI)
    report = EditJob(service, lambda s: s.complete([ids["Buy milk"]])).run()
    shown.changed(report.touched)
    assert sorted(listed(shown, service).values()) == ["Buy milk", "Buy rye bread", "Call mom"]
    other.close()
    service.close()
