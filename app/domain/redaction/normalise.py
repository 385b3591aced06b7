"""Pasted and typed text folded to the forms the detectors know, with the way back to the original offsets.

People paste card numbers from PDFs and web pages (no-break or thin spaces between the groups), type them
with an IME (full-width digits) or in their own script's digits (Arabic-Indic, Devanagari, ...), copy keys
that carry a zero-width space, and write groups apart with dots, underscores or slashes. Each character is
folded with Unicode NFKC (full-width digits become ASCII, every kind of space a plain one), any script's digits
become ASCII ones, zero-width and soft-hyphen characters are dropped, and a run of digit groups
with 13 digits or more (a card's length) parted by one of "._/" gets spaces instead, so a date such as
"2026.11.26" or a version "3.14.1" is left as it is. The detectors read the folded text; `origin` maps each
of its characters back, so the original text is what gets its placeholders.
"""

import re
import unicodedata
from dataclasses import dataclass

# Zero-width space, non-joiner, joiner, word joiner, byte order mark, soft hyphen, Mongolian vowel separator.
_INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e")
_SEPARATED_GROUPS = re.compile(
    r"(?<![\w.,/])[0-9]{2,6}(?P<sep>[._/])[0-9]{2,6}(?:(?P=sep)[0-9]{1,6}){1,6}(?![\w]|[.,/][0-9])"
)
_MIN_GROUPED_DIGITS = 13


@dataclass(frozen=True)
class Normalised:
    text: str
    origin: list[int]  # the original offset of each character of `text`, then the original's length

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original text's span for `text[start:end]` (what was dropped inside it included)."""
        return self.origin[start], self.origin[end - 1] + 1


def _fold(char: str) -> str:
    if char in _INVISIBLE:
        return ""
    if unicodedata.category(char) == "Zs":
        return " "
    if not char.isascii() and (digit := unicodedata.decimal(char, None)) is not None:
        return str(digit)  # every script's digits (Arabic-Indic, Persian, Devanagari, Bengali, ...): NFKC keeps them
    return unicodedata.normalize("NFKC", char)


def _ungroup(match: re.Match[str]) -> str:
    groups = match.group()
    if sum(char.isdigit() for char in groups) < _MIN_GROUPED_DIGITS:
        return groups
    return groups.replace(match.group("sep"), " ")


def normalise(text: str) -> Normalised:
    chars: list[str] = []
    origin: list[int] = []
    for position, char in enumerate(text):
        folded = _fold(char)
        chars.append(folded)
        origin.extend([position] * len(folded))
    origin.append(len(text))
    # Same length in and out: the separators become spaces one for one, so `origin` still holds.
    return Normalised(_SEPARATED_GROUPS.sub(_ungroup, "".join(chars)), origin)
