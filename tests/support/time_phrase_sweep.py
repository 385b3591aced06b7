"""Time phrases said inside ordinary sentences, read at every hour of many days, and the rules every reading
must keep whatever the sentence: what each phrase means is worked out here from the calendar alone, never
from the code under test.

The days: a whole week, two months' ends, a year's end, the 1st of a month, and the days around the
daylight-saving changes of Europe/Berlin and America/New_York. The grid (`readings`) says each phrase at
every hour, on the hour and at :55; `full=True` says it on every day too, `full=False` rotates the days
(and the numbers said) with the hour, so every phrase still meets every day and every hour.
"""

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from dateutil.relativedelta import FR, MO, relativedelta, weekday

from app.changes.interpretation import InterpretContext
from app.domain.actions import CreateAction
from app.domain.clock import Clock
from app.domain.dates import resolve_due
from app.domain.local_calendar import LocalCalendar
from app.domain.spoken_numbers import CARDINALS
from app.offline import OfflineInterpreter

BERLIN = ZoneInfo("Europe/Berlin")
NEW_YORK = ZoneInfo("America/New_York")
CALENDAR = LocalCalendar()  # morning 08:00, evening 19:00, night 21:00
SENTENCES = ("feed the cat {}", "remind me to call grandma {}")
MINUTES = (0, 55)
DAYS: tuple[tuple[date, ZoneInfo], ...] = (
    *((date(2027, 6, 14) + timedelta(days=n), (BERLIN, NEW_YORK)[n % 2]) for n in range(7)),  # Monday to Sunday
    (date(2027, 4, 30), BERLIN),  # a month's end
    (date(2027, 2, 28), NEW_YORK),  # February's end
    (date(2027, 9, 1), NEW_YORK),  # the 1st
    (date(2027, 12, 31), BERLIN),  # a year's end
    (date(2027, 3, 27), BERLIN),  # the day before summer time, and its first day
    (date(2027, 3, 28), BERLIN),
    (date(2027, 10, 30), BERLIN),
    (date(2027, 10, 31), BERLIN),
    (date(2027, 3, 13), NEW_YORK),
    (date(2027, 3, 14), NEW_YORK),
    (date(2027, 11, 6), NEW_YORK),
    (date(2027, 11, 7), NEW_YORK),
)
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBER_WORDS = {n: word for word, n in CARDINALS.items()}
DEFAULT_TIME = time(9, 0)  # a day said without a time
END_OF_DAY = time(17, 0)  # the end of a month is its close of business

# The rules a reading must keep.
READ = "a due is read"
AHEAD = "due after the moment of speaking"
CLOCK_NOT_DATE = "'at N' is an hour, never a month or a day"
HALF_OF_DAY = "a morning word says am, an evening or night word pm"
TIME_KEPT = "the time said is the time due"
TONIGHT_IS_TODAY = "tonight and this evening are today"
NEAR_DAY_NAMED = "due at most 7 days past the day named"
TODAY_STAYS_TODAY = "'today' late at night is still today"
OUT_OF_TITLE = "the time phrase leaves the title"
RULES = (
    READ,
    AHEAD,
    CLOCK_NOT_DATE,
    HALF_OF_DAY,
    TIME_KEPT,
    TONIGHT_IS_TODAY,
    NEAR_DAY_NAMED,
    TODAY_STAYS_TODAY,
    OUT_OF_TITLE,
)


@dataclass(frozen=True)
class Meant:
    """What a phrase means said at a naive local now."""

    day: date  # the day it names: the earliest it can mean
    at: time | None = None  # the time of day it says in full ("tonight at 11" is 23:00)
    dial: tuple[int, int] | None = None  # a clock time with no am or pm: the hour on the dial (12 is 0), minutes
    half: str | None = None  # "am" or "pm", when a word of the phrase says which
    today: bool = False  # "today", "tonight", "this evening": due today, or tomorrow only at a said time passed


@dataclass(frozen=True)
class PhraseKind:
    """One way of saying when: its words for a number (an hour or a weekday), and what they mean at a now."""

    name: str
    numbers: tuple[int, ...]
    words: Callable[[int], str]
    meant: Callable[[int, datetime], Meant]


