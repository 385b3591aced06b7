"""Splitting an utterance into clauses: sentence punctuation, strong joints, and "and" only before a command."""

import pytest

from app.offline.clauses import clean_clause, split_clauses

CASES = [
    ("buy milk and call mom tomorrow", ["buy milk", "call mom tomorrow"]),
    ("remind me to call the dentist Thursday, and milk is done", [
        "remind me to call the dentist Thursday", "milk is done"]),
    ("buy salt and pepper", ["buy salt and pepper"]),
    ("call mom and dad", ["call mom and dad"]),
    ("I need to buy eggs and bread", ["I need to buy eggs and bread"]),
    ("buy bread and water", ["buy bread and water"]),  # one word after "and" is an item, not a command
    ("buy bread and water the plants", ["buy bread", "water the plants"]),
    ("water the ferns and urgent pay rent", ["water the ferns", "urgent pay rent"]),  # a priority before a verb
    ("the report is important and urgent", ["the report is important and urgent"]),
    ("call Anna and Mark about the trip", ["call Anna and Mark about the trip"]),  # a name, not "mark"
    ("buy eggs, bread, and milk", ["buy eggs, bread, and milk"]),  # an Oxford-comma list
    ("eggs, bread and milk", ["eggs, bread and milk"]),
    ("buy milk, call mom", ["buy milk", "call mom"]),
    ("buy milk, call mom, and walk the dog", ["buy milk", "call mom", "walk the dog"]),
    ("book a table and then text Sam", ["book a table", "text Sam"]),
    ("book a table, then text Sam", ["book a table", "text Sam"]),
    ("buy milk also call the vet", ["buy milk", "call the vet"]),
    ("I also need eggs", ["I also need eggs"]),  # "also" inside a clause does not split it
    ("buy eggs and I need to call mom", ["buy eggs", "I need to call mom"]),
    ("buy bread and don't forget the keys", ["buy bread", "don't forget the keys"]),
    ("buy bread and milk is done", ["buy bread", "milk is done"]),
    ("oat milk and the passport are done", ["oat milk and the passport are done"]),
    ("the plants are done and the dentist is done", ["the plants are done", "the dentist is done"]),
    ("tomorrow, call the bank", ["tomorrow, call the bank"]),  # a short lead belongs to its command
    ("Buy stamps. Renew the gym membership! Is the shop open? Call Jo", [
        "Buy stamps", "Renew the gym membership", "Is the shop open?", "Call Jo"]),
    ("write the report; email it to Jo\nwater the ferns", ["write the report", "email it to Jo", "water the ferns"]),
    ("call Dr. Smith at 5 p.m. tomorrow", ["call Dr. Smith at 5pm tomorrow"]),  # abbreviations do not end sentences
    ("Um, so, buy stamps. Also renew the gym membership!", ["buy stamps", "renew the gym membership"]),
    ("oh wait, scratch that", ["scratch that"]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "clauses"), CASES, ids=[text[:40] for text, _ in CASES])
def test_split(text: str, clauses: list[str]) -> None:
    assert split_clauses(text) == clauses


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t", "um", "uh, hmm...", "...", "!!!", "and and and", "okay so"])
def test_noise_has_no_clauses(text: str) -> None:
    assert split_clauses(text) == []


@pytest.mark.parametrize(
    ("clause", "cleaned"),
    [
        ("  um   buy   stamps!!  ", "buy stamps"),
        ("please call the plumber, thanks", "call the plumber"),
        ("can you call the plumber", "call the plumber"),
        ("can you believe it?", "can you believe it?"),  # not a command: the question stays
        ("so, like, water the ferns", "water the ferns"),
        ("how do vaccines work?", "how do vaccines work?"),
    ],
)
def test_clean_clause(clause: str, cleaned: str) -> None:
    assert clean_clause(clause) == cleaned


def test_shouting_is_read_in_lower_case() -> None:
    assert split_clauses("BUY MILK AND CALL MOM") == ["buy milk", "call mom"]


def test_curly_quotes_and_odd_spaces_are_normalised() -> None:
    assert split_clauses("don\u2019t forget\u00a0the keys") == ["don't forget the keys"]
