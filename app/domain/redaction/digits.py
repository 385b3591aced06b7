"""Runs of digits, written or spoken ("4242 4242", "four two, four two", "double oh seven").

Speech recognition often writes digits as words, so every number-shaped kind reads its digits from here.
"""

import re
from dataclasses import dataclass

_DIGIT_WORDS = {
    "zero": "0",
    "oh": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
}
_REPEATS = {"double": 2, "triple": 3}
_UNIT_PATTERN = rf"(?:[0-9]+|(?:(?:double|triple)[ \t]+)?(?:[0-9]|{'|'.join(_DIGIT_WORDS)})\b)"
_UNIT = re.compile(_UNIT_PATTERN, re.IGNORECASE | re.ASCII)
# Not inside a word, not the decimals of "3.14159...".
NUMBER_START = r"(?<!\w)(?<![0-9][.,])"
NUMBER_END = r"(?!\w)(?![.,][0-9])"
# Groups are joined by spaces, a dash, or a comma and a space ("four, two, four, two"), never by a newline.
RUN_REST = rf"{_UNIT_PATTERN}(?:(?:[ \t]*-[ \t]*|,?[ \t]+){_UNIT_PATTERN})*{NUMBER_END}"
RUN = re.compile(NUMBER_START + RUN_REST, re.IGNORECASE | re.ASCII)


@dataclass(frozen=True)
class Unit:
    start: int
    end: int
    digits: str
    spoken: bool


def units(text: str, run: re.Match[str]) -> list[Unit]:
    """The groups of a run, each with the digits it stands for."""
    found = []
    for match in _UNIT.finditer(text, run.start(), run.end()):
        unit = match.group().lower()
        if unit[0].isdigit():
            found.append(Unit(match.start(), match.end(), unit, spoken=False))
            continue
        *repeat, word = unit.split()
        # A word, or a written digit after "double"/"triple" ("double 4").
        digit = _DIGIT_WORDS.get(word, word) * (_REPEATS[repeat[0]] if repeat else 1)
        found.append(Unit(match.start(), match.end(), digit, spoken=True))
    return found


def digit_count(text: str, run: re.Match[str]) -> int:
    return sum(len(unit.digits) for unit in units(text, run))


def digit_prefix(run_units: list[Unit], length: int) -> list[Unit] | None:
    """The leading units that hold exactly `length` digits, if the run splits there."""
    total = 0
    for count, unit in enumerate(run_units, start=1):
        total += len(unit.digits)
        if total == length:
            return run_units[:count]
        if total > length:
            return None
    return None
