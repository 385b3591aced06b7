"""Card text: the short line an entry shows in the list."""

import re

SUMMARY_MAX_WORDS = 10


def clipped(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, marked "…" where it was cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def card_summary(text: str, max_words: int = SUMMARY_MAX_WORDS) -> str:
    """At most `max_words` words, first letter capitalised, no trailing punctuation."""
    words = text.split()
    clipped = " ".join(words[:max_words])
    clipped = re.sub(r"[\s,;:.!-]+$", "", clipped)
    if len(words) > max_words:
        clipped += "…"
    return clipped[:1].upper() + clipped[1:]