def _spoken(n: int) -> str:
    """Digits or words, alternately, as recognizers write them."""
    return str(n) if n % 2 else _NUMBER_WORDS[n]


def _next_weekday(today: date, day: int) -> date:
    return today + timedelta(days=(day - today.weekday()) % 7)


def _tomorrow(now: datetime) -> date:
    return now.date() + timedelta(days=1)


def _month_end(now: datetime) -> date:
    """The last day of this month, or of the next once this one's close of business is past."""
    last = now.date() + relativedelta(day=31)
    return last if datetime.combine(last, END_OF_DAY) > now else now.date() + relativedelta(months=1, day=31)


def _first_of_month(now: datetime) -> date:
    return now.date() if now.day == 1 else now.date() + relativedelta(months=1, day=1)


def _first_weekday_of_month(day: weekday, now: datetime) -> date:
    this_month = now.date() + relativedelta(day=1, weekday=day(1))
    return this_month if this_month >= now.date() else now.date() + relativedelta(months=1, day=1, weekday=day(1))


def _day_at(day: date, at: time, now: datetime) -> Meant:
    """A day said without a time: 09:00, or no time to check once that has passed today."""
    return Meant(day, at if datetime.combine(day, at) > now else None)


def _today_part(at: time, now: datetime) -> Meant:
    """ "tonight": its hour today, or later today (no hour to check) once that has passed."""
    return Meant(now.date(), at if datetime.combine(now.date(), at) > now else None, half="pm", today=True)


def _pm(hour: int) -> time:
    return time(hour % 12 + 12)


