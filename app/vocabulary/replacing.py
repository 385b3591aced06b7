"""Replacements put into dictated text: whole words and phrases, matched in any case, written the user's way."""

import re
from collections.abc import Sequence

from app.vocabulary.words import Word, word_key


def replaced(text: str, words: Sequence[Word]) -> str:
    """`text` with every replacement's heard words, as whole words in any case and spacing, changed to its
    term; the longest phrase wins where two overlap, and a term put in is never replaced again."""
    terms = {word.key: word.term for word in words if word.heard is not None}
    if not terms:
        return text
    phrases = sorted(terms, key=len, reverse=True)
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(r"\s+".join(map(re.escape, p.split(" "))) for p in phrases) + r")(?!\w)",
        re.IGNORECASE,
    )
    return pattern.sub(lambda match: terms[word_key(match.group())], text)
