"""Questions the rules answer from the list itself, changing nothing: what falls in a period ("anything on
Saturday?", "am I free friday afternoon", "what's overdue"), when one entry is due or how it repeats ("when's
my haircut", "is swimming mondays or fridays"), what is still on a named list, whether something is done ("did
I book the flights"), every open entry of a sort ("which emails do I still have to send") and what a note says
("what's the wifi password again"). A question about the world ("what time does the post office open on
Monday?") names no entry: it is left to the rules, which keep it as a Question."""

from collections.abc import Sequence

from app.domain.clock import Clock
from app.offline.answers.asking import Question, Reply, read_question
from app.offline.answers.kinds import read_kind
from app.offline.answers.lookup import look_up
from app.offline.answers.periods import Ask, Period, read_period, today_period
from app.offline.answers.searching import search
from app.offline.answers.timing import falling_in, overdue
from app.offline.answers.wording import entries_answer, not_listed, nothing_about, period_answer
from app.offline.answers.words import content_words
from app.offline.matching import EntryIndex
from app.store.models import Entry


def _about_period(period: Period, entries: Sequence[Entry], clock: Clock) -> str:
    if period.ask is Ask.OVERDUE:
        return period_answer(period, overdue(entries, clock.now), [], clock)
    dated = falling_in(entries, period.start, period.end, clock)
    return period_answer(period, dated, overdue(entries, min(period.start, clock.now)), clock)


def _about_entry(question: Question, named: str, entries: Sequence[Entry], clock: Clock) -> str | None:
    """When the entry `named` is due (each of several alike); "not on your list" only to a question
    asking whether it still is. The rules' own match first, then the words in any of their forms
    ("when are the windows getting cleaned": "Window cleaning")."""
    found = EntryIndex(entries).find(named)
    chosen = [found.entry] if found.entry is not None else list(found.candidates)
    chosen = chosen or [hit.entry for hit in search(content_words(named), entries, open_only=True)]
    if chosen:
        return entries_answer(chosen, clock, question.reply)
    return not_listed(named) if question.reply is Reply.YES and question.keeps_list else None


def _put_to_list(question: Question, period: Period | None, entries: Sequence[Entry], clock: Clock) -> str | None:
    """The answer to a question of one of the kinds the list answers by its words; for one in the first
    person that matches nothing, saying so; None for any other question."""
    reading = read_kind(question, period.said if period else "")
    if reading is None or not reading.subject:  # "is it done": which entry is for the rules to say
        return None
    if (answer := look_up(reading, entries, period, clock)) is not None:
        return answer
    return nothing_about(reading.subject) if reading.about_list else None


def answer_question(text: str, entries: Sequence[Entry], clock: Clock) -> str | None:
    """The answer to a question about `entries` (open, and any done ones given); None when `text` is not one."""
    question = read_question(text)
    if question is None:
        return None
    period = read_period(question.text, clock)
    said = period.said if period else ""
    if not question.words_left(said, naming_entry=False) and (period or question.lists_things):
        return _about_period(period or today_period(clock), entries, clock)
    if (answer := _put_to_list(question, period, entries, clock)) is not None:
        return answer
    about_entry = question.about_entry or question.asks_repeat
    if about_entry and (named := question.words_left(said, naming_entry=True)):
        if (answer := _about_entry(question, named, entries, clock)) is not None:
            return answer
    return _about_period(period, entries, clock) if period and question.lists_things else None
