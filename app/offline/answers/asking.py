"""The shape of a question about the list: how it opens, and the words left once the asking is taken away.

"anything on saturday?" leaves nothing once its period is cut: it asks about the list. "what time does the
post office open on monday" leaves "post office open", which names no entry: it asks about the world.
"""

import re
from dataclasses import dataclass
from enum import Enum

from app.offline.vocabulary import HESITATIONS

_LEAD_IN = (
    r"^(?:(?:so|ok|okay|hey|and|well|oh|right|alright|please|murmur|wait)[\s,]+)*"
    r"(?:(?:can|could)\s+you\s+)?(?:(?:tell|show)\s+me\s+|do\s+you\s+know\s+)?"
)
_OPENER = re.compile(
    _LEAD_IN + r"(?P<opener>(?:at\s+|on\s+)?(?:what|which)\s+(?:time|day|date)|what|which|when|anything|any|is|are"
    r"|(?:do|did|have|am|will)\s+(?:i|we)|got|how|show\s+me|tell\s+me|give\s+me)\b"
)
# Openers asking about one entry ("when's my haircut", "do I still have to call mom").
_ABOUT_ENTRY = re.compile(r"^(?:(?:at\s+|on\s+)?(?:what|which)\s+(?:time|day|date)|when|is|are|do|did|have|am|will)\b")
_CONFIRMING = re.compile(r"^(?:is|are|do|have|am|will)\b")
# Words that say the question is about the list whatever else it holds ("what do I have at the office tomorrow").
_LISTS_THINGS = re.compile(
    r"\b(?:due|planned|scheduled|on\s+(?:my|the)\s+(?:(?:to-?do|task)\s+)?(?:list|plate|schedule|calendar|agenda)"
    r"|(?:do|did)\s+(?:i|we)\s+have|have\s+(?:i|we)\s+got|(?<!should )(?<!could )(?<!would )(?<!can )(?:i|we)\s+have"
    r"|i've\s+got|i\s+got)\b"
)
_KEEPS_LIST = re.compile(r"\b(?:still|already|on\s+(?:my|the)\s+list)\b")
# "when am I seeing the dentist": the verb says how, the dentist says which.
_MEETING_VERB = re.compile(
    r"\b(?:am|are|will|do)\s+(?:i|we)\s+(?:be\s+)?(?:seeing|meeting|having|visiting|going\s+to|see|meet|have|visit)\b"
)

_ASKING_WORDS = frozenset(
    """
    what which when where how is are was were am do does did have has had got get i we me you there it anything
    something any everything still need needs to gotta supposed meant going should will would can could must be
    again already ever doing really else by before until till left remaining rest yet happening coming up upcoming
    next due scheduled planned set look looks like looking done on for at in of the my our a an show tell give
    i'm i've we're we've i'd it's there's
    """.split()
)
# The list's own words: they say what is asked about, never which entry ("any meetings tomorrow?").
_LIST_WORDS = frozenset(
    """
    list lists plate schedule calendar agenda diary plan plans thing things stuff task tasks todo todos to-do chore
    chores errand errands appointment appointments meeting meetings event events deadline deadlines reminder
    reminders busy free morning afternoon evening night
    """.split()
)
_WHEN_WORDS = frozenset("time day date o'clock".split())  # "what time is lunch with Anna": not part of its name
# "is swimming mondays or just fridays", "how often do I water the plants": asking how an entry repeats.
_ASKS_REPEAT = re.compile(r"\bhow\s+often\b|\b(?:what|which)\s+days\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b")
_REPEAT_WORDS = frozenset(
    """
    how often or just only every each days week weekly daily monthly mondays tuesdays wednesdays thursdays fridays
    saturdays sundays monday tuesday wednesday thursday friday saturday sunday
    """.split()
)
_WORD = re.compile(r"[a-z0-9]+(?:[-'][a-z]+)*")


def _normalised(text: str) -> str:
    text = HESITATIONS.sub(" ", text.lower().replace("\u2019", "'"))
    text = re.sub(r"\bwhats\b", "what's", text)
    return re.sub(r"\s+", " ", text).strip(" ,.!?")


class Reply(Enum):
    WHEN = "when"  # "when's my haircut": when it is due
    YES = "yes"  # "do I still have to call mom": yes, it is on the list


@dataclass(frozen=True)
class Question:
    text: str  # lower case, tidied
    opener: str  # "what", "when", "do i", ...

    @property
    def about_entry(self) -> bool:
        return bool(_ABOUT_ENTRY.match(self.opener))

    @property
    def reply(self) -> Reply:
        if self.asks_repeat:
            return Reply.WHEN
        return Reply.YES if _CONFIRMING.match(self.opener) else Reply.WHEN

    @property
    def asks_repeat(self) -> bool:
        """It asks on which days an entry comes round, not when it is next due."""
        return bool(_ASKS_REPEAT.search(self.text))

    @property
    def keeps_list(self) -> bool:
        """It asks whether something is still on the list, so "no, it is not" is an answer."""
        return bool(_KEEPS_LIST.search(self.text))

    @property
    def lists_things(self) -> bool:
        """It says it asks about the list ("due", "do I have"), whatever else it holds."""
        return bool(_LISTS_THINGS.search(self.text))

    def words_left(self, said: str, naming_entry: bool) -> str:
        """The words that are not the asking, nor the period `said`: for a period question the list's
        own words go too; for one naming an entry the words of when ("time", "day") go."""
        text = self.text.replace(said, " ", 1) if said else self.text
        dropped = _ASKING_WORDS | (_WHEN_WORDS if naming_entry else _LIST_WORDS)
        dropped |= _REPEAT_WORDS if naming_entry and self.asks_repeat else frozenset()
        if naming_entry:
            text = _MEETING_VERB.sub(" ", text)
        words = (word for word in _WORD.findall(text) if word.removesuffix("'s") not in dropped)
        return " ".join(words)


def read_question(text: str) -> Question | None:
    """The question `text` asks, by its opening; None when it does not open like one."""
    normalised = _normalised(text)
    found = _OPENER.match(normalised)
    # The lead-in ("so", "hey", "can you tell me") is no part of what is asked about.
    return Question(normalised[found.start("opener") :], re.sub(r"\s+", " ", found["opener"])) if found else None
