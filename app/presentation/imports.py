"""What an import did and could not read, in the window's words: 'Imported 4 entries from todo.txt; line 3 skipped',
with each line it could not read and why."""

from collections.abc import Sequence

from app.changes.imports import ImportOutcome
from app.presentation.edits import sentence
from app.terminal import terminal_safe

_NAMED_LINES = 3  # in a one-line summary; the details list every one


def skipped_lines(lines: Sequence[int]) -> str:
    """'line 601 skipped', 'lines 601 and 902 skipped', 'lines 4, 9, 12 and 7 more skipped'; '' for none.
    Line numbers go without thousands separators: '1,004' in a list reads as two."""
    if not lines:
        return ""
    if len(lines) == 1:
        return f"line {lines[0]} skipped"
    named = [str(line) for line in lines[:_NAMED_LINES]]
    rest = len(lines) - len(named)
    listed = f"{', '.join(named)} and {rest} more" if rest else f"{', '.join(named[:-1])} and {named[-1]}"
    return f"lines {listed} skipped"


def import_title(outcome: ImportOutcome, name: str) -> str:
    """'Imported 4 entries from todo.txt; line 3 skipped': the lines skipped named, as the details may stay folded."""
    noun = "entry" if outcome.added == 1 else "entries"
    skipped = skipped_lines(outcome.skipped_lines)
    if not outcome.added and outcome.duplicates:  # "Imported 0 entries" would read as a failure
        title = f"Nothing new in {name}: {outcome.duplicates} already on your list"
    else:
        title = f"Imported {outcome.added} {noun} from {name}"
    return title + (f"; {skipped}" if skipped else "")


def import_counts(outcome: ImportOutcome) -> str:
    """'4 new; 1 already on your list, skipped'."""
    counted = [f"{outcome.added} new"]
    if outcome.duplicates:
        counted.append(f"{outcome.duplicates} already on your list, skipped")
    if outcome.utterances or outcome.memories:
        counted.append(f"{outcome.utterances} things said and {outcome.memories} memories restored")
    return "; ".join(counted)


def import_problems(outcome: ImportOutcome) -> list[str]:
    """Each line that could not be read as it was, and why: 'line 3: skipped: due:notadate is not a date (...)'."""
    return [terminal_safe(str(problem), multiline=False) for problem in outcome.problems]


def first_problem(outcome: ImportOutcome) -> str | None:
    """The first line that could not be read and why, said at once (the rest are counted): None when all were."""
    problems = import_problems(outcome)
    if not problems:
        return None
    more = f" ({len(problems) - 1} more in Details)" if len(problems) > 1 else ""
    return sentence(problems[0]) + more
