"""What a change did, in one word a kind ('created', 'forgot'): said alike by every front end, the model's tool
results and the labels the undo history keeps."""

from collections import Counter
from collections.abc import Iterable

from app.domain.actions import Action, CompleteAction
from app.domain.enums import UndoKind

PAST_TENSE = {
    UndoKind.CREATE: "created",
    UndoKind.UPDATE: "updated",
    UndoKind.COMPLETE: "completed",
    UndoKind.ARCHIVE: "archived",
    UndoKind.SNOOZE: "snoozed",
    UndoKind.REMEMBER: "remembered",
    UndoKind.FORGET: "forgot",
    UndoKind.EDIT: "edited",
    UndoKind.DISMISS: "dismissed",
    UndoKind.FORGET_AUDIO: "forgot the sound of",
    UndoKind.ADD: "added",
    UndoKind.REMOVE: "removed",
}
TICKED = "ticked"  # one item of a list done, not the entry (the last item completes it all the same)
# A count's order in a summary: what was made, changed and done first; a tick beside the completions.
_COUNTED_ORDER = (
    *(PAST_TENSE[kind] for kind in (UndoKind.CREATE, UndoKind.UPDATE, UndoKind.COMPLETE)),
    TICKED,
    *(PAST_TENSE[kind] for kind in (UndoKind.ARCHIVE, UndoKind.SNOOZE)),
)


def past_tense(action: Action) -> str:
    """What the action did, in a word: 'created', 'ticked' (an item of a list)."""
    return TICKED if isinstance(action, CompleteAction) and action.item else PAST_TENSE[UndoKind(action.kind)]


def counted_word(kind: UndoKind) -> str:
    """The word after a count ('1 forgotten'): the past participle, the past tense but for forget."""
    return "forgotten" if kind is UndoKind.FORGET else PAST_TENSE[kind]


def counted(actions: Iterable[Action]) -> str:
    """'2 created, 1 completed', in a fixed order; '' for none."""
    counts = Counter(past_tense(action) for action in actions)
    return ", ".join(f"{counts[word]} {word}" for word in _COUNTED_ORDER if counts[word])
