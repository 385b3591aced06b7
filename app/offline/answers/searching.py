"""The entries a question's words name, open or done, down to one item of a checklist ("did I get the
sunscreen": the sunscreen of the packing list)."""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from app.domain.checklist import ChecklistItem, items_of
from app.domain.enums import Status
from app.offline.answers.words import Forms, all_forms, content_words, forms, with_slips
from app.offline.vocabulary import TASK_VERBS
from app.store.models import Entry

OPEN = (Status.ACTIVE, Status.SNOOZED)
_KEPT = (*OPEN, Status.COMPLETED)  # an archived entry was put away: no answer names it
# Verbs that say nothing of which entry: "did I get the stamps" asks about stamps, "have I got to call" about a call.


@cache
def _generic() -> frozenset[str]:
    """Every form of the verbs any task may use: they say nothing of which ("did I get ...")."""
    return frozenset().union(*(forms(w) for w in "get make do have go take put need want be see".split()))


@cache
def _task_verbs() -> frozenset[str]:
    """Every form of the task verbs, made at the first question asked, not at every start."""
    return frozenset().union(*(forms(verb) for verb in TASK_VERBS))


@dataclass(frozen=True)
class Hit:
    entry: Entry
    item: ChecklistItem | None = None  # the one item of its checklist the words name

    @property
    def done(self) -> bool:
        return self.item.done if self.item is not None else self.entry.status is Status.COMPLETED


def telling(said: Sequence[Forms]) -> list[Forms]:
    """The words that say which entry: not the verbs any entry could have."""
    return [word for word in said if not word & _generic()]


@dataclass(frozen=True)
class _Words:
    """An entry's words, and each of its checklist items' words."""

    entry: Entry
    own: frozenset[str]
    items: tuple[tuple[ChecklistItem, frozenset[str]], ...]

    @classmethod
    def of(cls, entry: Entry) -> "_Words":
        items = items_of(entry.summary, entry.items)
        own = all_forms(content_words(f"{entry.summary} {entry.content}"))
        return cls(entry, own, tuple((item, all_forms(content_words(item.text))) for item in items))

    def vocabulary(self) -> frozenset[str]:
        return self.own.union(*(words for _, words in self.items))

    def hit(self, said: Sequence[Forms], loose: bool) -> Hit | None:
        found = [word for word in said if word & self.own]
        if found and (loose or len(found) == len(said)):
            return Hit(self.entry)
        # An item is named by its own words, the rest by the entry's ("stamps" on "Post office run"); the verb
        # said to it ("did I buy the stamps") is in neither.
        for item, item_words in self.items:
            in_item = [word for word in said if word & item_words]
            if in_item and (loose or all(word in found or word in in_item or word & _task_verbs() for word in said)):
                return Hit(self.entry, item)
        return None


def search(said: Sequence[Forms], entries: Sequence[Entry], loose: bool = False, open_only: bool = False) -> list[Hit]:
    """The entries holding every telling word of `said` (`loose`: any of them), in any of its forms or spelled
    nearly alike; done ones too unless `open_only`. None when `said` has no telling word."""
    statuses = OPEN if open_only else _KEPT
    listed = [_Words.of(entry) for entry in entries if entry.status in statuses]
    vocabulary = frozenset().union(*(words.vocabulary() for words in listed))
    wanted = [with_slips(word, vocabulary) for word in telling(said)]
    if not wanted:
        return []
    hits = (words.hit(wanted, loose) for words in listed)
    return [hit for hit in hits if hit is not None]
