"""API keys, tokens and cloud credentials.

- Keys with a vendor's prefix (OpenAI "sk-", GitHub "ghp_", Slack "xox", AWS "AKIA", Google "AIza", ...)
  are caught by shape, if they hold a digit ("sk-learn-is-a-python-library" is prose).
- Cloud secrets without a prefix: an AWS secret access key (40 characters of base64) after "secret" or
  "aws", or alone when it looks random; Azure's AccountKey=/SharedAccessKey=/sig= values and bare
  88-character storage keys; PEM private key blocks, such as the one in a GCP service account file.
- A long token (32+ characters) is a secret only if it mixes letters and digits, switches between them
  often, and has high Shannon entropy. UUIDs and plain hex strings (hashes, Murmur's own entry IDs and
  their 6-8 character short IDs) are identifiers the model may need, so they pass, unless they follow a
  cue such as "API key is" or "token:".
"""

import math
import re
from collections import Counter
from collections.abc import Iterator
from itertools import pairwise

from app.domain.redaction.kinds import Finding, SecretKind

# ---- Vendor prefixes: the shape alone says what it is ----

_PREFIXED_KEY = re.compile(
    r"(?<![\w-])(?:"
    r"sk-(?:proj-|svcacct-|admin-|ant-)?[A-Za-z0-9_-]{20,}"  # OpenAI, Anthropic
    r"|gh[pousr]_[A-Za-z0-9]{30,}"  # GitHub
    r"|github_pat_[A-Za-z0-9_]{30,}"
    r"|glpat-[A-Za-z0-9_-]{20,}"  # GitLab
    r"|xox[abeprs]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}"  # Slack
    r"|(?:AKIA|ASIA)[A-Z0-9]{16}"  # AWS access key IDs (long-lived, temporary)
    r"|AIza[A-Za-z0-9_-]{35}"  # Google API keys
    r"|ya29\.[A-Za-z0-9_-]{20,}"  # Google OAuth access tokens
    r"|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"  # Stripe
    r"|npm_[A-Za-z0-9]{30,}|pypi-[A-Za-z0-9_-]{40,}|hf_[A-Za-z0-9]{30,}"  # package registries, Hugging Face
    r"|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"  # JWTs
    r")(?![\w-])",
    re.ASCII,
)
_BEARER = re.compile(r"\bbearer[ \t]+(?P<value>[A-Za-z0-9._~+/-]{16,}=*)(?![\w.~+/=-])", re.IGNORECASE | re.ASCII)

# ---- Cues: whatever follows "API key is", "token:", "aws_secret_access_key =" ----

# Cues never start inside or right after a placeholder ("[API key]", "[card number]token"); "aws_secret" counts.
_KEY_CUE = re.compile(
    r"(?<![A-Za-z0-9\[\]])(?:aws[ _-]?)?(?:api[ _-]?key|secret[ _-]?access[ _-]?key"
    r"|(?:secret|access)[ _-]?key(?:[ _-]?id)?|private[ _-]?key[ _-]?id|client[ _-]?secret|secret"
    r"|(?:(?:access|auth|api|bot|bearer|refresh)[ _-]?)?token)"
    r"(?:[ \t]+(?:is|was)|'s|\u2019s|[\"']?[ \t]*[:=])[ \t]*[\"']?",
    re.IGNORECASE | re.ASCII,
)
# Bounded, so that a cue repeated without spaces ("token=token=...") stays linear; longer is not a key.
_KEY_VALUE = re.compile(r"[A-Za-z0-9._~+/=-]{1,512}(?![A-Za-z0-9._~+/=-])", re.ASCII)
_MIN_CUED_KEY = 12

# ---- Cloud secrets without a prefix ----

