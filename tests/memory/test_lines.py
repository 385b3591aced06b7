"""The model reads each entry on one line; a list's items follow it with whether each is ticked."""

from app.domain.checklist import ChecklistItem, dump_items
from app.domain.enums import Category
from app.memory.context import assemble_entries
from app.store import Store
from app.store.models import Entry
from tests.support.clock import FIXED_CLOCK

NOW, TZ = FIXED_CLOCK.now, FIXED_CLOCK.tz


def test_the_context_shows_items_stored_and_read_from_a_summary(store: Store) -> None:
    ticked = dump_items([ChecklistItem("passport"), ChecklistItem("charger", done=True)])
    with store.write() as session:
        for summary, items in (("Packing list", ticked), ("Buy eggs and bread", None), ("Call the plumber", None)):
            session.add(Entry(content=summary, summary=summary, category=Category.LIST, source_text="x", items=items))
    with store.read() as session:
        lines = assemble_entries(session, NOW, TZ, "I packed the passport", budget=1500).lines
    assert sorted(line.split('"', 1)[1] for line in lines) == [
        'Buy eggs and bread" items: [ ] eggs; [ ] bread',
        'Call the plumber"',
        'Packing list" items: [ ] passport; [x] charger',
    ]
