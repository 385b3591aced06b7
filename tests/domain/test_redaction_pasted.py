"""Secrets as people paste and dictate them: odd spaces and separators, full-width digits, zero-width
characters, and password cues in the languages of dictation. Each must be caught; dates and room numbers not."""

import pytest

from app.domain.redaction import PLACEHOLDERS, SecretKind, redact

CARD = "4242 4242 4242 4242"
AMEX = "3782 822463 10005"
IBAN = "DE89 3704 0044 0532 0130 00"
KEY = "sk-proj-4f9Kq2LmZx81bQwT7vRt0pYs"


def full_width(text: str) -> str:
    return "".join(chr(ord(char) + 0xFEE0) if char.isdigit() else char for char in text)


# (pasted or said, sent to the model, the kind of its one placeholder)
CAUGHT = [
    # Card numbers with the spaces of PDFs and web pages
    (f"card {CARD.replace(' ', chr(0xA0))}", "card [card number]", SecretKind.CARD),
    (f"card {CARD.replace(' ', chr(0x2009))}", "card [card number]", SecretKind.CARD),
    (f"card {CARD.replace(' ', chr(0x202F))}", "card [card number]", SecretKind.CARD),
    (f"card {CARD.replace(' ', chr(0x2007))}", "card [card number]", SecretKind.CARD),
    (f"card {CARD.replace(' ', chr(0x3000))}", "card [card number]", SecretKind.CARD),
    (f"card {CARD.replace(' ', chr(0x2002))} ok", "card [card number] ok", SecretKind.CARD),
    (f"amex {AMEX.replace(' ', chr(0xA0))}", "amex [card number]", SecretKind.CARD),
    # ... with dots, underscores, slashes between the groups
    ("pay with 4242.4242.4242.4242 today", "pay with [card number] today", SecretKind.CARD),
    ("pay with 4242_4242_4242_4242", "pay with [card number]", SecretKind.CARD),
    ("pay with 4242/4242/4242/4242.", "pay with [card number].", SecretKind.CARD),
    ("card: 5555.5555.5555.4444", "card: [card number]", SecretKind.CARD),
    ("card 3782.822463.10005", "card [card number]", SecretKind.CARD),
    ("card 4000_0566_5566_5556 expires 12/28", "card [card number] expires 12/28", SecretKind.CARD),
    # ... in full-width digits (IME input), with full-width or ideographic spaces
    (f"card {full_width('4242424242424242')}", "card [card number]", SecretKind.CARD),
    (f"card {full_width(CARD)}", "card [card number]", SecretKind.CARD),
    (f"card {full_width(CARD).replace(' ', chr(0x3000))}", "card [card number]", SecretKind.CARD),
    (f"カード{full_width('5555 5555 5555 4444')}です", "カード[card number]です", SecretKind.CARD),
    # ... with zero-width characters or soft hyphens inside
    ("card 4242\u200b4242\u200b4242\u200b4242", "card [card number]", SecretKind.CARD),
    ("card 4242 4242\u00ad 4242 4242", "card [card number]", SecretKind.CARD),
    ("card 4242 \u20604242 4242\u2060 4242", "card [card number]", SecretKind.CARD),
    # IBANs with hyphens, odd spaces, full-width digits
    ("transfer to DE89-3704-0044-0532-0130-00 today", "transfer to [IBAN] today", SecretKind.IBAN),
    ("iban GB82-WEST-1234-5698-7654-32", "iban [IBAN]", SecretKind.IBAN),
    (f"iban {IBAN.replace(' ', chr(0xA0))}", "iban [IBAN]", SecretKind.IBAN),
    (f"iban {IBAN.replace(' ', chr(0x202F))}", "iban [IBAN]", SecretKind.IBAN),
    (f"iban {full_width(IBAN)}", "iban [IBAN]", SecretKind.IBAN),
    # Keys with a zero-width character after the prefix or inside
    (f"key {KEY.replace('sk-', 'sk-' + chr(0x200B))}", "key [API key]", SecretKind.API_KEY),
    (f"key {KEY.replace('proj-', 'proj-' + chr(0x200D))}", "key [API key]", SecretKind.API_KEY),
    (f"key \ufeff{KEY}", "key \ufeff[API key]", SecretKind.API_KEY),
    ("token ghp_\u200b1234567890abcdefghijABCDEFGHIJklmnop", "token [API key]", SecretKind.API_KEY),
    # Password cues in the user's dictation language
    ("Das Passwort ist Sonnenblume7", "Das Passwort ist [password]", SecretKind.PASSWORD),
    ("das WLAN-Passwort lautet kaffeetasse", "das WLAN-Passwort lautet [password]", SecretKind.PASSWORD),
    ("Passwort: geheim123", "Passwort: [password]", SecretKind.PASSWORD),
    ("Mein Kennwort ist Tannenbaum", "Mein Kennwort ist [password]", SecretKind.PASSWORD),
    ("das Passwort für das WLAN ist Kuckuck", "das Passwort für das WLAN ist [password]", SecretKind.PASSWORD),
    ("die PIN ist 4711", "die PIN ist [password]", SecretKind.PASSWORD),
    ("le mot de passe est soleil", "le mot de passe est [password]", SecretKind.PASSWORD),
    ("le mot de passe du wifi est Soleil42", "le mot de passe du wifi est [password]", SecretKind.PASSWORD),
    ("mot de passe : papillon", "mot de passe : [password]", SecretKind.PASSWORD),
    ("la contraseña es gatito", "la contraseña es [password]", SecretKind.PASSWORD),
    ("la contraseña del wifi es perro99", "la contraseña del wifi es [password]", SecretKind.PASSWORD),
    ("contrasena: mariposa", "contrasena: [password]", SecretKind.PASSWORD),
    ("la password è girasole", "la password è [password]", SecretKind.PASSWORD),
    ("la password del wifi è Gatto77", "la password del wifi è [password]", SecretKind.PASSWORD),
    ("het wachtwoord is fiets", "het wachtwoord is [password]", SecretKind.PASSWORD),
    ("het wifi-wachtwoord is tulp2024", "het wifi-wachtwoord is [password]", SecretKind.PASSWORD),
    ("a senha é abacaxi", "a senha é [password]", SecretKind.PASSWORD),
    ("a senha do wifi é Caju88", "a senha do wifi é [password]", SecretKind.PASSWORD),
    ("a palavra-passe é saudade", "a palavra-passe é [password]", SecretKind.PASSWORD),
    # Each language's everyday words for a password or a code
    ("der Zugangscode ist Rabe41", "der Zugangscode ist [password]", SecretKind.PASSWORD),
    ("meine Geheimzahl lautet 8352", "meine Geheimzahl lautet [password]", SecretKind.PASSWORD),
    ("PIN-Code: 4831", "PIN-Code: [password]", SecretKind.PASSWORD),
    ("le code d'accès est Hibou7", "le code d'accès est [password]", SecretKind.PASSWORD),
    ("mdp : Hibou7", "mdp : [password]", SecretKind.PASSWORD),
    ("el código de acceso es Lobo33", "el código de acceso es [password]", SecretKind.PASSWORD),
    ("il codice di accesso è Lupo33", "il codice di accesso è [password]", SecretKind.PASSWORD),
    ("de toegangscode is Uil55", "de toegangscode is [password]", SecretKind.PASSWORD),
    # A card in the digits of another script (NFKC leaves them as they are)
    ("بطاقة ٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢", "بطاقة [card number]", SecretKind.CARD),
    ("کارت ۴۲۴۲ ۴۲۴۲ ۴۲۴۲ ۴۲۴۲", "کارت [card number]", SecretKind.CARD),
    ("कार्ड ४२४२ ४२४२ ४२४२ ४२४२", "कार्ड [card number]", SecretKind.CARD),
    ("কার্ড ৪২৪২৪২৪২৪২৪২৪২৪২", "কার্ড [card number]", SecretKind.CARD),
    # Cue words in full-width or with a no-break space before the value
    ("password:\u00a0hunter2", "password:\u00a0[password]", SecretKind.PASSWORD),
    ("ｐａｓｓｗｏｒｄ ｉｓ ｈｕｎｔｅｒ２", "ｐａｓｓｗｏｒｄ ｉｓ [password]", SecretKind.PASSWORD),
]

