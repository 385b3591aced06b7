"""Redaction before text leaves the machine: what is caught, what everyday speech keeps, offsets, robustness."""

import random

import pytest

from app.domain.redaction import PLACEHOLDERS, Finding, Redacted, SecretKind, redact

CAUGHT = [
    # Card numbers, written
    ("pay the bill with 4242 4242 4242 4242", "pay the bill with [card number]"),
    ("card 4242-4242-4242-4242.", "card [card number]."),
    ("use 5555555555554444 for the hotel", "use [card number] for the hotel"),
    ("amex 3782 822463 10005 expires soon", "amex [card number] expires soon"),
    ("Visa 4111 1111 1111 1111, exp 12/27", "Visa [card number], exp 12/27"),
    ("Discover 6011-1111-1111-1117", "Discover [card number]"),
    # Card numbers, spoken (speech recognition writes digits as words)
    (
        "my card is four two four two four two four two four two four two four two four two",
        "my card is [card number]",
    ),
    ("card five one oh five one oh five one oh five one oh five one oh oh thanks", "card [card number] thanks"),
    ("the number is 4242 4242 four two four two 4242 ok", "the number is [card number] ok"),
    (
        "Four, two, four, two, four, two, four, two, four, two, four, two, four, two, four, two.",
        "[card number].",
    ),
    (
        "double five double five double five double five double five double five double four double four",
        "[card number]",
    ),
    # IBANs
    ("send it to DE89 3704 0044 0532 0130 00 please", "send it to [IBAN] please"),
    ("IBAN: DE89370400440532013000", "IBAN: [IBAN]"),
    ("GB82 WEST 1234 5698 7654 32 is the landlord's", "[IBAN] is the landlord's"),
    ("BE68 5390 0754 7034 from the invoice", "[IBAN] from the invoice"),
    ("pay fr1420041010050500013m02606 today", "pay [IBAN] today"),
    # API keys and tokens
    ("key sk-proj-abc123DEF456ghi789JKL012mno for the bot", "key [API key] for the bot"),
    ("sk-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z", "[API key]"),
    ("token ghp_1234567890abcdefghijABCDEFGHIJ123456", "token [API key]"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "[API key]"),
    ("slack xoxb-123456789012-abcdefghijkl", "slack [API key]"),
    ("AKIAIOSFODNN7EXAMPLE is the access key", "[API key] is the access key"),
    ("maps key AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "maps key [API key]"),
    ("stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", "stripe [API key]"),
    ("restricted rk_live_51HxYzAbCdEf1234567890", "restricted [API key]"),
    (
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U done",
        "jwt [API key] done",
    ),
    ("Authorization: Bearer abc123def456ghi789", "Authorization: Bearer [API key]"),
    ("the api key is 123e4567-e89b-12d3-a456-426614174000", "the api key is [API key]"),
    ("token: 3f2a9c01d4e5b6a7980c1d2e3f4a5b6c.", "token: [API key]."),
    ("here a8Kd93mZq0Lx7Bv2Nc5Rt1Yw4Hs6Jp9Ue3 is the secret", "here [API key] is the secret"),
    # Passwords and PINs
    ("the wifi password is hunter2.", "the wifi password is [password]."),
    ('My password\'s "correct horse battery" ok', "My password's [password] ok"),
    ("Password: Tr0ub4dor&3", "Password: [password]"),
    ("PIN: 1234", "PIN: [password]"),
    ("my pin is four three two one", "my pin is [password]"),
    ("the passcode is 908172 for the door", "the passcode is [password] for the door"),
    ("the password for netflix is Sunshine99", "the password for netflix is [password]"),
    ("pw is abc", "pw is [password]"),
    ("PASSWORD IS hunter two", "PASSWORD IS [password]"),
    # National IDs
    ("SSN 123-45-6789", "SSN [ID number]"),
    ("her number is 078-05-1120, file it", "her number is [ID number], file it"),
    (
        "my social security number is one two three four five six seven eight nine",
        "my social security number is [ID number]",
    ),
    ("social security number: 219 09 9999", "social security number: [ID number]"),
    ("NI number AB123456C", "NI number [ID number]"),
    ("national insurance ab 12 34 56 c", "national insurance [ID number]"),
    ("Steuer-ID 86095742719", "Steuer-ID [ID number]"),
    ("tax id 65 929 970 489.", "tax id [ID number]."),
]

KEPT = [
    "call mom at 5",
    "buy 12 eggs",
    "room 404",
    "flight LH 1234 on Friday",
    "dentist on 2026-11-22 at 18:30",
    "meet at 10:30, then 11:45",
    "the new TV costs $1,299.99",
    "budget 1,250,000 for hardware",
    "call the plumber at 555-123-4567",
    "call Anna on +49 151 2345 6789 tomorrow",
    "call Ben on +1 4242 4242 4242 4242",
    "order number 1234567890123456 arrives Thursday",
    "pi is 3.14159265358979323846",
    "oh one more thing, two eggs and three apples",
    "remind me to reset my password tomorrow",
    "the wifi password is wrong",
    "the password is the same as before",
    "the bowling pin is broken",
    "the token is valid until Friday",
    "the bearer of bad news comes at 5",
    "done with 3f2a9c and 0a1b2c3d",
    "entry 3f2a9c01d4e5b6a7980c1d2e3f4a5b6c is done",
    "attach 123e4567-e89b-12d3-a456-426614174000 to the ticket",
    "release_candidate_2026_11_22_final_build is ready",
    "antidisestablishmentarianism1234 is a long word",
    "read about sk-learn-is-a-great-python-library",
    "my social security office appointment is at 9",
    "buy 2 kg of flour and 500 g of sugar",
    "",
]

# Right shape, wrong checksum or a reserved range: left alone.
CHECKSUM_FAILS = [
    "4242424242424241",
    "4242 4242 4242 4241",
    "four two four two four two four two four two four two four two four one",
    "DE89 3704 0044 0532 0130 01",
    "GB82 WEST 1234 5698 7654 33",
    "12345678901",
    "86095742718",
    "000-12-3456",
    "666-12-3456",
    "900-12-3456",
    "123-00-4567",
    "GB123456A",
    "QQ123456C",
    "AB123456E",
]


@pytest.mark.parametrize(("text", "expected"), CAUGHT)
def test_secrets_are_replaced(text: str, expected: str) -> None:
    result = redact(text)
    assert result.text == expected
    assert result.changed


@pytest.mark.parametrize("text", KEPT + CHECKSUM_FAILS)
def test_everyday_text_and_invalid_numbers_pass_unchanged(text: str) -> None:
    result = redact(text)
    assert result == Redacted(text, [])
    assert not result.changed


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("4242 4242 4242 4242", SecretKind.CARD),
        ("DE89370400440532013000", SecretKind.IBAN),
        ("AKIAIOSFODNN7EXAMPLE", SecretKind.API_KEY),
        ("password: swordfish", SecretKind.PASSWORD),
        ("AB123456C", SecretKind.NATIONAL_ID),
    ],
)
def test_each_kind_has_its_placeholder(text: str, kind: SecretKind) -> None:
    result = redact(text)
    assert [finding.kind for finding in result.findings] == [kind]
    assert PLACEHOLDERS[kind] in result.text


