"""Renaming an entry (its summary set by hand) puts the new words in its text too, and the history tells the
creation under the name it had then and the rename as a change of its own, each undoable."""

import pytest

from app.changes.renaming import renamed_content
from app.domain.clock import Clock
from app.domain.enums import Status, UtteranceSource
from app.offline import OfflineInterpreter
from app.presentation.history import action_text
from app.service import MurmurService
from app.store import Store

SAID = "call the dentits about the crown on thursday"


def renamed(store: Store, clock: Clock) -> tuple[MurmurService, str]:
    service = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)
    service.submit(SAID, UtteranceSource.TYPED)
    [entry] = service.entries([Status.ACTIVE])
    assert (entry.summary, entry.content) == (
        "Call the dentits about the crown",
        "Call the dentits about the crown on thursday",
    )
    service.edit([entry.id], {"summary": "Call the dentist about the crown"})
    return service, entry.id


def history_lines(service: MurmurService) -> list[str]:
    names = {entry.id: entry.summary for entry in service.entries(list(Status))}
    clock = service.clock()
    items = [item for batch in reversed(service.history()) for item in batch.items]
    return [action_text(item, names, clock.now, clock.tz) for item in items]


def test_a_rename_changes_the_words_of_the_text_the_old_name_said(store: Store, clock: Clock) -> None:
    service, entry_id = renamed(store, clock)
    [entry] = service.entries_with_ids([entry_id])
    assert entry.summary == "Call the dentist about the crown"
    assert entry.content == "Call the dentist about the crown on thursday"  # the rest of the text kept


def test_a_long_text_shown_cut_short_is_renamed_where_it_was_cut(store: Store, clock: Clock) -> None:
    service = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)
    service.submit("buy milk", UtteranceSource.TYPED)
    [entry] = service.entries([Status.ACTIVE])
    long_text = "Ask the dentits whether the crown needs a week or two to set before I eat nuts"
    service.edit([entry.id], {"content": long_text, "summary": "Ask the dentits whether the crown needs a week or…"})
    service.edit([entry.id], {"summary": "Ask the dentist whether the crown needs a week or…"})
    [after] = service.entries_with_ids([entry.id])
    assert after.content == long_text.replace("dentits", "dentist")


def test_text_that_never_said_the_name_is_kept(store: Store, clock: Clock) -> None:
    service = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)
    service.submit("buy milk", UtteranceSource.TYPED)
    [entry] = service.entries([Status.ACTIVE])
    service.edit([entry.id], {"content": "Two litres, the organic one"})
    service.edit([entry.id], {"summary": "Buy oat milk"})
    [after] = service.entries_with_ids([entry.id])
    assert (after.summary, after.content) == ("Buy oat milk", "Two litres, the organic one")


def test_text_given_with_the_name_is_kept_as_given(store: Store, clock: Clock) -> None:
    service = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)
    service.submit("buy milk", UtteranceSource.TYPED)
    [entry] = service.entries([Status.ACTIVE])
    service.edit([entry.id], {"summary": "Buy oat milk", "content": "Oat milk, two litres"})
    [after] = service.entries_with_ids([entry.id])
    assert (after.summary, after.content) == ("Buy oat milk", "Oat milk, two litres")


def test_the_history_tells_the_creation_then_the_rename(store: Store, clock: Clock) -> None:
    service, _ = renamed(store, clock)
    assert history_lines(service) == [
        "Created “Call the dentits about the crown”",
        "Renamed “Call the dentits about the crown” to “Call the dentist about the crown”",
    ]


def test_the_rename_and_the_creation_are_each_undone(store: Store, clock: Clock) -> None:
    service, entry_id = renamed(store, clock)
    service.undo()
    [entry] = service.entries_with_ids([entry_id])
    assert entry.summary == "Call the dentits about the crown"
    assert entry.content == "Call the dentits about the crown on thursday"
    service.undo()
    assert service.entries_with_ids([entry_id]) == []


@pytest.mark.parametrize(
    ("content", "old", "new", "renamed"),
    [
        ("Call the dentits thursday", "Call the dentits", "Call the dentist", "Call the dentist thursday"),
        ("Note: call the  dentits\nsoon", "Call the dentits", "Call the dentist", "Note: call the dentist\nsoon"),
        ("Buy milkshake powder", "Buy milk", "Buy oat milk", "Buy milkshake powder"),  # whole words only
        ("Buy milk. Buy milk again", "Buy milk", "Buy oat milk", "Buy oat milk. Buy milk again"),  # once
        ("Two litres, the organic one", "Buy milk", "Buy oat milk", "Two litres, the organic one"),
    ],
)
def test_the_words_the_name_showed_are_put_right_where_they_are(content: str, old: str, new: str, renamed: str) -> None:
    assert renamed_content(content, old, new) == renamed
