"""ID numbers: national IDs by their shape and check digit, passport and driving licence numbers by their cue.

- US SSNs with dashes (or any digit form after "social security number is"), UK National Insurance
  numbers, German tax IDs (Steuer-ID) with their check digit. US SSNs without dashes or a cue look like
  phone numbers and pass.
- Passport and driving licence numbers have no common shape, so they are caught only after "passport",
  "passport number/no", "licence", "driver's license", "driving licence number" and the like: 6-20
  letters and digits with at least two digits ("C01X00T47", "MORGA657054SM9IJ"), or a run of 6-20
  digits, written or spoken. "My passport expires in June" and dates ("passport 2030-06-14") pass.
"""

import re
from collections import Counter
from collections.abc import Iterator

from app.domain.redaction.digits import NUMBER_END, NUMBER_START, RUN, digit_count, digit_prefix, units
from app.domain.redaction.kinds import Finding, SecretKind

# ---- National IDs: shape and checksum ----

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
_STEUER_ID = re.compile(rf"(?<!\+){NUMBER_START}[1-9][0-9](?: ?[0-9]{{3}}){{3}}{NUMBER_END}", re.ASCII)


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


def national_ids(text: str) -> Iterator[Finding]:
    for match in _SSN.finditer(text):
        if _ssn_ok(match.group().replace("-", "")):
            yield Finding(SecretKind.NATIONAL_ID, match.start(), match.end())
    for cue in _SSN_CUE.finditer(text):
        run = RUN.match(text, cue.end())
        ssn = digit_prefix(units(text, run), 9) if run else None
        if ssn and _ssn_ok("".join(unit.digits for unit in ssn)):
            yield Finding(SecretKind.NATIONAL_ID, ssn[0].start, ssn[-1].end)
    for match in _NINO.finditer(text):
        yield Finding(SecretKind.NATIONAL_ID, match.start(), match.end())
    for match in _STEUER_ID.finditer(text):
        if _steuer_id_ok(match.group().replace(" ", "")):
            yield Finding(SecretKind.NATIONAL_ID, match.start(), match.end())


# ---- Passports and driving licences: only after their cue ----

_DOCUMENT_CUE = re.compile(
    r"(?<![\w\[\]-])(?:passport|(?:driver(?:'|\u2019)?s?|driving)[ \t]+licen[cs]e|licen[cs]e)"
    r"(?:[ \t]+(?:number|no\.?|num|id|#))?"
    r"(?:[ \t]+(?:is|was)(?:[ \t]*:)?|'s|\u2019s|[ \t]*[:#=])?[ \t]*",
    re.IGNORECASE,
)
_DOCUMENT_NUMBER = re.compile(r"[A-Za-z0-9]{1,20}(?:-[A-Za-z0-9]{1,20}){0,4}(?![\w-])", re.ASCII)
_DATE = re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}|[0-9]{1,2}-[0-9]{1,2}-[0-9]{2,4}", re.ASCII)
_MIN_DOCUMENT, _MAX_DOCUMENT = 6, 20


def _document_number(text: str, start: int) -> tuple[int, int] | None:
    run = RUN.match(text, start)
    if run and _MIN_DOCUMENT <= digit_count(text, run) <= _MAX_DOCUMENT and not _DATE.fullmatch(run.group()):
        return run.span()
    number = _DOCUMENT_NUMBER.match(text, start)
    if not number or _DATE.fullmatch(number.group()):
        return None
    compact = number.group().replace("-", "")
    if _MIN_DOCUMENT <= len(compact) <= _MAX_DOCUMENT and sum(char.isdigit() for char in compact) >= 2:
        return number.span()
    return None


def documents(text: str) -> Iterator[Finding]:
    for cue in _DOCUMENT_CUE.finditer(text):
        span = _document_number(text, cue.end())
        if span:
            yield Finding(SecretKind.NATIONAL_ID, *span)
