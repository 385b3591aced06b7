"""The vocabulary as a plain text file: one term per line, `heard -> term` for a replacement, `#` comments."""

from collections.abc import Iterable

from app.errors import UsageError
from app.vocabulary.words import ARROW, Word, replacement, term

HEADER = f"# Murmur's vocabulary: one term per line; 'heard {ARROW} written' replaces what was heard\n"


def read_words(text: str) -> list[Word]:
    """The file's words in order; a UsageError naming the first line that is not one."""
    words = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        heard, arrow, written = stripped.partition(ARROW)
        try:
            words.append(replacement(heard, written) if arrow else term(stripped))
        except UsageError as error:
            raise UsageError(f"line {number}: {error}") from None
    return words


def words_text(words: Iterable[Word]) -> str:
    """The words as the file `read_words` reads back."""
    return HEADER + "".join(f"{word.text}\n" for word in words)
