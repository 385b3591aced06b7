"""A reply made fit for the ear: no IDs, no markup, placeholders and dates in words, a length a listener keeps.

The screen shows the whole reply; what is spoken is this shorter form ("Call the dentist (bb14b1, due
2026-11-26T15:00)" is heard as "Call the dentist, due Thursday at 3 pm").
"""

import re
from datetime import date, datetime
from zoneinfo import ZoneInfo

MAX_SPOKEN_WORDS = 60  # about 20 seconds: longer is better read than heard
REST_ON_SCREEN = "The rest is on screen."

# Redaction's placeholders ("[card number]") as a person says them: the secret is the user's own.
_PLACEHOLDER_WORDS = {
    "card number": "card number",
    "iban": "bank account number",
    "api key": "API key",
    "password": "password",
    "id number": "ID number",
}
_PLACEHOLDER = re.compile(
    r"(?:\b(your|my|the|a) +)?\[(" + "|".join(re.escape(k) for k in _PLACEHOLDER_WORDS) + r")\]", re.IGNORECASE
)
# Entry IDs: a hex run in brackets ("(bb14b1)", "[3fa1b2]", "(ID 3fa1b2)"), or a bare one with a digit and a letter.
_HEX = r"(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{4,12}"
_BRACKETED_ID = re.compile(rf"\s*[(\[](?:id:?\s*)?{_HEX}[)\]]", re.IGNORECASE)
_ID_IN_BRACKETS = re.compile(rf"(?:,\s*)?\b(?:id:?\s*)?{_HEX}\b(?:,\s*)?", re.IGNORECASE)
_BARE_ID = re.compile(rf"\b(?:id:?\s*)?{_HEX}\b", re.IGNORECASE)
_URL = re.compile(r"\bhttps?://\S+|\bwww\.\S+", re.IGNORECASE)
_MARKUP = re.compile(r"[*_`#>]+|^\s*[-•]\s+|^\s*\d+[.)]\s+", re.MULTILINE)
_NOT_SAID = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]")  # emoji and dingbats

_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b")
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = "january february march april may june july august september october november december".split()
_SHORT_DAY = re.compile(r"\b(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b\.?", re.IGNORECASE)
_SHORT_MONTH = re.compile(r"\b(jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b\.?", re.IGNORECASE)
_DAY_MONTH = re.compile(r"\b(\d{1,2}) (" + "|".join(m.capitalize() for m in _MONTHS) + r")\b")
_CLOCK = re.compile(r"\b([01]?\d|2[0-3]):([0-5]\d)\b(?!\s*(?:am|pm|a\.m\.|p\.m\.))", re.IGNORECASE)
# "Thursday 15:00", "November 26 15:00": a day right before a time is heard with "at" between.
_DAY_THEN_CLOCK = re.compile(r"\b([A-Z][a-z]+day|[Tt]oday|[Tt]omorrow|\d{1,2}),? (?=(?:[01]?\d|2[0-3]):[0-5]\d\b)")
_SENTENCE = re.compile(r"[^.!?]+(?:[.!?]+|$)")


def clock_words(hour: int, minute: int) -> str:
    """15:00 as "3 pm", 09:30 as "9:30 am", 12:00 as "noon": how a person says a time."""
    if minute == 0 and hour in (0, 12):
        return "midnight" if hour == 0 else "noon"
    suffix = "am" if hour < 12 else "pm"
    twelve = hour % 12 or 12
    return f"{twelve} {suffix}" if minute == 0 else f"{twelve}:{minute:02d} {suffix}"


def day_words(day: date, today: date) -> str:
    """A day as said from `today`: "today", "tomorrow", "Thursday" within the week, else "Thursday, November 26"."""
    gap = (day - today).days
    if gap == 0:
        return "today"
    if gap == 1:
        return "tomorrow"
    if gap == -1:
        return "yesterday"
    weekday = _DAYS[day.weekday()].capitalize()
    if 1 < gap < 7:
        return weekday
    said = f"{weekday}, {_MONTHS[day.month - 1].capitalize()} {day.day}"
    return said if day.year == today.year else f"{said}, {day.year}"


