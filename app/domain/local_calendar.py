"""The user's calendar: the named days of their country ("on Thanksgiving"), and what hour "morning",
"evening" or "tonight" means to them."""

import locale
import re
from calendar import monthrange
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, time
from functools import lru_cache

from dateutil.easter import easter

# Days people name wherever they live, added when the country's list lacks them ("at Easter" in Germany,
# "on Halloween" in Britain): month-day, or None for Easter.
_WIDELY_NAMED: dict[str, tuple[int, int] | None] = {
    "Christmas Eve": (12, 24),
    "Christmas Day": (12, 25),
    "New Year's Eve": (12, 31),
    "New Year's Day": (1, 1),
    "Valentine's Day": (2, 14),
    "Halloween": (10, 31),
    "Easter Sunday": None,
}
# What people call a day for short: "Christmas" is Christmas Day, "Easter" Easter Sunday.
_SHORT_NAMES = {
    "christmas day": ("christmas", "xmas", "xmas day"),
    "new year's day": ("new year's", "new year"),
    "easter sunday": ("easter",),
    "thanksgiving day": ("thanksgiving",),
    "independence day": ("the fourth of july", "fourth of july", "the 4th of july", "4th of july"),
    "martin luther king jr. day": ("martin luther king day", "mlk day"),
    "christmas eve": ("xmas eve",),
    "saint patrick's day": ("st patrick's day", "st. patrick's day", "paddy's day"),
    "washington's birthday": ("presidents day", "presidents' day", "president's day"),
}
_CATEGORIES = ("public", "unofficial")  # the second adds Mother's Day, Halloween and the like where known
DayNames = dict[str, tuple[date, ...]]  # a day's name, lower case, and its dates in the years asked
PersonalDay = tuple[str, int, int]  # "my birthday", month, day: a day the user's memories name
MONTHS = "january february march april may june july august september october november december".split()
# A month as said or written short: "june", "jun", "sep", "sept", "september".
MONTH_NAME = "|".join(f"{m[:3]}(?:{m[3:]})?" for m in MONTHS) + "|sept"
# "my birthday is May 5", "Sam's birthday is on the 3rd of March", "my brother's wedding anniversary is June 12th".
_PERSONAL_DAY = re.compile(
    r"^(?P<name>(?:(?:my|our)\s+(?:[\w-]+'s\s+)?|[\w-]+'s\s+)(?:[\w-]+\s+)?(?:birthday|anniversary|name day))"
    r"\s+(?:is|falls)\s+"
    rf"(?:on\s+)?(?:the\s+)?(?:(?P<month>{MONTH_NAME})\s+(?:the\s+)?(?P<day>\d{{1,2}})(?:st|nd|rd|th)?"
    rf"|(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month2>{MONTH_NAME}))\b",
    re.IGNORECASE,
)


# Words for one person: "my mother's birthday" is the day remembered as "my mom's birthday".
_KIN = (
    ("mom", "mum", "mother", "mommy", "mummy", "mama", "ma"),
    ("dad", "father", "daddy", "papa", "pa"),
    ("grandma", "grandmother", "granny", "gran", "nana"),
    ("grandpa", "grandfather", "granddad", "grandad", "gramps"),
    ("brother", "bro"),
    ("sister", "sis"),
    ("husband", "hubby"),
    ("aunt", "auntie", "aunty"),
)


def personal_days(memories: Iterable[str]) -> tuple[PersonalDay, ...]:
    """The days the user's memories name, so "on my birthday" has a date, under each name the person goes by."""
    days: list[PersonalDay] = []
    for text in memories:
        if found := _PERSONAL_DAY.match(text.strip()):
            month = found["month"] or found["month2"]
            day = int(found["day"] or found["day2"])
            number = next(n for n, m in enumerate(MONTHS, 1) if m.startswith(month.lower()[:3]))
            if 1 <= day <= 31:
                days.extend((name, number, day) for name in _kin_names(found["name"].lower()))
    return tuple(days)


def _kin_names(name: str) -> tuple[str, ...]:
    """ "my mom's birthday" and the same day with the other words for her: "my mother's birthday", ..."""
    for words in _KIN:
        for word in words:
            if re.search(rf"\b{word}\b", name):
                return tuple(re.sub(rf"\b{word}\b", other, name) for other in words)
    return (name,)


def country_from_locale() -> str | None:
    """ "US" from en_US.UTF-8; None when the locale names no country (C, POSIX)."""
    name = locale.getlocale()[0] or ""
    found = re.match(r"^[a-z]{2,3}_([A-Z]{2})", name)
    return found.group(1) if found else None


def _country_days(country: str, years: tuple[int, ...]) -> dict[date, str]:
    import holidays  # loaded only when a date phrase could name a day

    try:
        supported = holidays.country_holidays(country).supported_categories
        categories = tuple(c for c in _CATEGORIES if c in supported)
        return dict(holidays.country_holidays(country, years=years, categories=categories, language="en_US"))
    except NotImplementedError:  # a country the library does not know: the widely named days only
        return {}


@lru_cache(maxsize=16)
def day_names(country: str | None, years: tuple[int, ...], personal: tuple[PersonalDay, ...] = ()) -> DayNames:
    """Each named day of `country` in `years`, by its name and its short names, in lower case, and the
    user's own ("my birthday"; Feb 29 falls on Feb 28 in other years)."""
    named: dict[str, set[date]] = {name: {_on(y, month, day) for y in years} for name, month, day in personal}
    for day, names in _country_days(country, years).items() if country else ():
        for name in names.split("; "):
            if "(observed)" not in name:
                named.setdefault(name.lower(), set()).add(day)
    for name, month_day in _WIDELY_NAMED.items():
        if name.lower() not in named:
            named[name.lower()] = {easter(y) if month_day is None else date(y, *month_day) for y in years}
    for full, shorts in _SHORT_NAMES.items():
        for short in shorts:
            if full in named:
                named.setdefault(short, named[full])
    return {name: tuple(sorted(days)) for name, days in named.items()}


def _on(year: int, month: int, day: int) -> date:
    return date(year, month, min(day, monthrange(year, month)[1]))


@dataclass(frozen=True)
class LocalCalendar:
    """Where the user lives (for its named days) and the hours of the day's parts, from the settings."""

    country: str | None = None
    morning: time = time(8, 0)
    afternoon: time = time(14, 0)
    evening: time = time(19, 0)
    night: time = time(21, 0)
    personal: tuple[PersonalDay, ...] = ()  # from the user's memories, for the run at hand

    def part_of_day(self, word: str) -> time:
        """The hour "morning", "afternoon", "evening", "night" or "tonight" means."""
        word = word.lower()
        if word in ("tonight", "night"):
            return self.night
        return {"morning": self.morning, "afternoon": self.afternoon, "evening": self.evening}[word]

    def named_days(self, years: tuple[int, ...]) -> DayNames:
        return day_names(self.country, years, self.personal)
