"""The "now" and the timezone that every date of one run is resolved against."""

import os
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import tzlocal

from app.domain.local_calendar import LocalCalendar
from app.errors import UsageError

DEFAULT_CALENDAR = LocalCalendar()


@dataclass(frozen=True)
class Clock:
    now: datetime
    tz: ZoneInfo
    languages: tuple[str, ...] = ("en",)  # what due phrases may be said in: the dictation language
    calendar: LocalCalendar = DEFAULT_CALENDAR  # named days and the hours of the day's parts

    @classmethod
    def system(
        cls,
        tz: ZoneInfo | None = None,
        languages: tuple[str, ...] = ("en",),
        calendar: LocalCalendar = DEFAULT_CALENDAR,
    ) -> "Clock":
        zone = tz or user_timezone()
        return cls(now=datetime.now(zone), tz=zone, languages=languages, calendar=calendar)


def user_timezone() -> ZoneInfo:
    """MURMUR_TZ if set (an IANA name like Europe/Berlin), else the system's zone."""
    name = os.environ.get("MURMUR_TZ", "").strip()
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            raise UsageError(f"MURMUR_TZ={name!r} is not a known timezone (use a name like Europe/Berlin)") from None
    zone = tzlocal.get_localzone()
    return zone if isinstance(zone, ZoneInfo) else ZoneInfo(str(zone))
