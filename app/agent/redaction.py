"""Redaction: sensitive data in the user's words becomes a readable placeholder before an LLM server sees it.

`redact` finds card numbers, IBANs, API keys and tokens, passwords and PINs, and national ID numbers, and
replaces each with a placeholder the model can still reason about ("pay the bill with [card number]").
The text usually comes from speech recognition, so digits may be written as words ("four two ... oh").
Overlapping matches become one placeholder that covers them all, so no piece of a secret is left behind.

Choices that trade recall for fewer false positives (a redacted todo is a broken todo):
- Card numbers must pass the Luhn check and start with 2-6 (Visa, Mastercard, Amex, Discover, JCB,
  UnionPay, Maestro). Written in several groups, they must be laid out like a card (fours, Amex 4-6-5,
  Diners 4-6-4); spoken, or said one digit at a time, they must be the whole run of digits, so a card
  said inside a longer spoken run of digits is missed. A number right after "+" is a phone number.
- IBANs must pass the ISO 13616 mod-97 check; the country's own length is not checked.
- A long token (32+ characters) is a secret only if it mixes letters and digits, switches between them
  often, and has high Shannon entropy. UUIDs and plain hex strings (hashes, Murmur's own entry IDs and
  their 6-8 character short IDs) are identifiers the model may need, so they pass, unless they follow a
  cue such as "API key is" or "token:".
- Passwords are the value after a cue ("password is", "PIN:", ...): one token (without the sentence's
  closing punctuation), a quoted phrase, or a run of digits. A PIN must be digits; a few ordinary words
  after the cue ("the password is wrong") are not values.
- National IDs: US SSNs with dashes (or any digit form after "social security number is"), UK National
  Insurance numbers, German tax IDs (Steuer-ID) with their check digit. US SSNs without dashes or a cue
  look like phone numbers and pass.
"""

import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise


class SecretKind(StrEnum):
    CARD = "card"
    IBAN = "iban"
    API_KEY = "api_key"
    PASSWORD = "password"
    NATIONAL_ID = "national_id"


PLACEHOLDERS: dict[SecretKind, str] = {
    SecretKind.CARD: "[card number]",
    SecretKind.IBAN: "[IBAN]",
    SecretKind.API_KEY: "[API key]",
    SecretKind.PASSWORD: "[password]",
    SecretKind.NATIONAL_ID: "[ID number]",
}


@dataclass(frozen=True)
class Finding:
    """One secret, as offsets in the original text."""

    kind: SecretKind
    start: int
    end: int


@dataclass(frozen=True)
class Redacted:
    """The text with placeholders, and what was replaced, in order."""

    text: str
    findings: list[Finding]

    @property
    def changed(self) -> bool:
        return bool(self.findings)


# ---- Runs of digits, written or spoken ("4242 4242", "four two, four two", "double oh seven") ----

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
_NUMBER_START = r"(?<!\w)(?<![0-9][.,])"
_NUMBER_END = r"(?!\w)(?![.,][0-9])"
# Groups are joined by spaces, a dash, or a comma and a space ("four, two, four, two"), never by a newline.
_RUN_REST = rf"{_UNIT_PATTERN}(?:(?:[ \t]*-[ \t]*|,?[ \t]+){_UNIT_PATTERN})*{_NUMBER_END}"
_RUN = re.compile(_NUMBER_START + _RUN_REST, re.IGNORECASE | re.ASCII)


@dataclass(frozen=True)
class _Unit:
    start: int
    end: int
    digits: str
    spoken: bool


def _units(text: str, run: re.Match[str]) -> list[_Unit]:
    units = []
    for match in _UNIT.finditer(text, run.start(), run.end()):
        unit = match.group().lower()
        if unit[0].isdigit():
            units.append(_Unit(match.start(), match.end(), unit, spoken=False))
            continue
        *repeat, word = unit.split()
        # A word, or a written digit after "double"/"triple" ("double 4").
        digit = _DIGIT_WORDS.get(word, word) * (_REPEATS[repeat[0]] if repeat else 1)
        units.append(_Unit(match.start(), match.end(), digit, spoken=True))
    return units


def _digit_prefix(units: list[_Unit], length: int) -> list[_Unit] | None:
    """The leading units that hold exactly `length` digits, if the run splits there."""
    total = 0
    for count, unit in enumerate(units, start=1):
        total += len(unit.digits)
        if total == length:
            return units[:count]
        if total > length:
            return None
    return None


# ---- Checksums ----


def _luhn_ok(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _iban_ok(compact: str) -> bool:
    if not 15 <= len(compact) <= 34:
        return False
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(char, 36)) for char in rearranged)) % 97 == 1


