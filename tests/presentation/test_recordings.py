"""Why an utterance has no sound to play, and the offer to hear waiting ones again, in the window's words."""

import pytest

from app.domain.enums import RecordingRemoval
from app.presentation.recordings import no_sound_words, rehear_offer_text


@pytest.mark.parametrize(
    ("removed", "words"),
    [
        (None, "No recording kept"),
        (RecordingRemoval.PRUNED, "Recording removed after 14 days"),
        (RecordingRemoval.FORGOTTEN, "Recording forgotten (undo brings it back)"),
    ],
)
def test_why_there_is_no_sound_to_play(removed: RecordingRemoval | None, words: str) -> None:
    assert no_sound_words(removed, max_days=14) == words


def test_the_offer_counts_what_waits() -> None:
    assert rehear_offer_text(1, "Whisper") == "1 waiting item can be heard again with Whisper"
    assert rehear_offer_text(3, "Whisper") == "3 waiting items can be heard again with Whisper"
