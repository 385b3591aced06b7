"""Redaction: sensitive data in the user's words becomes a readable placeholder before an LLM server sees it.

`redact` finds card numbers, IBANs, API keys, tokens and cloud credentials, passwords, passphrases and
PINs, and ID numbers (national IDs, passports, driving licences), and replaces each with a placeholder the
model can still reason about ("pay the bill with [card number]"). The text usually comes from speech
recognition, so digits may be written as words ("four two ... oh"). Overlapping matches become one
placeholder that covers them all, so no piece of a secret is left behind.

It is pattern-based, one module per kind, and trades recall for fewer false positives (a redacted todo
is a broken todo); each module says what it catches and what it lets pass:
- accounts: card numbers (Luhn) and IBANs (mod 97);
- keys: API keys, tokens, AWS/GCP/Azure credentials, private key blocks, long random tokens;
- passwords: the value after a cue ("wifi password is", "PIN:", "door code", "passphrase ...");
- ids: SSNs, UK National Insurance numbers, German tax IDs, passport and driving licence numbers.
Pasted forms are folded first (normalise.py): no-break and thin spaces, full-width digits, zero-width
characters, dots, underscores or slashes between a card's groups.
Names, addresses, phone numbers, birthdays and secrets said with no cue and no shape are not caught.
"""

from collections.abc import Callable, Iterator

from app.domain.redaction.accounts import cards, ibans
from app.domain.redaction.ids import documents, national_ids
from app.domain.redaction.keys import api_keys, cloud_keys
from app.domain.redaction.kinds import PLACEHOLDERS, Finding, Redacted, SecretKind
from app.domain.redaction.normalise import normalise
from app.domain.redaction.passwords import passwords

__all__ = ["PLACEHOLDERS", "Finding", "Redacted", "SecretKind", "redact", "secret_in"]

# On equal length the earlier detector names the kind: checksummed structures before cues before entropy.
_DETECTORS: tuple[Callable[[str], Iterator[Finding]], ...] = (
    cards,
    ibans,
    national_ids,
    documents,
    api_keys,
    cloud_keys,
    passwords,
)


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
    """`text` with every secret found replaced by its placeholder, and where each one was.

    The detectors read the text folded (normalise.py: NFKC, zero-width characters dropped, separators between
    a card's groups made spaces); the findings are offsets in `text` itself."""
    folded = normalise(text)
    candidates = [(rank, finding) for rank, detect in enumerate(_DETECTORS) for finding in detect(folded.text)]
    findings = [Finding(f.kind, *folded.span(f.start, f.end)) for f in _resolve(candidates)]
    parts: list[str] = []
    position = 0
    for finding in findings:
        parts.append(text[position : finding.start])
        parts.append(PLACEHOLDERS[finding.kind])
        position = finding.end
    parts.append(text[position:])
    return Redacted("".join(parts), findings)


def secret_in(text: str) -> str | None:
    """The kind of secret `text` holds ("card number"), found or already masked by a placeholder; None if none."""
    findings = redact(text).findings
    if findings:
        return PLACEHOLDERS[findings[0].kind].strip("[]")
    return next((placeholder.strip("[]") for placeholder in PLACEHOLDERS.values() if placeholder in text), None)
