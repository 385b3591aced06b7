"""The answers in words: one line, entries by summary with a short time ("Haircut (Sat 10:30)")."""

from collections.abc import Sequence
from datetime import datetime

from app.domain.checklist import items_of
from app.domain.clock import Clock
from app.domain.recurrence import describe
from app.domain.summaries import clipped
from app.offline.answers.asking import Reply
from app.offline.answers.periods import Ask, Period
from app.offline.answers.searching import Hit
from app.offline.answers.timing import Dated, time_from
from app.store.models import Entry

SHOWN = 5
NEXT_SHOWN = 3  # "what's next" is the next few things, not the whole list
_NEAR_DAYS = 6  # within this many days a weekday names the day; further off, the date does
_SAID_SHOWN = 60


def _days_away(moment: datetime, clock: Clock) -> int:
    return (moment.astimezone(clock.tz).date() - clock.now.astimezone(clock.tz).date()).days


def short_when(due: datetime, clock: Clock) -> str:
    """ "18:00" today, "Sat 10:30" this week or last, "Dec 3 10:30" further off."""
    local, away = due.astimezone(clock.tz), _days_away(due, clock)
    if away == 0:
        return f"{local:%H:%M}"
    return f"{local:%a %H:%M}" if abs(away) <= _NEAR_DAYS else f"{local:%b} {local.day} {local:%H:%M}"


def long_when(due: datetime, clock: Clock) -> str:
    """ "today at 18:00", "tomorrow at 15:00", "Sat Nov 28 at 10:30"."""
    local = due.astimezone(clock.tz)
    day = {0: "today", 1: "tomorrow", -1: "yesterday"}.get(_days_away(due, clock))
    return f"{day or f'{local:%a %b} {local.day}'} at {local:%H:%M}"


def _listing(dated: Sequence[Dated], clock: Clock) -> str:
    named = [f"{entry.summary} ({short_when(due, clock)})" for due, entry in dated[:SHOWN]]
    more = f", and {len(dated) - SHOWN} more" if len(dated) > SHOWN else ""
    return ", ".join(named) + more


def period_answer(period: Period, dated: Sequence[Dated], late: Sequence[Dated], clock: Clock) -> str:
    """What falls in the period (`dated`), and for a question about the days at hand what is `late`."""
    if period.ask is Ask.OVERDUE:
        return f"Overdue: {_listing(dated, clock)}." if dated else "Nothing is overdue."
    if period.ask is Ask.NEXT:
        return f"Next: {_listing(dated[:NEXT_SHOWN], clock)}." if dated else "Nothing is coming up."
    head = "Still due" if period.still else "Due"
    answer = f"{head} {period.label}: {_listing(dated, clock)}." if dated else f"Nothing is due {period.label}."
    if period.still and not dated:
        answer = f"Nothing else is due {period.label}."
    return answer + (f" Also overdue: {_listing(late, clock)}." if period.with_overdue and late else "")


def entry_due(entry: Entry, clock: Clock) -> str:
    """ "Sat Nov 28 at 10:30", "tomorrow at 07:00 (every Monday, Wednesday and Friday)", "every Tuesday", "no due
    date"."""
    if entry.due_at is None:
        return describe(entry.recurrence) if entry.recurrence else "no due date"
    if entry.recurrence:
        turn = time_from(entry, clock.now, clock) or entry.due_at
        return f"{long_when(turn, clock)} ({describe(entry.recurrence)})"
    if entry.due_at < clock.now:
        return f"overdue since {long_when(entry.due_at, clock)}"
    return long_when(entry.due_at, clock)


def _with_snooze(entry: Entry, clock: Clock) -> str:
    due = entry_due(entry, clock)
    if entry.snooze_until is None or entry.snooze_until <= clock.now:
        return due
    return f"{due}, snoozed until {long_when(entry.snooze_until, clock)}"


def entries_answer(entries: Sequence[Entry], clock: Clock, reply: Reply) -> str:
    """When the entries named are due, said as `reply` to the question when it named just one."""
    if reply is Reply.YES and len(entries) == 1:
        return f"Yes, {entries[0].summary} is on your list ({_with_snooze(entries[0], clock)})."
    return "; ".join(f"{entry.summary}: {_with_snooze(entry, clock)}" for entry in entries) + "."


def not_listed(said: str) -> str:
    return f"No, '{clipped(said.strip(), _SAID_SHOWN)}' is not on your list."


def nothing_about(said: str) -> str:
    """To a question about the user's own list that names nothing on it ("did I call the vet?")."""
    return f"Nothing on your list matches '{clipped(said.strip(), _SAID_SHOWN)}'."


def _progress(hit: Hit, clock: Clock) -> str:
    entry, item = hit.entry, hit.item
    if item is not None:
        if item.done:
            return f"Yes, {item.text} is ticked off on {entry.summary}"
        return f"Not yet: {item.text} is still open on {entry.summary}"
    if hit.done:
        return f"Yes, {entry.summary} is done"
    if items := items_of(entry.summary, entry.items):  # a list is done when every item is
        return f"{'Yes' if all(i.done for i in items) else 'Not yet'}: {list_contents(entry, clock)}"
    return f"Not yet: {entry.summary} is still on your list ({_with_snooze(entry, clock)})"


def progress_answer(hits: Sequence[Hit], clock: Clock) -> str:
    """Whether each entry (or checklist item) asked about is done."""
    return "; ".join(_progress(hit, clock) for hit in hits[:SHOWN]) + "."


def list_contents(entry: Entry, clock: Clock) -> str:
    """ "Packing list: charger, socks (passport done)": what is still to do on a list."""
    items = items_of(entry.summary, entry.items)
    left, done = [i.text for i in items if not i.done], [i.text for i in items if i.done]
    if not items:
        return kept_text(entry, clock)
    if not left:
        return f"Everything on {entry.summary} is done"
    return f"{entry.summary}: {', '.join(left)}" + (f" ({', '.join(done)} done)" if done else "")


def kept_text(entry: Entry, clock: Clock) -> str:
    """What a note or idea says: its summary, and the rest of its words when they say more; when it is due."""
    content = entry.content.strip()
    says_more = bool(content) and entry.summary not in content
    text = f"{entry.summary}: {content}" if says_more else content or entry.summary
    return f"{text} ({entry_due(entry, clock)})" if entry.due_at or entry.recurrence else text


def lines(texts: Sequence[str]) -> str:
    return "; ".join(texts[:SHOWN]) + "."
