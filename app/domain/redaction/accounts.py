"""Card numbers and IBANs: structured numbers with a checksum, so a match is almost never a false one.

- Card numbers must pass the Luhn check and start with 2-6 (Visa, Mastercard, Amex, Discover, JCB,
  UnionPay, Maestro). Written in several groups, they must be laid out like a card (fours, Amex 4-6-5,
  Diners 4-6-4); spoken, or said one digit at a time, they must be the whole run of digits, so a card
  said inside a longer spoken run of digits is missed. A number right after "+" is a phone number.
- IBANs, grouped by spaces or hyphens, must pass the ISO 13616 mod-97 check; the country's own length is
  not checked.
"""

import re
from collections.abc import Iterator

from app.domain.redaction.digits import RUN, Unit, units
from app.domain.redaction.kinds import Finding, SecretKind

# ---- Card numbers ----

_CARD_MIN, _CARD_MAX = 13, 19
_IBAN_HEAD = re.compile(r"[A-Za-z]{2}[0-9]{2}[ -]$", re.ASCII)


def _luhn_ok(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _card_layout_ok(window: list[Unit], whole_run: bool) -> bool:
    sizes = [len(unit.digits) for unit in window]
    # Cards print in fours (a last group of three on 15- and 19-digit numbers), Amex 4-6-5, Diners 4-6-4.
    if len(window) == 1 or sizes in ([4, 6, 5], [4, 6, 4]):
        return True
    if all(size == 4 for size in sizes[:-1]) and sizes[-1] in (3, 4):
        return True
    # Spoken digits, or digits said one at a time, carry no grouping: only a whole run can be the card.
    return whole_run and (any(unit.spoken for unit in window) or all(size == 1 for size in sizes))


def _card_end(run_units: list[Unit], i: int) -> int | None:
    """The last group of the longest card number that starts at run_units[i], if there is one."""
    first = run_units[i]
    whole_run_fits = i == 0 and sum(len(unit.digits) for unit in run_units) <= _CARD_MAX
    # Only a long group, a group of four or a whole short run can open a card; this keeps long runs linear.
    if first.digits[0] not in "23456" or not (
        len(first.digits) >= _CARD_MIN or len(first.digits) == 4 or whole_run_fits
    ):
        return None
    best = None
    digits = ""
    for j in range(i, len(run_units)):
        digits += run_units[j].digits
        if len(digits) > _CARD_MAX:
            break
        whole_run = i == 0 and j == len(run_units) - 1
        if len(digits) >= _CARD_MIN and _card_layout_ok(run_units[i : j + 1], whole_run) and _luhn_ok(digits):
            best = j
    return best


def cards(text: str) -> Iterator[Finding]:
    for run in RUN.finditer(text):
        # Digits after "+" are a phone number's; after "DE89 " an IBAN's, valid or not.
        if run.end() - run.start() < _CARD_MIN or text[run.start() - 1 : run.start()] == "+":
            continue
        if _IBAN_HEAD.search(text, max(0, run.start() - 5), run.start()):
            continue
        run_units = units(text, run)
        i = 0
        while i < len(run_units):
            end = _card_end(run_units, i)
            if end is None:
                i += 1
            else:
                # The rest of the run may hold another card.
                yield Finding(SecretKind.CARD, run_units[i].start, run_units[end].end)
                i = end + 1


# ---- IBANs ----

_IBAN = re.compile(
    r"(?<![A-Za-z0-9])[A-Za-z]{2}[0-9]{2}(?:[ -]?[A-Za-z0-9]{4}){2,7}(?:[ -]?[A-Za-z0-9]{1,3})?(?![A-Za-z0-9])",
    re.ASCII,
)


def _iban_ok(compact: str) -> bool:
    if not 15 <= len(compact) <= 34:
        return False
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(char, 36)) for char in rearranged)) % 97 == 1


def ibans(text: str) -> Iterator[Finding]:
    for match in _IBAN.finditer(text):
        # A following four-letter word may have been read as a group: try shorter ends at each space or hyphen.
        gaps = [match.start() + offset for offset, char in enumerate(match.group()) if char in " -"]
        for end in [match.end(), *reversed(gaps)]:
            if _iban_ok(re.sub("[ -]", "", text[match.start() : end]).upper()):
                yield Finding(SecretKind.IBAN, match.start(), end)
                break
