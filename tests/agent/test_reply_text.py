"""What a small local model writes, made fit to show: its turn ends where the chat template says so."""

import pytest

from app.agent.reply_text import MAX_REPLY_CHARS, clean_reply, is_looping


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("milk is done<|im_end|> <|im_start|>user\nwhat else?", "milk is done"),
        ("Added the dentist.<end_of_turn>\n<start_of_turn>user\nthanks", "Added the dentist."),
        ("<|start_header_id|>assistant<|end_header_id|>", ""),
        ("Done.<|eot_id|>", "Done."),
        ("<think>the user wants milk</think>Added milk.", "Added milk."),
        ("<think>still thinking when the tokens ran out", ""),
        ("Added milk. Added milk. Added milk. Added milk.", "Added milk."),
        ("I added it.\nI added it.\nI added it.", "I added it."),
        ("Buy milk, eggs and bread. Also call mom. Done!", "Buy milk, eggs and bread. Also call mom. Done!"),
        ("1. Milk\n2. Eggs", "1. Milk\n2. Eggs"),
        ("... well, added it", "... well, added it"),
    ],
)
def test_a_reply_is_cut_where_the_turn_ends(written: str, shown: str) -> None:
    assert clean_reply(written) == shown


def test_a_long_reply_is_cut_to_a_readable_length() -> None:
    cleaned = clean_reply(" ".join(f"word{n}" for n in range(2_000)))
    assert len(cleaned) == MAX_REPLY_CHARS and cleaned.endswith("…")


def test_a_loop_is_seen_once_it_is_long_and_cut_where_it_began() -> None:
    looping = "Sure, I will add it and remember, " + "remember, " * 30
    assert is_looping(looping) and clean_reply(looping) == "Sure, I will add it and…"
    varied = " ".join(f"item{n}" for n in range(100))
    assert not is_looping(varied) and clean_reply(varied) == varied
    assert not is_looping("remember, " * 5)  # too short to tell
