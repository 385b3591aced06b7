"""How Murmur says it is unsure it heard the words at all (a whisper read past its voice detector)."""


def heard_faintly(words: str) -> str:
    """The question asked of words heard faintly, which wait for the user's yes."""
    return f"heard faintly: “{words.strip().rstrip('.!')}”. Is that what you said? Nothing was changed"
