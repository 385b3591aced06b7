"""After a change of the app's own, the window's list reads again only the entries the change touched, and
reads them all when someone else changed entries meanwhile; either way the list equals a full read. Real SQLite
file, the offline rules, the system clock (entries made in the same instant would be listed in either order)."""

from pathlib import Path

from app.assembly import build_service
from app.config import Settings
from app.domain.enums import Status, UtteranceSource
from app.domain.events import ignore_events
from app.run.run import Run
from app.service import MurmurService
from app.store.queries import short_id_among, short_ids_after
from app.ui.jobs import EditJob, EntrySnapshot, ShownEntries, UndoJob, UtteranceJob, load_entries


def service_at(db_path: Path) -> MurmurService:
    return build_service(db_path, Settings(), offline=True)


def listed(shown: ShownEntries, service: MurmurService) -> dict[str, str]:
    """What the list shows after the read, which equals what a full read would show."""
    snapshot = shown.read(service)
    assert layout(snapshot) == layout(load_entries(service))
    return {entry.id: entry.summary for entry in snapshot.entries}


def layout(snapshot: EntrySnapshot) -> list[tuple[str, list[tuple[str, str, str, str]]]]:
    """The list's sections and rows, as shown."""
    return [
        (section.title, [(row.id, row.short_id, row.summary, row.due) for row in rows])
        for section, rows in snapshot.groups
    ]


def test_only_the_touched_entries_are_read_again_and_the_list_equals_a_full_read(db_path: Path) -> None:
    service, shown = service_at(db_path), ShownEntries()
    for text in ("buy milk", "buy bread", "call mom"):
        service.submit(text, UtteranceSource.CLI)
    before = {entry.id: entry for entry in shown.read(service).entries}
    [milk] = [entry_id for entry_id, entry in before.items() if entry.summary == "Buy milk"]

    report = EditJob(service, lambda s: s.edit([milk], {"summary": "Buy oat milk"})).run()
    assert report.touched == (milk,)
    shown.changed(report.touched)
    snapshot = shown.read(service)
    assert layout(snapshot) == layout(load_entries(service))
    after = {entry.id: entry for entry in snapshot.entries}
    assert after[milk].summary == "Buy oat milk" and after[milk] is not before[milk]
    assert all(after[entry_id] is before[entry_id] for entry_id in before if entry_id != milk)  # not read again
    assert {e.id: e.summary for e in after.values()} == {e.id: e.summary for e in service.entries(list(Status))}
    service.close()


def test_a_run_names_the_entry_it_made_and_its_undo_takes_it_off_the_list(db_path: Path) -> None:
    service, shown = service_at(db_path), ShownEntries()
    service.submit("buy bread", UtteranceSource.CLI)
    listed(shown, service)
    report = UtteranceJob(
        service, Run(UtteranceSource.TYPED, ignore_events, text="buy milk and call mom tomorrow")
    ).run()
    assert report.created == report.touched and len(report.created) == 2 and report.run is not None
    shown.changed(report.touched)
    assert sorted(listed(shown, service).values()) == ["Buy bread", "Buy milk", "Call mom"]
    undone = UndoJob(service, lambda s: s.undo()).run()
    assert undone.touched is not None and set(undone.touched) == set(report.created)
    shown.changed(undone.touched)
    assert list(listed(shown, service).values()) == ["Buy bread"]
    service.close()


def test_a_change_by_another_process_meanwhile_is_read_too(db_path: Path) -> None:
    service, other, shown = service_at(db_path), service_at(db_path), ShownEntries()
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


def every_short_id(entry_ids: list[str]) -> dict[str, str]:
    """Each ID's short ID worked out from scratch, as the store does."""
    ids = sorted(entry_ids)
    return {
        entry_id: short_id_among(entry_id, ids[max(0, place - 1) : place] + ids[place + 1 : place + 2])
        for place, entry_id in enumerate(ids)
    }


def test_short_ids_are_made_again_around_the_entries_that_came_or_went() -> None:
    ids = ["aaaaaa01" + "0" * 24, "bbbbbb00" + "0" * 24, "cccccc00" + "0" * 24]
    shown = every_short_id(ids)
    assert set(shown.values()) == {"aaaaaa", "bbbbbb", "cccccc"}
    came = [*ids, "aaaaaa02" + "0" * 24, "bbbbbb0f" + "0" * 24]  # each shares a prefix with one listed
    assert short_ids_after(shown, came) == every_short_id(came)
    assert short_ids_after(shown, came)[ids[0]] == "aaaaaa01"
    went = [ids[0], ids[2]]
    assert short_ids_after(every_short_id(came), went) == every_short_id(went)
    assert short_ids_after(shown, ids) is shown  # nothing came or went: nothing made again
