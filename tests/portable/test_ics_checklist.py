"""A list's items in an iCalendar file: written under the entry's words as the DESCRIPTION's checklist
("- [ ] eggs"), read back as items, the words apart."""

from pathlib import Path

from app.domain.checklist import ChecklistItem, load_items
from app.domain.enums import Format, Status
from app.service import MurmurService


def test_an_exported_checklist_is_imported_as_items(empty: MurmurService, tmp_path: Path) -> None:
    [made] = empty.submit("buy eggs, bread and milk").applied
    empty.tick_item(made.entry.id, "bread")
    empty.edit([made.entry.id], {"content": "From the corner shop"})
    path = tmp_path / "list.ics"
    empty.export_file(path, Format.ICS)
    assert "DESCRIPTION:From the corner shop\\n- [ ] eggs\\n- [x] bread\\n- [ ] milk" in path.read_text("utf-8")

    # An import skips what is already here (the same UID, or the same summary and due): the file's task is made new.
    path.write_text(path.read_text("utf-8").replace(made.entry.id, "other"), "utf-8")
    empty.edit([made.entry.id], {"summary": "Old groceries"})
    assert empty.import_file(path).added == 1
    [imported] = [entry for entry in empty.entries([Status.ACTIVE]) if entry.id != made.entry.id]
    assert imported.content == "From the corner shop"
    assert load_items(imported.items) == (ChecklistItem("eggs"), ChecklistItem("bread", True), ChecklistItem("milk"))
