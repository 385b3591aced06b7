"""What an import did and could not read, in the window's words: 'Imported 4 entries from todo.txt; line 3 skipped',
with each line it could not read and why."""

from collections.abc import Sequence
from pathlib import Path

from app.bounds.limits import MASS_CHANGE_CAP
from app.changes.imports import ImportOutcome
from app.domain.enums import Format
from app.errors import ImportWaitsForYes, Words, command
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


def import_waits_for_yes(path: Path, fmt: Format | None, added: int) -> ImportWaitsForYes:
    """'big.csv would add 26 entries at once (more than 25); nothing was changed', and the command that imports it
    anyway, with the format as it was given."""
    given = ("--format", fmt.value) if fmt is not None else ()
    yes = command(
        "import",
        str(path),
        *given,
        "--confirm",
        instead=Words("import it again and say yes"),
        phrase="go ahead with {}",
        joint=": ",
    )
    message = f"{path.name} would add {added} entries at once (more than {MASS_CHANGE_CAP}); nothing was changed"
    return ImportWaitsForYes(message, yes, added)


def import_question(name: str, added: int) -> tuple[str, str]:
    """The window's title and question before a file adds more entries at once than Murmur adds unasked."""
    return (
        f"Import {added} entries?",
        f"{name} would add {added} entries to your list at once, more than the {MASS_CHANGE_CAP} Murmur adds "
        "without asking. Import them? One undo takes them all back.",
    )
