"""A due moved by an edit or by voice moves the words of the entry's text with it, in the list and in the
calendar's description, and one undo brings back both the due and the text."""

from app.domain.clock import Clock
from app.domain.enums import Status, UtteranceSource
from app.offline import OfflineInterpreter
from app.portable.ics import vtodo_object
from app.service import MurmurService
from app.store import Store


def called_at_seven(store: Store, clock: Clock) -> tuple[MurmurService, str]:
    service = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)
    service.submit("Call mom at 7pm", UtteranceSource.TYPED)
    [entry] = service.entries([Status.ACTIVE])
    assert (
        entry.content == "Call mom at 7pm" and entry.due_at is not None and entry.due_at.astimezone(clock.tz).hour == 19
    )
    return service, entry.id


def test_a_due_moved_by_voice_moves_the_text_and_one_undo_takes_both_back(store: Store, clock: Clock) -> None:
    service, entry_id = called_at_seven(store, clock)
    service.submit("move call mom to 8pm", UtteranceSource.TYPED)
    [entry] = service.entries_with_ids([entry_id])
    assert entry.due_at is not None and entry.due_at.astimezone(clock.tz).hour == 20
    assert entry.content == "Call mom at 8pm"
    assert "DESCRIPTION:Call mom at 8pm" in vtodo_object(entry, clock.tz, clock.now)
    service.undo()
    [entry] = service.entries_with_ids([entry_id])
    assert (
        entry.content == "Call mom at 7pm" and entry.due_at is not None and entry.due_at.astimezone(clock.tz).hour == 19
    )


def test_an_edit_of_the_due_moves_the_text_but_a_text_given_with_it_is_kept(store: Store, clock: Clock) -> None:
    service, entry_id = called_at_seven(store, clock)
    service.edit([entry_id], {"due_date": "tomorrow 9:30pm"})
    [entry] = service.entries_with_ids([entry_id])
    assert entry.content == "Call mom at 9:30pm"
    service.edit([entry_id], {"due_date": "tomorrow 6pm", "content": "Call mom after dinner at 9:30pm"})
    [entry] = service.entries_with_ids([entry_id])
    assert entry.content == "Call mom after dinner at 9:30pm"
