"""The sounds of what was said, as the window offers them: which can be played and heard again, why the others
cannot, and the offer of a better engine for what waits in the inbox. Plain Python."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from app.api.rows import Utterance
from app.api.runs import RehearOffer
from app.api.service import MurmurService
from app.domain.enums import RecordingRemoval
from app.presentation.recordings import ALREADY_APPLIED, NO_RECORDING, no_sound_words


@dataclass(frozen=True)
class InboxSounds:
    """The inbox's recordings, read on the worker with the rest of the window's views."""

    kept: frozenset[int] = frozenset()  # the utterances whose sound is kept
    why_not: dict[int, str] = field(default_factory=dict)  # the others: why there is nothing to play
    offer: RehearOffer | None = None  # a better engine could hear the kept ones again

    def missing(self, utterance_id: int) -> str | None:
        """Why utterance `utterance_id` has no sound to play; None when it has one."""
        return None if utterance_id in self.kept else self.why_not.get(utterance_id, NO_RECORDING)


@dataclass(frozen=True)
class SoundChoice:
    """What one utterance's recording allows: the details pane's Play and Hear again."""

    recorded: bool  # it was recorded (the sound may have gone since)
    missing: str | None  # why there is no sound to play; None: it plays
    not_hearable: str | None  # why it cannot be heard again; None: it can


def why_no_sound(removals: Mapping[int, RecordingRemoval | None], utterance_id: int, max_days: int) -> str | None:
    """Why utterance `utterance_id` has no sound to play, from the service's `recording_removals`; None: it has."""
    if utterance_id in removals and removals[utterance_id] is None:
        return None
    return no_sound_words(removals.get(utterance_id), max_days)


def inbox_sounds(service: MurmurService, inbox: Sequence[Utterance]) -> InboxSounds:
    ids = [u.id for u in inbox if u.id is not None]
    removals, max_days = service.recording_removals(ids), service.retention.max_days
    why_not = {u: why for u in ids if (why := why_no_sound(removals, u, max_days)) is not None}
    kept = frozenset(u for u in ids if u not in why_not)
    return InboxSounds(kept, why_not, service.rehear_offer() if kept else None)


def sound_choice(service: MurmurService, utterance_id: int, waiting: bool) -> SoundChoice:
    """Utterance `utterance_id`'s recording, `waiting` in the inbox or not (only what waits is heard again)."""
    removals = service.recording_removals([utterance_id])
    missing = why_no_sound(removals, utterance_id, service.retention.max_days)
    return SoundChoice(utterance_id in removals, missing, None if waiting else ALREADY_APPLIED)
