"""Changes to the user's vocabulary in words: the vocab command's lines and the Settings page's note."""

from app.domain.verbs import PAST_TENSE
from app.presentation.names import quoted
from app.vocabulary.changes import VocabularyChanges

ALREADY_THERE = "Already there"
NOTHING_NEW = "Nothing new: every word was already there"


def change_lines(done: VocabularyChanges) -> list[str]:
    """'Added “Siobhan”', 'Edited “jay son -> JSON”', 'Already there: “Kubernetes”', one per word given."""
    lines = [f"{PAST_TENSE[change.kind].capitalize()} {quoted(change.word.text)}" for change in done.changes]
    return lines + [f"{ALREADY_THERE}: {quoted(word.text)}" for word in done.unchanged]


def change_summary(done: VocabularyChanges) -> str:
    """One line for a toast or a status label: the only change, a count, or that nothing changed."""
    if not done.changes:
        return NOTHING_NEW
    if len(done.changes) == 1:
        return change_lines(done)[0]
    return f"{PAST_TENSE[done.changes[0].kind].capitalize()} {len(done.changes)} words"


WORDS_PAGE_NOTE = (
    "Names and terms speech should expect (Siobhan, Kubernetes), and replacements put into what you dictate "
    "(jay son -> JSON). Each change is kept at once; Undo takes it back."
)
NO_WORDS = "No words yet: add a name, or a replacement of what speech writes for it."
