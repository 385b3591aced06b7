"""Facts about the user to remember: "remember that my sister is allergic to peanuts" is a memory, not a note.

A fact is about the user or their people ("my dentist is Dr. Patel", "I'm vegetarian", "Sam's birthday is
March 3"), and holds: it is no task ("remember that I need to call mom"), no one-off date ("remember that my
flight is at 6am tomorrow": a reminder), no event of the past ("remember that I parked on level 3") and no
secret (the memories go with every request to a model). Anything else said with "remember that" stays a note.
"""

import re

from app.domain.clock import Clock
from app.domain.dates import find_due_phrase
from app.domain.local_calendar import personal_days
from app.offline.cues import capitalised, tidy

_REMEMBER_THAT = re.compile(r"^(?:remember|keep in mind|bear in mind)\s+that\s+(?P<fact>.+)$", re.IGNORECASE)
# Whose fact it is: the user's, or a person's by name ("Sam's"); words with 's that name no one are left out.
_SUBJECT = re.compile(r"^(?:my|our|i|i'm|i've|i'd|(?P<owner>[\w-]+)'s)\s", re.IGNORECASE)
_NO_ONE = frozenset(
    """
    it that there here what who where when how this everyone everybody someone somebody nobody everything
    something nothing today tomorrow tonight yesterday let he she one
    """.split()
)
_TASK = re.compile(
    r"\b(?:needs? to|ha(?:ve|s) to|must|got to|gotta|should|ought to|want to|going to|gonna|remind)\b", re.IGNORECASE
)
_PAST_EVENT = re.compile(
    r"^i\s+(?:just\s+)?(?:\w+ed|left|put|lent|gave|paid|told|sent|got|bought|took|sold|hid)\b", re.IGNORECASE
)
_SECRET = re.compile(
    r"\b(?:password|passcode|passphrase|pin|code|combination|ssn|social security|card number|account number"
    r"|iban|login|username)\b",
    re.IGNORECASE,
)


def personal_fact(clause: str, clock: Clock) -> str | None:
    """The fact `clause` asks to remember, as it will be kept ("My sister is allergic to peanuts"); None when
    it asks for something else."""
    found = _REMEMBER_THAT.match(clause.strip())
    if found is None:
        return None
    fact = tidy(found["fact"])
    subject = _SUBJECT.match(fact)
    if subject is None or (subject["owner"] or "").lower() in _NO_ONE:
        return None
    if _TASK.search(fact) or _PAST_EVENT.match(fact) or _SECRET.search(fact):
        return None
    if find_due_phrase(fact, clock) is not None and not personal_days([fact]):  # "my flight is at 6am tomorrow"
        return None
    return capitalised(fact)
