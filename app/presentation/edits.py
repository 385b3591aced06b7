"""What the window says of a change it could not make ('Not saved: summary cannot be empty'), and a line of words
made a sentence."""


def not_saved(problem: str) -> str:
    """The line beside a field whose words were refused (the entry keeps what it had)."""
    return f"Not saved: {problem}"


def sentence(words: str) -> str:
    """'removed “milk”' -> 'Removed “milk”': the first letter up, the rest as it is (a name keeps its case)."""
    return words[:1].upper() + words[1:]
