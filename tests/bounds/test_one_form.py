"""Text in any Unicode form is one text: "café" typed composed and pasted decomposed is one entry, whichever way
in (words to the rules, an assistant's create_entries), and what is stored is in the composed form."""

import unicodedata
from pathlib import Path

from app.assembly import build_service
from app.changes.held import Caps
from app.config import Settings
from app.domain.enums import Status

COMPOSED = "buy milk at the café"
DECOMPOSED = unicodedata.normalize("NFD", COMPOSED)


def test_cafe_in_either_form_is_one_entry(tmp_path: Path) -> None:
    service = build_service(tmp_path / "murmur.db", Settings(), offline=True)
    assert DECOMPOSED != COMPOSED
    assert service.submit(COMPOSED).summary == "1 created"
    assert service.submit(DECOMPOSED).summary == "Nothing changed"
    asked = [("create", {"content": DECOMPOSED, "summary": "Café crème", "category": "note"})]
    service.apply_asked(asked, "An assistant", "An assistant adds a note", Caps(confirm_over=5, max_mutations=25))
    summaries = [entry.summary for entry in service.entries([Status.ACTIVE])]
    assert sorted(summaries) == ["Buy milk at the café", "Café crème"]
    assert all(unicodedata.is_normalized("NFC", entry.content) for entry in service.entries([Status.ACTIVE]))
