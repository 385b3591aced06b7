"""Questions the rules answer from the list itself, changing nothing: what falls in a period ("anything on
Saturday?", "what's left today", "what's next", "what's overdue"), and when one entry is due ("when's my
haircut", "do I still have to call mom"). A question about the world ("what time does the post office open
on Monday?") names no entry and no list word: it is left to the rules, which keep it as a Question."""

from collections.abc import Sequence

from app.domain.clock import Clock
from app.offline.answers.asking import Question, Reply, read_question
from app.offline.answers.periods import Ask, Period, read_period, today_period
from app.offline.answers.timing import falling_in, overdue
from app.offline.answers.wording import entries_answer, not_listed, period_answer
from app.offline.matching import EntryIndex
from app.store.models import Entry


def _about_period(period: Period, entries: Sequence[Entry], clock: Clock) -> str:
    if period.ask is Ask.OVERDUE:
        return period_answer(period, overdue(entries, clock.now), [], clock)
    dated = falling_in(entries, period.start, period.end, clock)
    return period_answer(period, dated, overdue(entries, min(period.start, clock.now)), clock)


def _about_entry(question: Question, named: str, entries: Sequence[Entry], clock: Clock) -> str | None:
    """When the entry `named` is due (each of several alike); "not on your list" only to a question
    asking whether it still is."""
    found = EntryIndex(entries).find(named)
    chosen = [found.entry] if found.entry is not None else list(found.candidates)
    if chosen:
        return entries_answer(chosen, clock, question.reply)
    return not_listed(named) if question.reply is Reply.YES and question.keeps_list else None


def answer_question(text: str, entries: Sequence[Entry], clock: Clock) -> str | None:
    """The answer to a question about the open `entries`; None when `text` is not one."""
    question = read_question(text)
    if question is None:
        return None
    period = read_period(question.text, clock)
    said = period.said if period else ""
    if not question.words_left(said, naming_entry=False) and (period or question.lists_things):
        return _about_period(period or today_period(clock), entries, clock)
    if question.about_entry and (named := question.words_left(said, naming_entry=True)):
        if (answer := _about_entry(question, named, entries, clock)) is not None:
            return answer
    return _about_period(period, entries, clock) if period and question.lists_things else None
