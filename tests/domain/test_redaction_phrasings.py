"""Everyday phrasings of secrets, by kind: what is replaced, what stays around it, and what ordinary speech keeps."""

import pytest

from app.domain.redaction import PLACEHOLDERS, Redacted, SecretKind, redact

_AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
_AZURE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

# (said, sent to the model, the kind of every placeholder in it)
CAUGHT = [
    # Passwords: a sure cue, with or without "is", ":", "=", "for/of the X is", possessives
    ("wifi pass Blue42Sky", "wifi pass [password]", SecretKind.PASSWORD),
    ("the wifi pass is sunshine", "the wifi pass is [password]", SecretKind.PASSWORD),
    ("the wifi key is sunshine", "the wifi key is [password]", SecretKind.PASSWORD),
    ("the WiFi key is X7kq-99zz, thanks", "the WiFi key is [password], thanks", SecretKind.PASSWORD),
    ("guest password Guest2024", "guest password [password]", SecretKind.PASSWORD),
    ("my wifi's password is hunter2", "my wifi's password is [password]", SecretKind.PASSWORD),
    ("the router's password: admin123", "the router's password: [password]", SecretKind.PASSWORD),
    ("the password of the router is admin123", "the password of the router is [password]", SecretKind.PASSWORD),
    ("password=Tr0ub4dor&3 for the nas", "password=[password] for the nas", SecretKind.PASSWORD),
    ("the password is: swordfish", "the password is: [password]", SecretKind.PASSWORD),
    ("the pass word is hunter2", "the pass word is [password]", SecretKind.PASSWORD),
    ("pass: s3cret", "pass: [password]", SecretKind.PASSWORD),
    ("pwd: letmein99", "pwd: [password]", SecretKind.PASSWORD),
    # Passphrases: several plain words, up to the end of the clause
    ("my password is correct horse battery staple", "my password is [password]", SecretKind.PASSWORD),
    (
        "the passphrase is correct horse battery staple and remind me to change it",
        "the passphrase is [password] and remind me to change it",
        SecretKind.PASSWORD,
    ),
    (
        "the password for the wifi is purple monkey dishwasher, call mom",
        "the password for the wifi is [password], call mom",
        SecretKind.PASSWORD,
    ),
    ("passphrase correct horse battery staple", "passphrase [password]", SecretKind.PASSWORD),
    ("pass phrase: blue moon rising.", "pass phrase: [password].", SecretKind.PASSWORD),
    ("the wifi key is open sesame please", "the wifi key is [password] please", SecretKind.PASSWORD),
    # Bounded: eight words at most
    (
        "passphrase: tiger lily moon river sunset ocean breeze mountain valley",
        "passphrase: [password] valley",
        SecretKind.PASSWORD,
    ),
    # PINs and codes
    ("pin 1234", "pin [password]", SecretKind.PASSWORD),
    ("PIN: 1234#", "PIN: [password]", SecretKind.PASSWORD),
    ("my PIN code is 0815.", "my PIN code is [password].", SecretKind.PASSWORD),
    ("the PIN for my card is 9876", "the PIN for my card is [password]", SecretKind.PASSWORD),
    ("the door code is 4711", "the door code is [password]", SecretKind.PASSWORD),
    ("door code 4711.", "door code [password].", SecretKind.PASSWORD),
    ("gate code four seven one one", "gate code [password]", SecretKind.PASSWORD),
    ("the code to the front door is 1234#", "the code to the front door is [password]", SecretKind.PASSWORD),
    ("the code is 4711", "the code is [password]", SecretKind.PASSWORD),
    ("code: 4711", "code: [password]", SecretKind.PASSWORD),
    (
        "the door code is 4711 and the alarm code is 2580",
        "the door code is [password] and the alarm code is [password]",
        SecretKind.PASSWORD,
    ),
    ("product key: ABCD1-EFGH2-IJKL3-MNOP4-QRST5", "product key: [password]", SecretKind.PASSWORD),
    ("the bitlocker recovery key is 123456-234567", "the bitlocker recovery key is [password]", SecretKind.PASSWORD),
    # Logins
    ("my bank login is anna.smith", "my bank login is [password]", SecretKind.PASSWORD),
    ("login: anna@example.com", "login: [password]", SecretKind.PASSWORD),
    # Cloud keys
    ("AKIAIOSFODNN7EXAMPLE is the access key id", "[API key] is the access key id", SecretKind.API_KEY),
    ("temp creds ASIAY34FZKBOKMUTVV7A", "temp creds [API key]", SecretKind.API_KEY),
    (f"aws_secret_access_key = {_AWS_SECRET}", "aws_secret_access_key = [API key]", SecretKind.API_KEY),
    (f"my AWS secret is {_AWS_SECRET} ok", "my AWS secret is [API key] ok", SecretKind.API_KEY),
    (f"aws keys AKIAIOSFODNN7EXAMPLE {_AWS_SECRET}", "aws keys [API key] [API key]", SecretKind.API_KEY),
    ("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", "[API key]", SecretKind.API_KEY),
    ("maps AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "maps [API key]", SecretKind.API_KEY),
    (
        '"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n'
        '-----END PRIVATE KEY-----\\n",',
        '"private_key": "[API key]\\n",',
        SecretKind.API_KEY,
    ),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nabc+/def=\n-----END RSA PRIVATE KEY-----\nthanks",
        "[API key]\nthanks",
        SecretKind.API_KEY,
    ),
    (
        '"private_key_id": "3f2a9c01d4e5b6a7980c1d2e3f4a5b6c7d8e9f01",',
        '"private_key_id": "[API key]",',
        SecretKind.API_KEY,
    ),
    (
        f"DefaultEndpointsProtocol=https;AccountName=murmur;AccountKey={_AZURE_KEY};EndpointSuffix=core.windows.net",
        "DefaultEndpointsProtocol=https;AccountName=murmur;AccountKey=[API key];EndpointSuffix=core.windows.net",
        SecretKind.API_KEY,
    ),
    (f"storage key {_AZURE_KEY} for prod", "storage key [API key] for prod", SecretKind.API_KEY),
    (
        "https://acct.blob.core.windows.net/c?sp=r&sig=Zx8%2Bk1p9QmW3rT5vY7uA0bC2dE4fG6hJ8kL0mN1oP3q%3D",
        "https://acct.blob.core.windows.net/c?sp=r&sig=[API key]",
        SecretKind.API_KEY,
    ),
    ("gitlab glpat-abc123DEF456ghi789JKL0", "gitlab [API key]", SecretKind.API_KEY),
    ("hf_AbCdEfGh1234567890IjKlMnOpQrStUv for the model", "[API key] for the model", SecretKind.API_KEY),
    ("anthropic sk-ant-api03-Ab3dEf6hIj9kLm2nOp5q", "anthropic [API key]", SecretKind.API_KEY),
    # Passports and driving licences
    ("my passport number is C01X00T47", "my passport number is [ID number]", SecretKind.NATIONAL_ID),
    ("passport no. 123456789 for the trip", "passport no. [ID number] for the trip", SecretKind.NATIONAL_ID),
    ("passport: 5 3 4 2 8 7 1 9 0", "passport: [ID number]", SecretKind.NATIONAL_ID),
    (
        "my passport number is five three four two eight seven one nine oh",
        "my passport number is [ID number]",
        SecretKind.NATIONAL_ID,
    ),
    (
        "driver's license D1234-56789-01234 expires soon",
        "driver's license [ID number] expires soon",
        SecretKind.NATIONAL_ID,
    ),
    ("driving licence number MORGA657054SM9IJ", "driving licence number [ID number]", SecretKind.NATIONAL_ID),
    ("my licence is 12345678", "my licence is [ID number]", SecretKind.NATIONAL_ID),
    ("Passport #X1234567, renew by May", "Passport #[ID number], renew by May", SecretKind.NATIONAL_ID),
]