def _iso_words(found: re.Match[str], now: datetime, tz: ZoneInfo) -> str:
    year, month, day, hour, minute = found.groups()
    try:
        moment = datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0))
    except ValueError:
        return found.group()
    text = found.group()
    if hour is not None and (text.endswith("Z") or re.search(r"[+-]\d{2}:?\d{2}$", text)):
        moment = datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(tz).replace(tzinfo=None)
    said = day_words(moment.date(), now.astimezone(tz).date())
    return said if hour is None else f"{said} at {clock_words(moment.hour, moment.minute)}"


def _short_day(found: re.Match[str]) -> str:
    prefix = found.group(1).lower()[:3]
    return next(d for d in _DAYS if d.startswith(prefix)).capitalize()


def _short_month(found: re.Match[str]) -> str:
    prefix = found.group(1).lower()[:3]
    return next(m for m in _MONTHS if m.startswith(prefix)).capitalize()


def _placeholder(found: re.Match[str]) -> str:
    owner = found.group(1)
    words = _PLACEHOLDER_WORDS[found.group(2).lower()]
    return f"{owner} {words}" if owner and owner.lower() in ("your", "my") else f"your {words}"


def _without_ids(text: str) -> str:
    text = _BRACKETED_ID.sub("", text)
    # "(bb14b1, due Thursday)": the ID goes, the rest of the brackets stays.
    text = re.sub(r"\(([^()]*)\)", lambda m: "(" + _ID_IN_BRACKETS.sub("", m.group(1)).strip() + ")", text)
    return _BARE_ID.sub("", text).replace("()", "")


def _dates_in_words(text: str, now: datetime, tz: ZoneInfo) -> str:
    text = _ISO.sub(lambda found: _iso_words(found, now, tz), text)
    text = re.sub(r"\b(?:at|on) (today|tomorrow|yesterday)\b", r"\1", text)  # "at 2026-11-24": not "at today"
    text = re.sub(r"\bat (?=(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b)", "on ", text)  # "on Thursday"
    text = _SHORT_DAY.sub(_short_day, text)
    text = _SHORT_MONTH.sub(_short_month, text)
    text = _DAY_MONTH.sub(lambda m: f"{m.group(2)} {m.group(1)}", text)  # "26 November": "November 26"
    text = _DAY_THEN_CLOCK.sub(r"\1 at ", text)
    return _CLOCK.sub(lambda m: clock_words(int(m.group(1)), int(m.group(2))), text)


def _tidy(text: str) -> str:
    text = re.sub(r"\(\s*\)", "", text)
    text = re.sub(r"\(([^()]*)\)", r", \1,", text)  # brackets are heard as a pause
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    text = re.sub(r",\s*([,.;:!?])", r"\1", text)
    text = re.sub(r"([,;]|:(?!\d))(?=\S)", r"\1 ", text)
    return re.sub(r"\s+", " ", text).strip(" ,;")


def cut_for_listening(text: str, max_words: int = MAX_SPOKEN_WORDS) -> str:
    """At most `max_words`, ending at a sentence's end where one comes soon enough; a cut says the rest is on screen."""
    if len(text.split()) <= max_words:
        return text
    kept: list[str] = []
    count = 0
    for sentence in (match.group().strip() for match in _SENTENCE.finditer(text)):
        words = len(sentence.split())
        if count + words > max_words:
            break
        kept.append(sentence)
        count += words
    if count < max_words // 2:  # one long sentence: cut between words
        kept = [" ".join(text.split()[:max_words]).rstrip(",;:") + "."]
    return " ".join(kept) + " " + REST_ON_SCREEN


def spoken_text(reply: str, now: datetime, tz: ZoneInfo, max_words: int = MAX_SPOKEN_WORDS) -> str:
    """`reply` as it is to be heard: see the module's docstring."""
    text = _URL.sub("a link on screen", reply)
    text = _NOT_SAID.sub("", _MARKUP.sub(" ", text))
    text = text.replace("\n", ". ").replace("&", " and ").replace("%", " percent")
    text = _PLACEHOLDER.sub(_placeholder, text)
    text = _dates_in_words(_without_ids(text), now, tz)
    text = re.sub(r"([.!?])\s*\.", r"\1", _tidy(text))
    return cut_for_listening(text, max_words)
