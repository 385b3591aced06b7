"""The recordings in words: what was forgotten, why there is no sound to play, and the offer to hear waiting
utterances again."""

from app.domain.enums import RecordingRemoval

NO_RECORDING = "No recording kept"
# Hearing again retries what waits; what was applied is taken back by its undo, and stays out of the inbox.
ALREADY_APPLIED = "Already applied: only what waits in the Inbox is heard again"


def forgotten_text(count: int, size: int) -> str:
    """'Forgot 2 recordings (61 KB); murmur undo brings them back.'"""
    if not count:
        return "No recording to forget."
    noun = "recording" if count == 1 else "recordings"
    return f"Forgot {count} {noun} ({size / 1000:.0f} KB); the words stay, and undo brings the sound back."


def rehear_offer_text(count: int, engine: str) -> str:
    """'2 waiting items can be heard again with Whisper (whisper-base)'."""
    items = "waiting item" if count == 1 else "waiting items"
    return f"{count} {items} can be heard again with {engine}"


def no_sound_words(removed: RecordingRemoval | None, max_days: int) -> str:
    """Why an utterance has no sound to play: 'Recording removed after 30 days', or none was ever kept."""
    match removed:
        case RecordingRemoval.PRUNED:
            return f"Recording removed after {max_days} days"
        case RecordingRemoval.FORGOTTEN:
            return "Recording forgotten (undo brings it back)"
        case None:
            return NO_RECORDING
