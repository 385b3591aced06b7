"""What redaction reports: the kinds of secret, their placeholders, and where each one was."""

from dataclasses import dataclass
from enum import StrEnum


class SecretKind(StrEnum):
    CARD = "card"
    IBAN = "iban"
    API_KEY = "api_key"
    PASSWORD = "password"
    NATIONAL_ID = "national_id"


# The model sees these instead of the secret; app/agent/loop.py maps them back, kind by kind, in order.
PLACEHOLDERS: dict[SecretKind, str] = {
    SecretKind.CARD: "[card number]",
    SecretKind.IBAN: "[IBAN]",
    SecretKind.API_KEY: "[API key]",
    SecretKind.PASSWORD: "[password]",
    SecretKind.NATIONAL_ID: "[ID number]",
}

# "[card", "[IBAN", ...: a value cut at a space or a trailing bracket still shows where a placeholder is.
PLACEHOLDER_HEADS = tuple(placeholder.split()[0].rstrip("]") for placeholder in PLACEHOLDERS.values())


def holds_placeholder(value: str) -> bool:
    """A value that holds a placeholder was redacted before: "password is [password]" stays as it is."""
    return any(head in value for head in PLACEHOLDER_HEADS)


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
