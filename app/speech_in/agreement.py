"""LocalAgreement-2 (UFAL's whisper_streaming): of two successive reads of growing audio, the words both agree on stay.

Each read is the whole open stretch decoded again from its start. A word is committed once two reads in a row
begin with the same words up to it (compared without case or punctuation: Whisper's "Milk," and "milk" are one
word); committed words are never taken back while the stretch lasts. What the latest read says beyond them is
the tentative tail, shown but liable to change.
"""

from app.speech_in.transcriber import LiveText


def spoken_form(word: str) -> str:
    """A word as compared between reads: lower case, letters and digits only."""
    return "".join(character for character in word.lower() if character.isalnum())


def agreed_length(previous: list[str], current: list[str]) -> int:
    """How many leading words two hypotheses share, compared in their spoken form."""
    count = 0
    for before, now in zip(previous, current, strict=False):
        if spoken_form(before) != spoken_form(now):
            break
        count += 1
    return count


class LocalAgreement:
    """The committed words and tentative tail of one stretch, updated with each read of it."""

    def __init__(self) -> None:
        self._committed: list[str] = []
        self._previous: list[str] = []
        self._tail: list[str] = []

    def read(self, text: str) -> LiveText:
        """Take the latest read of the stretch (its whole text) and say what is committed now."""
        current = text.split()
        agreed = agreed_length(self._previous, current)
        if agreed > len(self._committed):
            self._committed.extend(current[len(self._committed) : agreed])
        self._previous = current
        self._tail = current[len(self._committed) :]
        return self.live

    @property
    def live(self) -> LiveText:
        return LiveText(" ".join(self._committed), " ".join(self._tail))
