"""Cues in a clause that creates an entry: priority, category, and the lead-in to cut.

Each reader returns what it found and the text without the words that only served as a cue, so
"urgent: remind me to pay rent every month" leaves "pay rent" for the card.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

from app.domain.day_phrases import DEADLINE
from app.domain.enums import Category
from app.offline.vocabulary import TASK_VERBS

_SEPARATORS = " ,;:.!-–—"


def tidy(text: str) -> str:
    """Single spaces, no space before punctuation, no stray separators at the ends."""
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s+([,;:.!?])", r"\1", text)
    return text.strip(_SEPARATORS)


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


_PREPOSITION = re.compile(rf"(?:{DEADLINE}|on|at|in|for|from)\s", re.IGNORECASE)
# "sometime before friday", "at some point next week": how vague the day is goes with it.
_VAGUE = r"(?:(?:some\s?time|at\s+some\s+point)\s+)?"


def cut_phrase(text: str, phrase: str) -> str:
    """The text without `phrase` and a lead-in left hanging before it ("call mom on [friday]", "send it back no
    later than [friday]")."""
    if not phrase.strip():
        return tidy(text)
    # "put the roast in [at 4:15]": a phrase opening with its own preposition leaves the one before it alone.
    dangling = "" if _PREPOSITION.match(phrase.strip()) else rf"(?:(?:(?:is\s+)?{DEADLINE}|on|at|in|for|from)\s+)?"
    pattern = re.compile(rf"(?<!\w){_VAGUE}{dangling}{re.escape(phrase.strip())}(?!\w)", re.IGNORECASE)
    return tidy(pattern.sub(" ", text, count=1))


# "by friday at the (very) latest", "by monday latest": the deadline said twice, at the end of what is said
# ("the latest news", "read the latest" keep it).
_LATEST = re.compile(
    r"(?<!\bthe)(?<!\bvery)(?:\s*,)?\s+(?:at\s+the\s+(?:very\s+)?latest|latest)\s*(?=[,;:.!?]|$)", re.IGNORECASE
)


def without_latest(text: str) -> tuple[str, bool]:
    """The text without a deadline's "at the latest", and whether it had one."""
    cut = _LATEST.sub(" ", text, count=1)
    return tidy(cut), cut != text


# --- priority -------------------------------------------------------------------------------

_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_NUMBERED = re.compile(r"\b(?:priority|prio)\s*(?P<n>[1-5]|one|two|three|four|five)\b|\bp\s?(?P<p>[1-5])\b", re.I)
# (pattern, level), first match wins: negations before the words they negate.
_LEVELS: list[tuple[re.Pattern[str], int]] = [
    (re.compile(r"\bnot\s+(?:very\s+|that\s+|too\s+|so\s+)?(?:urgent|important)\b", re.I), 4),
    (re.compile(r"\b(?:urgent(?:ly)?|asap|as soon as possible|critical|top priority|highest priority)\b", re.I), 1),
    (re.compile(r"\b(?:high[- ]priority|important)\b", re.I), 2),
    (re.compile(r"\b(?:low[- ]priority|someday|some day|whenever|no rush|no hurry)\b", re.I), 5),
]
_COPULA_END = re.compile(r"\b(?:is|are|was|were|be|been|seems?|sounds?)$", re.I)
# Words around a cue that go with it ("it's urgent", "mark it as high priority").
_CUE_LEFT = (
    r"(?:\b(?:this|it|that)(?:'s|\s+is)\s+|\b(?:mark|make|set)\s+it\s+(?:as\s+)?"
    r"|\b(?:with|as|a|an|very|really|super)\s+)*"
)


def _cut_at_edges(text: str, cue: str) -> str:
    """Remove a cue said at the start, the end, or between separators; keep it when it is part of the
    sentence ("prepare the important meeting", "the report is important")."""
    edges = [
        rf"(?:^|[,;:.!–—-]\s*){_CUE_LEFT}(?:{cue})(?:\s+priority)?\s*(?=$|[,;:.!–—-])",
        rf"^\s*{_CUE_LEFT}(?:{cue})\b(?:\s+priority)?[\s:,-]*",
        rf"[\s,]*{_CUE_LEFT}(?:{cue})(?:\s+priority)?\s*$",
    ]
    for edge in edges:
        cut = re.sub(edge, " ", text, flags=re.I)
        if not _COPULA_END.search(tidy(cut)):
            text = cut
    return text


def read_priority(text: str) -> tuple[int | None, str]:
    """The priority said (1 most urgent .. 5 someday) and the text without the cue words."""
    level: int | None = None
    if found := _NUMBERED.search(text):
        raw = (found.group("n") or found.group("p")).lower()
        level = _NUMBERS.get(raw) or int(raw)
        text = _NUMBERED.sub(" ", text)
    for pattern, cue_level in _LEVELS:
        if pattern.search(text):
            level = cue_level if level is None else level
            text = _cut_at_edges(text, pattern.pattern)
    return level, tidy(text)


# --- category -------------------------------------------------------------------------------

_REMINDER = re.compile(
    r"\b(?P<cue>(?:remind me|don'?t forget|do not forget|don'?t let me forget|set a reminder|remember to)"
    r"(?:\s+(?:to|that|about|of|for))?\b)"
    r"|^(?P<lead>reminder\b(?:\s*:|\s+(?:to|that|about|for)\b)?)",
    re.I,
)
_LABELS: list[tuple[Category, re.Pattern[str]]] = [
    (Category.NOTE, re.compile(
        r"^(?:(?:note to self|note|make a note|write down|jot down|for the record|fyi)(?:\s+(?:that|of))?"
        r"|(?:remember|keep in mind|bear in mind)\s+that)\s*(?::|-|,|\s)\s*", re.I)),
    (Category.IDEA, re.compile(
        r"^(?:(?:i have|i've got|i got|here's|here is)\s+)?(?:(?:an?|another|new|quick|random)\s+)*idea"
        r"(?:\s*[:,-]|\s+(?:for|about|to|that)\b|$)\s*", re.I)),
    (Category.TODO, re.compile(r"^(?:todo|to-do|to do)\s*[:,-]\s*", re.I)),
    (Category.QUESTION, re.compile(r"^question\s*[:,-]\s*", re.I)),
    (Category.THOUGHT, re.compile(r"^thought\s*[:,-]\s*", re.I)),
]  # fmt: skip
_IDEA = re.compile(r"^(?:what if|how about|what about|wouldn't it be|it would be (?:nice|cool|fun|great))\b", re.I)
# "I was thinking maybe we could paint the fence": an idea, whose card is what could be done.
_IDEA_LEAD = re.compile(
    r"^(?:(?:i was|i've been|i'm|i am|we were)\s+thinking(?:\s+that)?\s+)?(?:maybe|perhaps)?\s*(?:we|i)\s+"
    r"(?:could|might)(?:\s+maybe)?\s+"
    r"|^(?:i was|i've been|i'm|i am|we were)\s+thinking(?:\s+that)?\s+(?:maybe|perhaps)\s+(?:we|i)\s+should\s+"
    r"|^maybe\s+we\s+should\s+",
    re.I,
)
# A dated appointment or plan is something to be reminded of ("vet appointment on May 12 at 10am").
_EVENT = re.compile(
    r"\b(?:appointment|appt|meeting|dinner|lunch|breakfast|brunch|party|interview|flight|concert|game|match"
    r"|class|lesson|session|check-?up|visit|date|wedding|funeral|birthday|anniversary|recital|rehearsal|exam"
    r"|surgery|haircut|call with|coffee with|drinks with|meetup|reservation|show|movie|conference|webinar"
    r"|playdate|practice|training|tournament|ceremony|graduation|barbecue|bbq|cookout|picnic|potluck|standup"
    r"|stand-up|book club|recital|parade|festival|shower|reunion|sleepover|vet|massage|facial|manicure|pedicure"
    r"|physio|therapy|checkout|check-in|tasting|screening|premiere|orientation|audition|fitting)s?\b",
    re.I,
)
_PRONOUN = r"(?:i|we|you|they|he|she|it|there|people|anyone|anybody|someone|somebody)\b"
_QUESTION = re.compile(
    r"^(?:what|why|how|when|where|who|whom|whose|which|i wonder)\b"
    r"|^(?:is|are|was|were|am|can|could|should|would|does|did|shall|isn't|aren't|can't|won't|didn't|doesn't)\s"
    rf"|^(?:do|will)\s+{_PRONOUN}",
    re.I,
)
ADD_VERBS = r"(?:add|put|stick|pop|throw)"  # "stick bin bags on the shopping list"
LIST_ADD = re.compile(
    rf"\b{ADD_VERBS}\s+(?P<items>.+?)\s+(?:to|on|onto)\s+(?:the\s+|my\s+|our\s+)?"
    r"(?P<name>(?:[\w'-]+\s+){0,2}?)list\b",
    re.I,
)
_LIST_MENTION = re.compile(
    r"\b(?:shopping|grocery|groceries|packing|reading|wish|bucket)\s+list\b|\bwishlist\b|\blist of\b"
    r"|^[\w' -]{1,30}\blist\s*:",  # "camping list: tent, lantern"
    re.I,
)
_TODO_LEAD = re.compile(
    r"^(?:(?:i|we)\s+)?(?:really\s+|still\s+|also\s+|just\s+)?"
    r"(?:need to|needs to|have to|has to|must|(?:'ve|have)?\s*got to|gotta|should|ought to)\s+|^let'?s\s+",
    re.I,
)
_TODO_CUE = re.compile(
    r"\b(?:need to|needs to|have to|has to|must|got to|gotta|should|todo|to-do|to do)\b|^(?:i|we) need\b|^task\b",
    re.I,
)
_THOUGHT = re.compile(
    r"\bi\s+(?:just\s+)?(?:think|feel|believe|reali[sz]ed?|noticed|have noticed|wish|love|hate)\b|\bi've noticed\b"
    r"|\b(?:i'm|i am)\s+(?:really\s+|so\s+|very\s+|kind of\s+)?(?:proud|glad|happy|worried|grateful|thankful"
    r"|annoyed|tired|excited|nervous|sad|frustrated|curious|amazed|relieved)\b|^honestly\b|^feeling\s+\w+",
    re.I,
)
_HEDGE = re.compile(
    r"^(?:i\s+(?:really\s+)?(?:feel like|think|guess|suppose|reckon)\s+)(?=(?:i|we)\s+(?:really\s+)?"
    r"(?:should|need to|have to|must|ought to|gotta|'ve got to)\b)",
    re.I,
)
TODO_LISTS = frozenset({"todo", "to-do", "to do", "task", "tasks"})


@dataclass(frozen=True)
class CategoryCue:
    """The category, and how to turn the clause into the entry's text (cut its lead-in)."""

    category: Category
    rewrite: Callable[[str], str]


def _keep(text: str) -> str:
    return text


def _cutting(lead_in: str) -> Callable[[str], str]:
    """Cut the first occurrence of the lead-in as said, wherever it sits ("tomorrow remind me to ...")."""
    pattern = re.compile(re.escape(lead_in.strip()) + r"[\s:,-]*", re.I)
    return lambda text: tidy(pattern.sub(" ", text, count=1))


def _list_rewrite(text: str) -> str:
    """Name the list on the card: "add eggs to the shopping list" -> "Shopping list: eggs"."""

    def replace(found: re.Match[str]) -> str:
        name = found.group("name").strip()
        if name.lower() in TODO_LISTS:
            return found.group("items")
        return f"{capitalised(name + ' list') if name else 'List'}: {found.group('items')}"

    return tidy(LIST_ADD.sub(replace, text, count=1))


def _reminder(text: str) -> CategoryCue | None:
    found = _REMINDER.search(text)
    return CategoryCue(Category.REMINDER, _cutting(found.group("cue") or found.group("lead"))) if found else None


def _label(text: str) -> CategoryCue | None:
    for category, pattern in _LABELS:
        if found := pattern.match(text):
            return CategoryCue(category, _cutting(found.group(0)))
    return None


def _list(text: str) -> CategoryCue | None:
    if found := LIST_ADD.search(text):
        todo = found.group("name").strip().lower() in TODO_LISTS
        return CategoryCue(Category.TODO if todo else Category.LIST, _list_rewrite)
    return CategoryCue(Category.LIST, _keep) if _LIST_MENTION.search(text) else None


def without_hedge(text: str) -> str:
    """ "I feel like I should call grandma" is the todo it goes on to name: "I should call grandma"."""
    return _HEDGE.sub("", text)


def _in_first_words(text: str, found: re.Match[str], count: int = 1) -> bool:
    """ "book club on the 20th", "call with the landlord": the event is what the first words name."""
    return len(text[: found.start()].split()) < count


def starts_with_verb(text: str) -> bool:
    """ "repaint the fence": an imperative (and "could you add coffee to the list?" a request, not a question)."""
    return text.split(" ", 1)[0].lower() in TASK_VERBS


def _todo(text: str) -> CategoryCue | None:
    if found := _TODO_LEAD.match(text):
        return CategoryCue(Category.TODO, _cutting(found.group(0)))
    if _TODO_CUE.search(text) or starts_with_verb(text):
        return CategoryCue(Category.TODO, _keep)
    return None


def is_question(text: str) -> bool:
    """ "when does the market open": asked, not planned; "what if we ..." is an idea."""
    return bool(_QUESTION.match(text)) and not _IDEA.match(text)


def read_category(bare: str, repeats: bool, dated: bool = False, deadline: bool = False) -> CategoryCue:
    """The first cue that fits, in a fixed order; `bare` is the clause without its date, repeat and
    priority words, so "tomorrow call mom" still starts with a verb. `dated`: it named a day or time;
    `deadline`: as a deadline ("by friday", "is due monday"). Questions are told apart before."""
    if cue := _reminder(bare) or _label(bare):
        return cue
    if repeats:  # "I need to stretch every morning": a habit, with the todo lead-in cut all the same
        todo = _todo(bare)
        return CategoryCue(Category.HABIT, todo.rewrite if todo else _keep)
    if found := _IDEA_LEAD.match(bare):
        return CategoryCue(Category.IDEA, _cutting(found.group(0)))
    if _IDEA.match(bare):
        return CategoryCue(Category.IDEA, _keep)
    if deadline and not _EVENT.search(bare):  # "the essay is due next tuesday": something to get done
        return _todo(bare) or CategoryCue(Category.TODO, _keep)
    if dated and (event := _EVENT.search(bare)) and (not starts_with_verb(bare) or _in_first_words(bare, event)):
        todo = _todo(bare)  # "I have a meeting with Jo on Tuesday": the lead-in goes all the same
        return CategoryCue(Category.REMINDER, todo.rewrite if todo else _keep)
    if cue := _list(bare) or _todo(bare):
        return cue
    if _THOUGHT.search(bare):
        return CategoryCue(Category.THOUGHT, _keep)
    # "bins out at half nine tonight": a thing to do at a time, said without its verb
    return CategoryCue(Category.TODO if dated else Category.NOTE, _keep)
