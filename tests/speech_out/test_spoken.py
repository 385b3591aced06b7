"""A reply made fit for the ear: IDs gone, placeholders and dates in words, a length a listener keeps."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from app.speech_out.spoken import MAX_SPOKEN_WORDS, REST_ON_SCREEN, clock_words, day_words, spoken_text
from app.speech_out.synthesis import phrases

TZ = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 11, 24, 10, 0, tzinfo=TZ)  # a Tuesday


def heard(text: str) -> str:
    return spoken_text(text, NOW, TZ)


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        # The offline rules' answer and a model's confirmation, with their IDs and clock times.
        (
            "Due this week: Buy milk (Wed 09:00), Call the dentist (Thu 15:00).",
            "Due this week: Buy milk, Wednesday at 9 am, Call the dentist, Thursday at 3 pm.",
        ),
        (
            "Created a reminder: Call the dentist (bb14b1, due 2026-11-26T15:00).",
            "Created a reminder: Call the dentist, due Thursday at 3 pm.",
        ),
        (
            "Which milk, the oat milk (a1b2c3) or the regular one [9f8e7d]?",
            "Which milk, the oat milk or the regular one?",
        ),
        ("I noted it as 3fa1b2.", "I noted it as."),
        # Placeholders are the user's own secrets, said as such; never "bracket card number bracket".
        ("I saved your [card number] in the note.", "I saved your card number in the note."),
        ("The password is [password].", "The password is your password."),
        ("Paid from [IBAN]", "Paid from your bank account number"),
        # Dates: relative near today, weekday within the week, the date further off (the year when not this one).
        ("Meet at 2026-11-24T18:30:00+00:00", "Meet today at 7:30 pm"),
        ("Call the dentist (bb14b1) at 2026-11-26T15:00", "Call the dentist on Thursday at 3 pm"),
        ("Tomorrow 9:00 and 2027-01-03", "Tomorrow at 9 am and Sunday, January 3, 2027"),
        ("Due on 2026-12-10 at 12:00", "Due on Thursday, December 10 at noon"),
        ("Done: Thu 26 Nov 15:00 meeting", "Done: Thursday November 26 at 3 pm meeting"),
        # Markup, lists, symbols, links and emoji are for the eye.
        ("**Done.** 100% & more 🎉", "Done. 100 percent and more"),
        ("- Buy milk\n- Call mom at 00:00", "Buy milk. Call mom at midnight"),
        ("See https://example.com/a?b=c for more", "See a link on screen for more"),
        # Words that merely look like hex are words; numbers stay numbers.
        ("Added cafe and 2 decades", "Added cafe and 2 decades"),
    ],
)
def test_spoken_form(reply: str, said: str) -> None:
    assert heard(reply) == said


def test_clock_and_day_words() -> None:
    assert [clock_words(h, m) for h, m in ((15, 0), (9, 30), (12, 0), (0, 0), (0, 5), (23, 59))] == [
        "3 pm",
        "9:30 am",
        "noon",
        "midnight",
        "12:05 am",
        "11:59 pm",
    ]
    today = NOW.date()
    assert day_words(today, today) == "today"
    assert day_words(today.replace(day=25), today) == "tomorrow"
    assert day_words(today.replace(day=29), today) == "Sunday"
    assert day_words(today.replace(day=30), today) == "Monday"
    assert day_words(today.replace(month=12, day=1), today) == "Tuesday, December 1"  # a week on: the date


def test_a_long_reply_is_cut_at_a_sentence_and_says_the_rest_is_shown() -> None:
    sentence = "This is a sentence of eight words in all. "
    said = heard(sentence * 30)
    assert said.endswith(REST_ON_SCREEN)
    body = said.removesuffix(REST_ON_SCREEN).strip()
    assert body.endswith("in all.") and len(body.split()) <= MAX_SPOKEN_WORDS


def test_five_thousand_characters_without_a_full_stop_are_cut_between_words() -> None:
    said = heard("word " * 1000)
    assert len(said.split()) <= MAX_SPOKEN_WORDS + len(REST_ON_SCREEN.split())
    assert said.endswith("word. " + REST_ON_SCREEN)


def test_a_short_reply_is_said_whole() -> None:
    assert heard("Nothing is due today.") == "Nothing is due today."


def test_phrases_start_with_a_short_one_for_a_quick_first_sound() -> None:
    assert phrases("Which milk, the oat milk or the regular one? Say it.") == [
        "Which milk,",
        "the oat milk or the regular one?",
        "Say it.",
    ]
    assert phrases("So, what now?") == ["So, what now?"]  # one word is not worth a phrase of its own
    assert phrases("") == []
