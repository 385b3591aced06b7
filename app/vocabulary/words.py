"""One word of the vocabulary as the user gives it: a term, or a replacement of what was heard by a term."""

import re
from dataclasses import dataclass

from app.errors import UsageError

ARROW = "->"  # between a replacement's heard words and its term, in the text file and on screen
MAX_WORD_CHARS = 100  # a name or a phrase, never a sentence
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Word:
    term: str  # written the user's way: "Siobhan", "JSON"
    heard: str | None = None  # a replacement's words as an engine writes them ("jay son"); None: a plain term

    @property
    def text(self) -> str:
        """'Kubernetes', or 'jay son -> JSON' for a replacement."""
        return self.term if self.heard is None else f"{self.heard} {ARROW} {self.term}"

    @property
    def key(self) -> str:
        """What two words share when one stands for the other: a replacement's heard words, else the term,
        case and runs of spaces ignored."""
        return word_key(self.heard if self.heard is not None else self.term)


def word_key(text: str) -> str:
    return _SPACES.sub(" ", text).strip().casefold()


def clean_word(text: str) -> str:
    """`text` as it will be kept (runs of spaces made one); refuses an empty one, a long one, and one that
    would not read back from the text file (a line break, the arrow, a leading #)."""
    cleaned = _SPACES.sub(" ", text).strip()
    if not cleaned:
        raise UsageError("a word of the vocabulary cannot be empty")
    if len(cleaned) > MAX_WORD_CHARS:
        raise UsageError(f"a word of the vocabulary is a name or a short phrase: the limit is {MAX_WORD_CHARS}")
    if ARROW in cleaned or cleaned.startswith("#") or "\x00" in cleaned:
        raise UsageError(f"{cleaned!r} cannot be a word of the vocabulary: it holds {ARROW!r}, a NUL or starts with #")
    return cleaned


def term(text: str) -> Word:
    return Word(term=clean_word(text))


def replacement(heard: str, by: str) -> Word:
    """'jay son' heard, 'JSON' written; refuses one that puts back the very same words."""
    word = Word(term=clean_word(by), heard=clean_word(heard))
    if word.heard == word.term:
        raise UsageError(f"{word.heard!r} would be replaced by itself")
    return word