def _ssn_ok(digits: str) -> bool:
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def _steuer_id_ok(digits: str) -> bool:
    # In the first ten digits exactly one digit repeats (twice or three times); the last is ISO 7064 MOD 11,10.
    repeated = [count for count in Counter(digits[:10]).values() if count > 1]
    if digits[0] == "0" or len(repeated) != 1 or repeated[0] > 3:
        return False
    product = 10
    for char in digits[:10]:
        total = (int(char) + product) % 10 or 10
        product = total * 2 % 11
    return (11 - product) % 10 == int(digits[10])


# ---- Card numbers ----

_CARD_MIN, _CARD_MAX = 13, 19
_IBAN_HEAD = re.compile(r"[A-Za-z]{2}[0-9]{2} $", re.ASCII)


def _card_layout_ok(window: list[_Unit], whole_run: bool) -> bool:
    sizes = [len(unit.digits) for unit in window]
    # Cards print in fours (a last group of three on 15- and 19-digit numbers), Amex 4-6-5, Diners 4-6-4.
    if len(window) == 1 or sizes in ([4, 6, 5], [4, 6, 4]):
        return True
    if all(size == 4 for size in sizes[:-1]) and sizes[-1] in (3, 4):
        return True
    # Spoken digits, or digits said one at a time, carry no grouping: only a whole run can be the card.
    return whole_run and (any(unit.spoken for unit in window) or all(size == 1 for size in sizes))


def _card_end(units: list[_Unit], i: int) -> int | None:
    """The last group of the longest card number that starts at units[i], if there is one."""
    first = units[i]
    whole_run_fits = i == 0 and sum(len(unit.digits) for unit in units) <= _CARD_MAX
    # Only a long group, a group of four or a whole short run can open a card; this keeps long runs linear.
    if first.digits[0] not in "23456" or not (
        len(first.digits) >= _CARD_MIN or len(first.digits) == 4 or whole_run_fits
    ):
        return None
    best = None
    digits = ""
    for j in range(i, len(units)):
        digits += units[j].digits
        if len(digits) > _CARD_MAX:
            break
        whole_run = i == 0 and j == len(units) - 1
        if len(digits) >= _CARD_MIN and _card_layout_ok(units[i : j + 1], whole_run) and _luhn_ok(digits):
            best = j
    return best


def _cards(text: str) -> Iterator[Finding]:
    for run in _RUN.finditer(text):
        # Digits after "+" are a phone number's; after "DE89 " an IBAN's, valid or not.
        if run.end() - run.start() < _CARD_MIN or text[run.start() - 1 : run.start()] == "+":
            continue
        if _IBAN_HEAD.search(text, max(0, run.start() - 5), run.start()):
            continue
        units = _units(text, run)
        i = 0
        while i < len(units):
            end = _card_end(units, i)
            if end is None:
                i += 1
            else:
                # The rest of the run may hold another card.
                yield Finding(SecretKind.CARD, units[i].start, units[end].end)
                i = end + 1


# ---- IBANs ----

_IBAN = re.compile(
    r"(?<![A-Za-z0-9])[A-Za-z]{2}[0-9]{2}(?: ?[A-Za-z0-9]{4}){2,7}(?: ?[A-Za-z0-9]{1,3})?(?![A-Za-z0-9])", re.ASCII
)


def _ibans(text: str) -> Iterator[Finding]:
    for match in _IBAN.finditer(text):
        # A following four-letter word may have been read as a group: try shorter ends at each space.
        spaces = [match.start() + offset for offset, char in enumerate(match.group()) if char == " "]
        for end in [match.end(), *reversed(spaces)]:
            if _iban_ok(text[match.start() : end].replace(" ", "").upper()):
                yield Finding(SecretKind.IBAN, match.start(), end)
                break


# ---- API keys and tokens ----

