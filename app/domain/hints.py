"""What the speaker is likely to say, for the speech engines: the user's own terms, then phrases from their list."""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload


@dataclass(frozen=True)
class Hints(Sequence[str]):
    """Read as one sequence, the terms first (they matter most); an engine that can tell them apart (Whisper's
    hotwords) uses `terms` alone."""

    terms: tuple[str, ...] = ()  # the user's vocabulary: names, products, jargon, written their way
    phrases: tuple[str, ...] = ()  # what they are likely to say again: their open entries' summaries

    @property
    def _all(self) -> tuple[str, ...]:
        return (*self.terms, *self.phrases)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._all[index]

    def __len__(self) -> int:
        return len(self.terms) + len(self.phrases)

    def __iter__(self) -> Iterator[str]:
        return iter(self._all)


NO_HINTS = Hints()
