"""The vocabulary's words on their own: replacements put into text, and the text file read and written."""

import pytest

from app.errors import UsageError
from app.vocabulary.replacing import replaced
from app.vocabulary.text_file import read_words, words_text
from app.vocabulary.words import Word, replacement, term

JSON = replacement("jay son", "JSON")
MURMUR = replacement("murmur", "Murmur")


def test_a_replacement_matches_whole_words_in_any_case_and_keeps_its_own() -> None:
    assert replaced("send the Jay  Son file to murmur", [JSON, MURMUR]) == "send the JSON file to Murmur"
    assert replaced("murmurs and jay sonnets stay", [JSON, MURMUR]) == "murmurs and jay sonnets stay"


def test_the_words_of_a_phrase_may_be_joined_by_hyphens() -> None:
    assert replaced("call TA-DHG and jay-son", [replacement("ta dhg", "Tadhg"), JSON]) == "call Tadhg and JSON"


def test_the_longest_phrase_wins_and_a_term_put_in_is_not_replaced_again() -> None:
    words = [replacement("cube", "Kube"), replacement("cube control", "kubectl"), replacement("kube", "cube")]
    assert replaced("run cube control, then cube", words) == "run kubectl, then Kube"


def test_plain_terms_replace_nothing() -> None:
    assert replaced("email siobhan", [term("Siobhan")]) == "email siobhan"


def test_the_text_file_reads_back_what_it_wrote() -> None:
    words = [term("Siobhan"), JSON, term("Kubernetes")]
    assert read_words(words_text(words)) == words
    assert read_words("# mine\n\n  Siobhan \njay son->JSON\n") == [term("Siobhan"), JSON]


def test_a_bad_line_is_named() -> None:
    with pytest.raises(UsageError, match="line 2: .*replaced by itself"):
        read_words("Siobhan\nJSON -> JSON\n")
    with pytest.raises(UsageError, match="line 1: .*empty"):
        read_words(" -> JSON")


def test_a_word_is_one_short_line() -> None:
    with pytest.raises(UsageError, match="limit"):
        term("x" * 101)
    with pytest.raises(UsageError, match="#"):
        term("#tag")
    assert term("  Wispr   Flow ") == Word("Wispr Flow")