_PREFIXED_KEY = re.compile(
    r"(?<![\w-])(?:"
    r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}"
    r"|github_pat_[A-Za-z0-9_]{30,}"
    r"|xox[abprs]-[A-Za-z0-9-]{10,}"
    r"|(?:AKIA|ASIA)[A-Z0-9]{16}"
    r"|AIza[A-Za-z0-9_-]{30,}"
    r"|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"
    r"|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"
    r")(?![\w-])",
    re.ASCII,
)
_BEARER = re.compile(r"\bbearer[ \t]+(?P<value>[A-Za-z0-9._~+/-]{16,}=*)(?![\w.~+/=-])", re.IGNORECASE | re.ASCII)
# Cues never start inside or right after a placeholder ("[API key]", "[card number]password"): see _PLACEHOLDER_HEADS.
_KEY_CUE = re.compile(
    r"(?<![\[\]])\b(?:api[ _-]?key|secret[ _-]?access[ _-]?key|(?:secret|access)[ _-]?key(?:[ _-]?id)?"
    r"|client[ _-]?secret|secret|(?:(?:access|auth|api|bot|bearer|refresh)[ _-]?)?token)"
    r"(?:[ \t]+(?:is|was)|'s|\u2019s|[ \t]*[:=])[ \t]*",
    re.IGNORECASE | re.ASCII,
)
# Bounded, so that a cue repeated without spaces ("token=token=...") stays linear; longer is not a key.
_KEY_VALUE = re.compile(r"[A-Za-z0-9._~+/=-]{1,512}(?![A-Za-z0-9._~+/=-])", re.ASCII)
_LONG_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])", re.ASCII)
_HEX_ID = re.compile(r"[0-9a-fA-F-]+", re.ASCII)
_MIN_CUED_KEY = 12
_MIN_SWITCHES = 3  # letter-digit changes: random tokens have many, "release_2026_final" has none
_MIN_ENTROPY = 3.5  # bits per character; random base62 of 32 characters has about 4.5, base36 about 4.3


def _has_letter_and_digit(value: str) -> bool:
    return any(char.isdigit() for char in value) and any(char.isalpha() for char in value)


def _entropy(value: str) -> float:
    return -sum(count / len(value) * math.log2(count / len(value)) for count in Counter(value).values())


def _looks_random(token: str) -> bool:
    if _HEX_ID.fullmatch(token) or not _has_letter_and_digit(token):
        return False
    switches = sum(1 for a, b in pairwise(token) if a.isalnum() and b.isalnum() and a.isdigit() != b.isdigit())
    return switches >= _MIN_SWITCHES and _entropy(token) >= _MIN_ENTROPY


def _api_keys(text: str) -> Iterator[Finding]:
    for match in _PREFIXED_KEY.finditer(text):
        # Real keys are random and hold digits; "sk-learn-is-a-python-library" is prose.
        if any(char.isdigit() for char in match.group()):
            yield Finding(SecretKind.API_KEY, match.start(), match.end())
    for match in _BEARER.finditer(text):
        if _has_letter_and_digit(match.group("value")):
            yield Finding(SecretKind.API_KEY, match.start("value"), match.end("value"))
    for match in _KEY_CUE.finditer(text):
        value = _KEY_VALUE.match(text, match.end())
        if value:
            end = value.start() + len(value.group().rstrip("."))
            if end - value.start() >= _MIN_CUED_KEY and _has_letter_and_digit(text[value.start() : end]):
                yield Finding(SecretKind.API_KEY, value.start(), end)
    for match in _LONG_TOKEN.finditer(text):
        if _looks_random(match.group()):
            yield Finding(SecretKind.API_KEY, match.start(), match.end())


# ---- Passwords and PINs ----

_PASSWORD_CUE = re.compile(
    r"(?<![\[\]])\b(?:(?P<pin>pin(?:[ \t]+(?:code|number))?)|pass(?:word|code|phrase)|pass[ \t]+phrase|pwd?)"
    r"(?:[ \t]+for[ \t]+(?:the[ \t]+|my[ \t]+)?[\w-]+(?:[ \t]+[\w-]+)?)?"  # "the password for the wifi is"
    r"(?:[ \t]+(?:is|was)|'s|\u2019s|[ \t]*[:=])(?:[ \t]+now)?[ \t]*",
    re.IGNORECASE,
)
_QUOTED = re.compile(
    r'"[^"\n]{1,100}"|\'[^\'\n]{1,100}\'|\u201c[^\u201d\n]{1,100}\u201d|\u2018[^\u2019\n]{1,100}\u2019'
)
_TOKEN = re.compile(r"\S{1,100}(?!\S)")  # bounded like _KEY_VALUE; no password is longer
_DIGITS_AFTER = re.compile(r"[ \t]+" + _RUN_REST, re.IGNORECASE | re.ASCII)
# "[card", "[IBAN", ...: a token cut at a space or a trailing bracket still shows where a placeholder is.
_PLACEHOLDER_HEADS = tuple(placeholder.split()[0].rstrip("]") for placeholder in PLACEHOLDERS.values())
_TRAILING_PUNCTUATION = ".,;:!?)]}\"'\u201d\u2019"
# Words that follow "the password is" in ordinary sentences and are not the password.
_NOT_A_PASSWORD = frozenset(
    "a an the my your his her our their its it this that same not wrong incorrect invalid correct right expired "
    "changed reset weak strong too in on at under somewhere written saved stored missing required different still "
    "also and or for to which what where".split()
)


