"""The sounds of what waits in the inbox, as the window shows them: which can be played and heard again, why the
others cannot, and the offer of a better engine. Plain Python, read on the worker."""

from collections.abc import Sequence
from dataclasses import dataclass, field

from app.presentation.recordings import no_sound_words
from app.service import MurmurService, RehearOffer
from app.store.models import Utterance


@dataclass(frozen=True)
class InboxSounds:
    kept: frozenset[int] = frozenset()  # the utterances whose sound is kept
    why_not: dict[int, str] = field(default_factory=dict)  # the others: why there is nothing to play
    offer: RehearOffer | None = None  # a better engine could hear the kept ones again

    def missing(self, utterance_id: int) -> str | None:
        """Why utterance `utterance_id` has no sound to play; None when it has one."""
        return None if utterance_id in self.kept else self.why_not.get(utterance_id, no_sound_words(None, 0))


def inbox_sounds(service: MurmurService, inbox: Sequence[Utterance]) -> InboxSounds:
    removals = service.recording_removals([u.id for u in inbox if u.id is not None])
    max_days = service.retention.max_days
    kept = frozenset(utterance_id for utterance_id, removed in removals.items() if removed is None)
    why_not = {
        u.id: no_sound_words(removals.get(u.id), max_days) for u in inbox if u.id is not None and u.id not in kept
    }
    return InboxSounds(kept, why_not, service.rehear_offer() if kept else None)