def test_offsets_point_into_the_original_text() -> None:
    text = "pay 4242 4242 4242 4242 to DE89370400440532013000, PIN: 1234 and SSN 123-45-6789"
    result = redact(text)
    assert result.findings == [
        Finding(SecretKind.CARD, 4, 23),
        Finding(SecretKind.IBAN, 27, 49),
        Finding(SecretKind.PASSWORD, 56, 60),
        Finding(SecretKind.NATIONAL_ID, 69, 80),
    ]
    assert [text[f.start : f.end] for f in result.findings] == [
        "4242 4242 4242 4242",
        "DE89370400440532013000",
        "1234",
        "123-45-6789",
    ]
    assert result.text == "pay [card number] to [IBAN], PIN: [password] and SSN [ID number]"


def test_overlapping_matches_give_one_placeholder() -> None:
    # A PIN cue and a card number over the same digits: the checksummed kind wins, once.
    assert redact("my pin is 4242 4242 4242 4242").text == "my pin is [card number]"
    assert redact("social security number is 123-45-6789").text == "social security number is [ID number]"
    assert redact("password: sk-proj-abc123DEF456ghi789JKL012mno").text.count("[") == 1


def test_partly_overlapping_matches_merge_into_one_placeholder() -> None:
    # The cued key "abcd1234-4242" and the card share "4242": one placeholder covers both.
    result = redact("token: abcd1234-4242 4242 4242 4242")
    assert result.text == "token: [card number]"
    assert result.findings == [Finding(SecretKind.CARD, 7, 35)]


def test_a_second_card_in_the_same_run_of_digits_is_found() -> None:
    assert redact("4242 4242 4242 4242 5555 5555 5555 4444").text == "[card number] [card number]"


@pytest.mark.parametrize("text", [text for text, _ in CAUGHT] + KEPT + CHECKSUM_FAILS)
def test_redacting_twice_changes_nothing(text: str) -> None:
    once = redact(text)
    twice = redact(once.text)
    assert twice == Redacted(once.text, [])


_PIECES = [
    "4242",
    "4242 4242 4242 4242",
    " ",
    "-",
    ", ",
    ".",
    "four",
    "two",
    "oh",
    "double",
    "password is",
    "PIN:",
    "Bearer",
    "token=",
    "sk-",
    "DE89",
    "AKIA",
    "eyJ",
    "social security number is",
    "AB12",
    "\x00",
    "\n",
    "😀",
    "é",
    "[card number]",
    "'",
    '"',
    "=",
    "+",
    "a8Kd93mZq0Lx7Bv2",
]


@pytest.mark.parametrize("seed", range(25))
def test_random_text_never_raises_and_findings_are_consistent(seed: int) -> None:
    rng = random.Random(seed)
    pieces = [rng.choice(_PIECES) if rng.random() < 0.7 else chr(rng.randrange(0, 0x2FFF)) for _ in range(400)]
    text = "".join(pieces)
    result = redact(text)
    rebuilt, position = [], 0
    for finding in result.findings:
        assert position <= finding.start < finding.end <= len(text)
        rebuilt += [text[position : finding.start], PLACEHOLDERS[finding.kind]]
        position = finding.end
    assert "".join([*rebuilt, text[position:]]) == result.text


@pytest.mark.parametrize(
    "text",
    [
        "\x00" * 1000,
        "😀" * 1000,
        "4 " * 50_000,
        "four two " * 12_000,
        "password:" * 11_000,
        "token=" * 16_000,
        "a1" * 50_000,
        "Call mom at 5, my pin is 1234, card 4242 4242 4242 4242. " * 1_800,
    ],
)
def test_odd_and_large_input_is_handled(text: str) -> None:
    result = redact(text)
    assert isinstance(result.text, str)