def _password_value(text: str, start: int) -> tuple[int, int] | None:
    quoted = _QUOTED.match(text, start)
    if quoted:
        return quoted.span()
    token = _TOKEN.match(text, start)
    if not token:
        return None
    end = start + len(token.group().rstrip(_TRAILING_PUNCTUATION))
    if end == start or text[start:end].lower() in _NOT_A_PASSWORD:
        return None
    if end == token.end():
        # "hunter two": spoken digits that carry on the password.
        digits = _DIGITS_AFTER.match(text, end)
        if digits:
            end = digits.end()
    return start, end


def _passwords(text: str) -> Iterator[Finding]:
    for cue in _PASSWORD_CUE.finditer(text):
        start = cue.end()
        if cue.group("pin"):
            # A PIN is digits; "the bowling pin is broken" is not one.
            run = _RUN.match(text, start)
            if run:
                yield Finding(SecretKind.PASSWORD, start, run.end())
            continue
        span = _password_value(text, start)
        # A value holding a placeholder was redacted before: "password is [password]" stays as it is.
        if span and not any(head in text[span[0] : span[1]] for head in _PLACEHOLDER_HEADS):
            yield Finding(SecretKind.PASSWORD, *span)


# ---- National ID numbers ----

_SSN = re.compile(r"(?<![\w+-])[0-9]{3}-[0-9]{2}-[0-9]{4}(?![\w-])", re.ASCII)
_SSN_CUE = re.compile(
    r"\b(?:social[ \t]+security(?:[ \t]+(?:number|no\.?))?|ssn)(?:[ \t]+(?:is|was)|'s|\u2019s|[ \t]*[:#])?[ \t]*",
    re.IGNORECASE | re.ASCII,
)
_NINO = re.compile(
    r"(?<![A-Za-z0-9])(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]"
    r" ?[0-9]{2} ?[0-9]{2} ?[0-9]{2} ?[A-D](?![A-Za-z0-9])",
    re.IGNORECASE | re.ASCII,
)
_STEUER_ID = re.compile(rf"(?<!\+){_NUMBER_START}[1-9][0-9](?: ?[0-9]{{3}}){{3}}{_NUMBER_END}", re.ASCII)


def _national_ids(text: str) -> Iterator[Finding]:
    for match in _SSN.finditer(text):
        if _ssn_ok(match.group().replace("-", "")):
            yield Finding(SecretKind.NATIONAL_ID, match.start(), match.end())
    for cue in _SSN_CUE.finditer(text):
        run = _RUN.match(text, cue.end())
        ssn = _digit_prefix(_units(text, run), 9) if run else None
        if ssn and _ssn_ok("".join(unit.digits for unit in ssn)):
            yield Finding(SecretKind.NATIONAL_ID, ssn[0].start, ssn[-1].end)
    for match in _NINO.finditer(text):
        yield Finding(SecretKind.NATIONAL_ID, match.start(), match.end())
    for match in _STEUER_ID.finditer(text):
        if _steuer_id_ok(match.group().replace(" ", "")):
            yield Finding(SecretKind.NATIONAL_ID, match.start(), match.end())


# ---- Putting it together ----

# On equal length the earlier detector names the kind: checksummed structures before cues before entropy.
_DETECTORS: tuple[Callable[[str], Iterator[Finding]], ...] = (_cards, _ibans, _national_ids, _api_keys, _passwords)


def _resolve(candidates: list[tuple[int, Finding]]) -> list[Finding]:
    """One finding per group of overlapping candidates, covering all of them, so no part of a secret is left.

    The group takes the kind of its longest candidate; on equal length, the earlier detector's.
    """
    resolved: list[Finding] = []
    group: list[tuple[int, Finding]] = []
    group_end = 0
    for candidate in sorted(candidates, key=lambda item: item[1].start):
        if group and candidate[1].start >= group_end:
            resolved.append(_merge(group, group_end))
            group = []
        group.append(candidate)
        group_end = max(group_end, candidate[1].end)
    if group:
        resolved.append(_merge(group, group_end))
    return resolved


def _merge(group: list[tuple[int, Finding]], end: int) -> Finding:
    _, best = min(group, key=lambda item: (item[1].start - item[1].end, item[0]))
    return Finding(best.kind, group[0][1].start, end)


def redact(text: str) -> Redacted:
    """`text` with every secret found replaced by its placeholder, and where each one was."""
    findings = _resolve([(rank, finding) for rank, detect in enumerate(_DETECTORS) for finding in detect(text)])
    parts: list[str] = []
    position = 0
    for finding in findings:
        parts.append(text[position : finding.start])
        parts.append(PLACEHOLDERS[finding.kind])
        position = finding.end
    parts.append(text[position:])
    return Redacted("".join(parts), findings)
