"""The fixed moment and timezone every test's dates are read against."""

from datetime import datetime
from zoneinfo import ZoneInfo

from app.domain.clock import Clock

BERLIN = ZoneInfo("Europe/Berlin")
# A Sunday evening: "Thursday" is 4 days ahead, "at 5pm" is tomorrow.
FIXED_NOW = datetime(2026, 11, 22, 18, 30, tzinfo=BERLIN)
FIXED_CLOCK = Clock(now=FIXED_NOW, tz=BERLIN)
