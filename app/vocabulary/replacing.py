"""Replacements put into dictated text: whole words and phrases, matched in any case, written the user's way."""

import re
from collections.abc import Sequence

from app.vocabulary.words import Word

# Between the words of a heard phrase: spaces, or the hyphens an engine joins a name's pieces with ("TA-DHG").
_BETWEEN = r"[\s-]+"
_JOINS = re.compile(_BETWEEN)


def replaced(text: str, words: Sequence[Word]) -> str:
    """`text` with every replacement's heard words, as whole words in any case and spacing, changed to its
    term; the longest phrase wins where two overlap, and a term put in is never replaced again."""
    terms = {_heard_key(word.key): word.term for word in words if word.heard is not None}
    if not terms:
        return text
    phrases = sorted(terms, key=len, reverse=True)
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(_BETWEEN.join(map(re.escape, p.split(" "))) for p in phrases) + r")(?!\w)",
        re.IGNORECASE,
    )
    return pattern.sub(lambda match: terms[_heard_key(match.group())], text)


def _heard_key(text: str) -> str:
    """Heard words as the replacements are looked up by: one space between them, case aside."""
    return _JOINS.sub(" ", text).strip().casefold()