# AWS secret access keys: 40 characters of base64, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/=])", re.ASCII)
_AWS_CONTEXT = re.compile(r"(?<![A-Za-z])(?:aws|secret)", re.IGNORECASE)
_AWS_CONTEXT_CHARS = 80  # how far before the key "aws" or "secret" may be
_MIN_AWS_ENTROPY = 4.5  # random base64 of 40 characters has about 4.9; a CamelCase name about 4.3
# Azure: connection strings ("AccountKey=...;") and SAS tokens ("sig=..."); bare storage keys are 88 long.
_AZURE_VALUE = re.compile(
    r"(?<![A-Za-z0-9])(?:AccountKey|SharedAccessKey|SharedAccessSignature|sig)=(?P<value>[A-Za-z0-9+/%=_.~-]{16,512})",
    re.ASCII,
)
_AZURE_STORAGE_KEY = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{86}==(?![A-Za-z0-9+/=])", re.ASCII)
# PEM private keys, whole or cut off, with real or JSON-escaped ("\n") line breaks: GCP service account files.
_PRIVATE_KEY = re.compile(
    r"-----BEGIN[A-Z ]{0,20}PRIVATE KEY-----(?:[A-Za-z0-9+/=\s]|\\n){0,10000}(?:-----END[A-Z ]{0,20}PRIVATE KEY-----)?",
    re.ASCII,
)

# ---- Random-looking long tokens ----

_LONG_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])", re.ASCII)
_HEX_ID = re.compile(r"[0-9a-fA-F-]+", re.ASCII)
_MIN_SWITCHES = 3  # letter-digit changes: random tokens have many, "release_2026_final" has none
_MIN_ENTROPY = 3.5  # bits per character; random base62 of 32 characters has about 4.5, base36 about 4.3


def _has_letter_and_digit(value: str) -> bool:
    return any(char.isdigit() for char in value) and any(char.isalpha() for char in value)


def _entropy(value: str) -> float:
    return -sum(count / len(value) * math.log2(count / len(value)) for count in Counter(value).values())


def _switches(token: str) -> int:
    return sum(1 for a, b in pairwise(token) if a.isalnum() and b.isalnum() and a.isdigit() != b.isdigit())


def _looks_random(token: str) -> bool:
    if _HEX_ID.fullmatch(token) or not _has_letter_and_digit(token):
        return False
    return _switches(token) >= _MIN_SWITCHES and _entropy(token) >= _MIN_ENTROPY


def _aws_secret_ok(text: str, match: re.Match[str]) -> bool:
    key = match.group()
    if not (any(c.isupper() for c in key) and any(c.islower() for c in key)) or _HEX_ID.fullmatch(key):
        return False
    if _AWS_CONTEXT.search(text, max(0, match.start() - _AWS_CONTEXT_CHARS), match.start()):
        return any(c.isdigit() or c in "+/" for c in key)
    # Alone: it must look random, not like a path or a long CamelCase name.
    return any(c.isdigit() for c in key) and _switches(key) >= _MIN_SWITCHES and _entropy(key) >= _MIN_AWS_ENTROPY


def api_keys(text: str) -> Iterator[Finding]:
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


def cloud_keys(text: str) -> Iterator[Finding]:
    for match in _AWS_SECRET.finditer(text):
        if _aws_secret_ok(text, match):
            yield Finding(SecretKind.API_KEY, match.start(), match.end())
    for match in _AZURE_VALUE.finditer(text):
        if _has_letter_and_digit(match.group("value")):
            yield Finding(SecretKind.API_KEY, match.start("value"), match.end("value"))
    for match in _AZURE_STORAGE_KEY.finditer(text):
        if _has_letter_and_digit(match.group()):
            yield Finding(SecretKind.API_KEY, match.start(), match.end())
    for match in _PRIVATE_KEY.finditer(text):
        # Trailing line breaks belong to the text around the key.
        body = match.group().rstrip()
        while body.endswith("\\n"):
            body = body[:-2].rstrip()
        yield Finding(SecretKind.API_KEY, match.start(), match.start() + len(body))