KINDS: tuple[PhraseKind, ...] = (
    PhraseKind("tonight", (0,), lambda n: "tonight", lambda n, now: _today_part(CALENDAR.night, now)),
    PhraseKind("this evening", (0,), lambda n: "this evening", lambda n, now: _today_part(CALENDAR.evening, now)),
    PhraseKind("tomorrow morning", (0,), lambda n: "tomorrow morning",
               lambda n, now: Meant(_tomorrow(now), CALENDAR.morning, half="am")),
    PhraseKind("tomorrow evening", (0,), lambda n: "tomorrow evening",
               lambda n, now: Meant(_tomorrow(now), CALENDAR.evening, half="pm")),
    PhraseKind("tomorrow night", (0,), lambda n: "tomorrow night",
               lambda n, now: Meant(_tomorrow(now), CALENDAR.night, half="pm")),
    PhraseKind("today", (0,), lambda n: "today",
               lambda n, now: replace(_day_at(now.date(), DEFAULT_TIME, now), today=True)),
    PhraseKind("at N", tuple(range(1, 13)), lambda n: f"at {n}", lambda n, now: Meant(now.date(), dial=(n % 12, 0))),
    PhraseKind("N o'clock", tuple(range(1, 13)), lambda n: f"at {_spoken(n)} o'clock",
               lambda n, now: Meant(now.date(), dial=(n % 12, 0))),
    PhraseKind("N pm", tuple(range(1, 12)), lambda n: f"at {n} pm" if n % 2 else f"{n}pm",
               lambda n, now: Meant(now.date(), _pm(n), (n, 0), "pm")),
    PhraseKind("half past N", tuple(range(1, 13)), lambda n: f"half past {_spoken(n)}",
               lambda n, now: Meant(now.date(), dial=(n % 12, 30))),
    PhraseKind("quarter to N", tuple(range(1, 13)), lambda n: f"at quarter to {_spoken(n)}",
               lambda n, now: Meant(now.date(), dial=((n - 1) % 12, 45))),
    PhraseKind("quarter past N", tuple(range(1, 13)), lambda n: f"quarter past {_spoken(n)}",
               lambda n, now: Meant(now.date(), dial=(n % 12, 15))),
    PhraseKind("24-hour time", tuple(range(13, 24)), lambda n: f"at {n}:30" if n % 2 else f"{n}:30",
               lambda n, now: Meant(now.date(), time(n, 30))),
    PhraseKind("after lunch", (0,), lambda n: "after lunch", lambda n, now: Meant(now.date(), time(13, 0))),
    PhraseKind("end of the month", (0, 1), lambda n: ("by the end of the month", "at the end of the month")[n],
               lambda n, now: Meant(_month_end(now), END_OF_DAY)),
    PhraseKind("the 1st", (0,), lambda n: "on the 1st",
               lambda n, now: _day_at(_first_of_month(now), DEFAULT_TIME, now)),
    PhraseKind("a week from a weekday", tuple(range(7)), lambda n: f"a week from {_WEEKDAYS[n]}",
               lambda n, now: Meant(_next_weekday(now.date(), n) + timedelta(days=7), DEFAULT_TIME)),
    PhraseKind("first weekday of the month", (0, 4), lambda n: f"on the first {_WEEKDAYS[n]} of the month",
               lambda n, now: _day_at(_first_weekday_of_month((MO, FR)[n // 4], now), DEFAULT_TIME, now)),
    PhraseKind("every other weekday", tuple(range(7)), lambda n: f"every other {_WEEKDAYS[n]}",
               lambda n, now: Meant(_next_weekday(now.date(), n), DEFAULT_TIME)),
    PhraseKind("at N tomorrow morning", tuple(range(6, 12)), lambda n: f"at {_spoken(n)} tomorrow morning",
               lambda n, now: Meant(_tomorrow(now), time(n), (n, 0), "am")),
    PhraseKind("tomorrow morning at N", tuple(range(6, 12)), lambda n: f"tomorrow morning at {n}",
               lambda n, now: Meant(_tomorrow(now), time(n), (n, 0), "am")),
    PhraseKind("tomorrow night at N", tuple(range(8, 12)), lambda n: f"tomorrow night at {n}",
               lambda n, now: Meant(_tomorrow(now), _pm(n), (n, 0), "pm")),
    PhraseKind("at N tomorrow night", tuple(range(8, 12)), lambda n: f"at {_spoken(n)} tomorrow night",
               lambda n, now: Meant(_tomorrow(now), _pm(n), (n, 0), "pm")),
    PhraseKind("tomorrow evening at N", tuple(range(5, 12)), lambda n: f"tomorrow evening at {n}",
               lambda n, now: Meant(_tomorrow(now), _pm(n), (n, 0), "pm")),
    PhraseKind("tomorrow at N in the morning", tuple(range(6, 12)), lambda n: f"tomorrow at {n} in the morning",
               lambda n, now: Meant(_tomorrow(now), time(n), (n, 0), "am")),
    PhraseKind("a weekday at N in the evening", tuple(range(7)),
               lambda n: f"on {_WEEKDAYS[n]} at {n + 5} in the evening",
               lambda n, now: Meant(_next_weekday(now.date(), n), _pm(n + 5), (n + 5, 0), "pm")),
    PhraseKind("tonight at N", tuple(range(7, 12)), lambda n: f"tonight at {n}" if n % 2 else f"tonight at {n}pm",
               lambda n, now: Meant(now.date(), _pm(n), (n, 0), "pm", today=True)),
    PhraseKind("at N tonight", tuple(range(7, 12)), lambda n: f"at {_spoken(n)} tonight",
               lambda n, now: Meant(now.date(), _pm(n), (n, 0), "pm", today=True)),
    PhraseKind("this evening at N", tuple(range(5, 11)), lambda n: f"this evening at {n}",
               lambda n, now: Meant(now.date(), _pm(n), (n, 0), "pm", today=True)),
)  # fmt: skip


@dataclass(frozen=True)
class Reading:
    """One sentence said at one moment, and what came of it."""

    kind: PhraseKind
    phrase: str
    sentence: str
    clock: Clock
    summary: str | None
    due: datetime | None  # naive local

    @property
    def now(self) -> datetime:
        return self.clock.now.astimezone(self.clock.tz).replace(tzinfo=None)

    def __str__(self) -> str:
        due = f"{self.due:%a %Y-%m-%d %H:%M}" if self.due else "no due"
        return f"{self.sentence!r} at {self.now:%a %Y-%m-%d %H:%M} {self.clock.tz}: {due}, title {self.summary!r}"


_INTERPRETER = OfflineInterpreter()


def read(kind: PhraseKind, number: int, sentence: str, clock: Clock) -> Reading:
    """The entry the offline rules make of `sentence` with `kind`'s words for `number`, its due as the
    executor resolves it."""
    phrase = kind.words(number)
    said = sentence.format(phrase)
    result = _INTERPRETER.interpret(said, InterpretContext(entries=[], clock=clock))
    # A time of today already past is asked about ("tonight at 9" at 21:55): the reading offered is what it read.
    offered = [action for choice in result.choices for action in choice.actions] if not result.actions else []
    creates = [action for action in [*result.actions, *offered] if isinstance(action, CreateAction)]
    if len(creates) != 1:
        return Reading(kind, phrase, said, clock, None, None)
    due = resolve_due(creates[0].due_text, clock) if creates[0].due_text else None
    local = due.astimezone(clock.tz).replace(tzinfo=None) if due else None
    return Reading(kind, phrase, said, clock, creates[0].summary, local)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[\w']+", text.lower()))


def _said_time(meant: Meant, due: datetime) -> bool:
    """Whether `due` is at the time the phrase says, on its day or (a time of today already past) the next."""
    return meant.at is None or due.time() == meant.at


def _tonight_kept(meant: Meant, due: datetime, now: datetime) -> bool:
    """Due today; or tomorrow at the time said, when that time of today had passed."""
    if due.date() == now.date():
        return True
    if meant.at is None:
        return False
    said_today = datetime.combine(now.date(), meant.at)
    return said_today <= now and due == said_today + timedelta(days=1)


def broken_rules(reading: Reading, meant: Meant) -> list[str]:
    """The rules `reading` breaks."""
    due, now = reading.due, reading.now
    if due is None:
        return [READ]
    today = reading.kind.name == "today"
    broken = []
    if due < now if today else due <= now:  # "today" at 23:59 may be due that very minute
        broken.append(AHEAD)
    days_past = (due.date() - meant.day).days
    if not 0 <= days_past <= 7:
        broken.append(NEAR_DAY_NAMED)
    if meant.dial is not None and ((due.hour % 12, due.minute) != meant.dial or not 0 <= days_past <= 7):
        broken.append(CLOCK_NOT_DATE)
    if meant.half is not None and (due.hour < 12) != (meant.half == "am"):
        broken.append(HALF_OF_DAY)
    if not _said_time(meant, due):
        broken.append(TIME_KEPT)
    if meant.today and not today and not _tonight_kept(meant, due, now):
        broken.append(TONIGHT_IS_TODAY)
    if today and due.date() != now.date():
        broken.append(TODAY_STAYS_TODAY)
    sentence_words = _words(reading.sentence.replace(reading.phrase, ""))
    if (_words(reading.phrase) - sentence_words) & _words(reading.summary or ""):
        broken.append(OUT_OF_TITLE)
    return broken


def clock_at(day: date, tz: ZoneInfo, hour: int, minute: int) -> Clock:
    """The moment the local clock shows hour:minute on `day` (the hour after, when that hour is skipped)."""
    moment = datetime.combine(day, time(hour, minute), tzinfo=tz).astimezone(UTC).astimezone(tz)
    return Clock(now=moment, tz=tz, calendar=CALENDAR)


@dataclass(frozen=True)
class Said:
    kind: PhraseKind
    number: int
    sentence: str
    clock: Clock


def grid(kind: PhraseKind, full: bool) -> Iterator[Said]:
    """Every hour on the hour and at :55; on every day (`full`) or on a day turning with the hour."""
    offset = KINDS.index(kind) * 5
    for hour in range(24):
        for m, minute in enumerate(MINUTES):
            turn = offset + hour * len(MINUTES) + m
            days = DAYS if full else (DAYS[turn % len(DAYS)],)
            for d, (day, tz) in enumerate(days):
                number = kind.numbers[(turn + d) % len(kind.numbers)]
                sentence = SENTENCES[(turn + d) % len(SENTENCES)]
                yield Said(kind, number, sentence, clock_at(day, tz, hour, minute))


def sweep(kind: PhraseKind, full: bool = False) -> Iterator[tuple[Reading, list[str]]]:
    """Each reading of `kind` on the grid, with the rules it breaks."""
    for said in grid(kind, full):
        reading = read(kind, said.number, said.sentence, said.clock)
        yield reading, broken_rules(reading, kind.meant(said.number, reading.now))
