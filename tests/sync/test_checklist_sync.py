"""A list's items over sync, against a real Radicale server with the `caldav` library as the phone: they travel
as the task's DESCRIPTION checklist ("- [ ] eggs" lines, as tasks.org and Markdown notes write one), a tick on
either side reaches the other, and the rest of a description stays where it was."""

from app.domain.actions import CreateAction
from app.domain.checklist import ChecklistItem, load_items
from app.domain.enums import Category, Status
from app.service import MurmurService
from app.store.models import Entry
from tests.sync.phone import Phone
from tests.sync.test_sync import by_summary, stored

GROCERIES = ("eggs", "bread", "milk", "coffee")


def made(service: MurmurService, summary: str, items: tuple[str, ...], content: str = "") -> Entry:
    action = CreateAction(
        content=content or summary, summary=summary, category=Category.LIST, source_text=summary, items=items
    )
    return service.apply([action]).applied[0].entry


def items_of_entry(service: MurmurService, entry_id: str) -> tuple[ChecklistItem, ...]:
    entry = stored(service, entry_id)
    assert entry is not None
    return load_items(entry.items)


def description(phone: Phone, uid: str) -> str:
    return str(phone.todo(uid).get("DESCRIPTION", ""))


def test_local_items_and_ticks_reach_the_servers_description(service: MurmurService, phone: Phone) -> None:
    entry = made(service, "Groceries", GROCERIES)
    service.tick_item(entry.id, "bread")
    service.sync()
    [uid] = phone.todos()
    assert description(phone, uid) == "- [ ] eggs\n- [x] bread\n- [ ] milk\n- [ ] coffee"
    service.tick_item(entry.id, "eggs")
    service.add_items(entry.id, ["jam"])
    assert service.sync().pushed == ["updated: Groceries"]
    assert description(phone, uid) == "- [x] eggs\n- [x] bread\n- [ ] milk\n- [ ] coffee\n- [ ] jam"
    again = service.sync()
    assert again.pushed == [] and again.pulled == []  # the checklist read back is the one sent: nothing twice


def test_the_entrys_words_go_above_its_checklist(service: MurmurService, phone: Phone) -> None:
    made(service, "Packing list", ("passport", "charger"), content="For the Lisbon trip")
    service.sync()
    [uid] = phone.todos()
    assert description(phone, uid) == "For the Lisbon trip\n- [ ] passport\n- [ ] charger"


def test_a_checklist_edited_on_the_phone_comes_back_as_items(service: MurmurService, phone: Phone) -> None:
    service.sync()  # makes the task list
    uid = phone.add("Groceries")
    phone.edit(uid, description="- [ ] eggs\n- [ ] bread\n- [ ] milk")
    service.sync()
    entry = by_summary(service)["Groceries"]
    assert items_of_entry(service, entry.id) == tuple(ChecklistItem(text) for text in ("eggs", "bread", "milk"))
    assert entry.content == "Groceries"  # no words beside the checklist: the summary stands for them

    phone.edit(uid, description="- [ ] eggs\n- [x] bread\n- [ ] milk")  # ticked on the phone
    report = service.sync()
    assert report.pulled == ["updated: Groceries"] and not report.conflicts
    assert [item.done for item in items_of_entry(service, entry.id)] == [False, True, False]

    # Ticked here, the last two complete the list, and the phone sees all of it.
    service.tick_item(entry.id, "eggs")
    service.tick_item(entry.id, "milk")
    service.sync()
    todo = phone.todo(uid)
    assert str(todo["STATUS"]) == "COMPLETED"
    assert str(todo["DESCRIPTION"]) == "- [x] eggs\n- [x] bread\n- [x] milk"


def test_other_description_text_keeps_its_place_around_the_checklist(service: MurmurService, phone: Phone) -> None:
    service.sync()
    uid = phone.add("Hardware store")
    said_on_the_phone = "Open until 6\n- [ ] screws\n- [ ] wood glue\nAsk about the drill"
    phone.edit(uid, description=said_on_the_phone, location="Main Street 4")
    service.sync()
    entry = by_summary(service)["Hardware store"]
    assert entry.content == "Open until 6\nAsk about the drill"
    assert items_of_entry(service, entry.id) == (ChecklistItem("screws"), ChecklistItem("wood glue"))

    service.tick_item(entry.id, "wood glue")
    service.sync()
    assert description(phone, uid) == "Open until 6\n- [ ] screws\n- [x] wood glue\nAsk about the drill"
    assert str(phone.todo(uid)["LOCATION"]) == "Main Street 4"  # the phone's own property stays too

    # Words changed here are written whole, the checklist under them.
    service.edit([entry.id], {"content": "Open until 8"})
    service.sync()
    assert description(phone, uid) == "Open until 8\n- [ ] screws\n- [x] wood glue"


def test_a_checklist_changed_on_both_sides_keeps_the_servers_and_yours_as_a_note(
    service: MurmurService, phone: Phone
) -> None:
    entry = made(service, "Groceries", GROCERIES)
    service.sync()
    [uid] = phone.todos()
    phone.edit(uid, description="- [ ] eggs\n- [x] bread\n- [ ] milk\n- [ ] coffee")
    service.tick_item(entry.id, "eggs")
    report = service.sync()
    assert [item.done for item in items_of_entry(service, entry.id)] == [False, True, False, False]
    assert report.conflicts and "items" in report.conflicts[0]
    note = by_summary(service)["Your copy of “Groceries”"]
    assert note.category is Category.NOTE
    assert "items: \n- [x] eggs\n- [ ] bread\n- [ ] milk\n- [ ] coffee" in note.content
    assert stored(service, entry.id).status is Status.ACTIVE  # type: ignore[union-attr]


def test_a_checklist_and_another_field_changed_apart_both_stay(service: MurmurService, phone: Phone) -> None:
    entry = made(service, "Groceries", GROCERIES)
    service.sync()
    [uid] = phone.todos()
    phone.edit(uid, summary="Groceries for Sunday")
    service.tick_item(entry.id, "milk")
    report = service.sync()
    assert not report.conflicts
    assert stored(service, entry.id).summary == "Groceries for Sunday"  # type: ignore[union-attr]
    assert description(phone, uid) == "- [ ] eggs\n- [ ] bread\n- [x] milk\n- [ ] coffee"
    assert str(phone.todo(uid)["SUMMARY"]) == "Groceries for Sunday"