KEPT = [
    # Everyday uses of the cue words
    "remind me to pass the salt",
    "the key to success",
    "the key to success is practice",
    "code review on Monday",
    "PIN the poster",
    "pin the note to the top",
    "pin 2 entries",
    "my passport expires in June",
    "my passport expires 2030-06-14",
    "passport 2030-06-14",
    "passport renewal appointment on 12 June",
    "passport control at gate 12",
    "renew passport by 2026",
    "license plate B-MW 1234",
    "the license fee is 2026 euros",
    "software license for 5 seats",
    "driving licence test on 2026-05-03",
    "driver's license renewal next week",
    # Passwords talked about, not said
    "remind me to change the wifi password tomorrow",
    "set up a password manager for mom",
    "ask Tom for the guest wifi password tonight",
    "guest password please",
    "the password is correct",
    "the password is correct now",
    "the password is not working anymore",
    "the password is printed on the router",
    "the passcode changed last week",
    "password reset link expired",
    "what is the wifi key?",
    "the wifi key is on the back of the router",
    "the PIN number is on the letter",
    "the door code changed",
    "change the gate code next week",
    # Codes and keys that are not secrets
    "zip code 10115",
    "area code 030 for Berlin",
    "error code is 404",
    "the error code is 5003",
    "QR code on the poster",
    "the dress code is smart casual",
    "the code is clean now",
    "my code is messy",
    "the mountain pass is 2000 metres high",
    "boarding pass: 12B",
    "the car key is in the drawer",
    "the house key is blue",
    "the key is under the mat",
    "the key is to stay calm",
    "the key is 42",
    "the key points are cost and time",
    "key dates: 2026 and 2027",
    "buy a new key for the bike lock",
    "the answer key is on page 42",
    "call the key account manager at 5",
    # Logins
    "login fails on the staging server",
    "the login page is slow",
    "fix the login bug 4521",
    "my login is anna.smith",
    # Documented misses (docs/user-guide.md): a plain word with no "is"/":", a key with no word saying what it opens
    "guest password sunshine",
    "the key is sunshine",
    # Long strings that are not keys
    "ThisIsAVeryLongCamelCaseIdentifierName12",
    "usr/local/lib/python3/site/packages/abcd",
    "commit 3f2a9c01d4e5b6a7980c1d2e3f4a5b6c7d8e9f01 fixed it",
]


@pytest.mark.parametrize(("text", "expected", "kind"), CAUGHT)
def test_phrasing_is_redacted(text: str, expected: str, kind: SecretKind) -> None:
    result = redact(text)
    assert result.text == expected
    assert {finding.kind for finding in result.findings} == {kind}
    assert result.text.count("[") - text.count("[") == len(result.findings)
    assert PLACEHOLDERS[kind] in result.text


@pytest.mark.parametrize("text", KEPT)
def test_ordinary_sentence_is_kept(text: str) -> None:
    assert redact(text) == Redacted(text, [])


@pytest.mark.parametrize("text", [text for text, _, _ in CAUGHT])
def test_redacted_phrasing_stays_redacted(text: str) -> None:
    once = redact(text)
    assert redact(once.text) == Redacted(once.text, [])


def test_the_table_is_large_enough() -> None:
    assert len(CAUGHT) + len(KEPT) >= 60


def test_a_passphrase_finding_covers_every_word() -> None:
    text = "my password is correct horse battery staple, thanks"
    (finding,) = redact(text).findings
    assert text[finding.start : finding.end] == "correct horse battery staple"
