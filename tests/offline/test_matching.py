"""Finding the entry a phrase means: by meaning, with slips forgiven, and never guessing between two."""

import pytest

from app.domain.enums import Status
from app.offline.matching import EntryIndex, meaningful_words
from tests.support.offline_entries import (
    DENTIST,
    ENTRIES,
    FLIGHTS,
    LANDLORD,
    MILK,
    MOM,
    OAT_MILK,
    PLANTS,
    entry,
)

INDEX = EntryIndex(ENTRIES)


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("oat milk", OAT_MILK),
        ("buy milk", MILK),  # said exactly: not ambiguous with "Buy oat milk"
        ("the dentist", DENTIST),
        ("the dentest", DENTIST),  # a recognition slip
        ("lisbon flights", FLIGHTS),  # word order and plural do not matter
        ("the flight to lisbon", FLIGHTS),
        ("watering the plants", PLANTS),
        ("the heating email", LANDLORD),  # snoozed entries can be named too
    ],
)
def test_finds_the_entry_meant(phrase: str, expected: object) -> None:
    match = INDEX.find(phrase)
    assert match.entry is expected and match.error is None


@pytest.mark.parametrize("phrase", ["groceries", "mom's birthday present", "the tax return", "call the garage"])
def test_no_match_says_so(phrase: str) -> None:
    match = INDEX.find(phrase)
    assert match.entry is None and match.error == f"no open entry matches '{phrase}'"


def test_ambiguity_names_the_candidates_and_picks_none() -> None:
    match = INDEX.find("milk")
    assert match.entry is None and match.candidates == (MILK, OAT_MILK)
    assert match.error == "'milk' is ambiguous: it could be 'Buy milk' (3fa1b2) or 'Buy oat milk' (9c0d1e); say which"


def test_many_candidates_are_listed_with_commas() -> None:
    entries = [entry("aaaaa1", "Call Ann"), entry("aaaaa2", "Call Bob"), entry("aaaaa3", "Call Cy")]
    match = EntryIndex(entries).find("call")
    assert match.error is not None and match.error.count(",") == 1 and " or " in match.error


def test_one_shared_generic_word_is_not_a_match() -> None:
    """'call mom' must not complete 'Call the dentist' on the word 'call' alone."""
    assert EntryIndex([DENTIST]).find("call mom").entry is None


def test_a_phrase_saying_more_than_an_entry_is_not_that_entry() -> None:
    assert EntryIndex([MOM]).find("call mom's doctor").entry is None
    assert EntryIndex([MILK]).find("buy oat milk").entry is None


def test_numbers_must_match_exactly() -> None:
    rooms = [entry("bbbbb1", "Paint room 101"), entry("bbbbb2", "Paint room 102")]
    assert EntryIndex(rooms).find("room 101").entry is rooms[0]


def test_finished_entries_are_never_matched() -> None:
    done = entry("ccccc1", "Buy lemons", status=Status.COMPLETED)
    assert EntryIndex([done]).find("lemons").entry is None


def test_a_phrase_without_meaningful_words_asks_which() -> None:
    match = INDEX.find("it")
    assert match.entry is None and match.error is not None and "does not say which entry" in match.error


def test_normalisation_drops_stop_words_and_folds_plurals() -> None:
    assert meaningful_words("Buy the EGGS for my Mom's boxes") == ("buy", "egg", "mom", "box")
