"""What an import could not read, in words."""

import pytest

from app.changes.imports import ImportOutcome, Problem
from app.presentation.imports import first_problem, import_counts, import_title, skipped_lines


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ([], ""),
        ([601], "line 601 skipped"),
        ([601, 1004], "lines 601 and 1004 skipped"),
        ([4, 9, 12], "lines 4, 9 and 12 skipped"),
        ([4, 9, 12, 20, 31], "lines 4, 9, 12 and 2 more skipped"),
    ],
)
def test_skipped_lines_are_counted_and_the_first_named(lines: list[int], said: str) -> None:
    assert skipped_lines(lines) == said


def test_an_import_names_the_lines_it_skipped_and_says_why_at_once() -> None:
    problems = [Problem(3, "skipped: due:notadate is not a date"), Problem(7, "priority '9' is not 1 to 5", False)]
    outcome = ImportOutcome(added=4, duplicates=1, problems=problems, undo_id=2)
    assert import_title(outcome, "todo.txt") == "Imported 4 entries from todo.txt; line 3 skipped"
    assert import_counts(outcome) == "4 new; 1 already on your list, skipped"
    assert first_problem(outcome) == "Line 3: skipped: due:notadate is not a date (1 more in Details)"
    clean = ImportOutcome(added=1, duplicates=0, problems=[], undo_id=3)
    assert (import_title(clean, "a.ics"), first_problem(clean)) == ("Imported 1 entry from a.ics", None)


def test_an_import_of_what_is_all_here_already_says_so() -> None:
    again = ImportOutcome(added=0, duplicates=24, problems=[], undo_id=None)
    assert import_title(again, "export.csv") == "Nothing new in export.csv: 24 already on your list"