KEPT = [
    "the dentist is on 2026-11-26",
    "meet in room 4 5 6",
    "version 2026.11.26 is out",
    "call +49 30 1234 5678 9012",
    "das Passwort ist falsch",
    "le mot de passe est incorrect",
    "la contraseña es incorrecta",
    "the password island tour",
    "pi is 3.14159265358979",
    "ship order 12/11/2026",
    "the losing team celebrated",
    "der Geheimtipp ist das Café",
    "room ٤٢ on floor ٣",
]


@pytest.mark.parametrize(("said", "sent", "kind"), CAUGHT)
def test_pasted_and_dictated_forms_are_caught(said: str, sent: str, kind: SecretKind) -> None:
    redacted = redact(said)
    assert redacted.text == sent
    assert [finding.kind for finding in redacted.findings] == [kind]
    assert PLACEHOLDERS[kind] in redacted.text


@pytest.mark.parametrize("said", KEPT)
def test_ordinary_text_is_kept(said: str) -> None:
    assert redact(said).text == said


def test_findings_point_into_the_text_as_pasted() -> None:
    said = f"card {CARD.replace(' ', chr(0x200B) + ' ')} and Passwort ist Kuckuck7"
    redacted = redact(said)
    originals = [said[finding.start : finding.end] for finding in redacted.findings]
    assert originals == [CARD.replace(" ", "\u200b "), "Kuckuck7"]
