"""Numbers as a speech recognizer writes them: cardinal words up to twelve, ordinal words up to thirty-first."""

import re

CARDINALS = {
    word: n for n, word in enumerate("one two three four five six seven eight nine ten eleven twelve".split(), start=1)
}

_FIRST_NINE = "first second third fourth fifth sixth seventh eighth ninth".split()
_TEENS = "tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth".split()
ORDINALS = {
    **{word: n for n, word in enumerate(_FIRST_NINE + _TEENS, start=1)},
    "twentieth": 20,
    **{f"twenty {word}": 20 + n for n, word in enumerate(_FIRST_NINE, start=1)},
    "thirtieth": 30,
    "thirty first": 31,
}

# "twenty first" may come written "twenty-first"; longest first, so "twenty first" is not read as "first".
ORDINAL_WORDS = "|".join(word.replace(" ", r"[\s-]+") for word in sorted(ORDINALS, key=len, reverse=True))


def ordinal_value(said: str) -> int | None:
    """ "fifteenth", "twenty-first", "15th" or "15" as a number; None for anything else."""
    digits = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)?", said.strip(), re.IGNORECASE)
    if digits:
        return int(digits.group(1))
    return ORDINALS.get(re.sub(r"[\s-]+", " ", said.strip().lower()))
