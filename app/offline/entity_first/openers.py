"""What opens or closes a spoken clause without deciding it: greetings, politeness, fillers, hedges ("hey can you",
"oh and", "so", "alright", "I think", "please"). A correction's marker ("no", "actually", "sorry", "I meant") is
taken off too, and kept as a sign that the clause corrects what was just said."""

import re
from dataclasses import dataclass

_CORRECTING = (
    r"(?:no|nope|wait|sorry|actually|oops|whoops|i\s+mean|i\s+meant|hang\s+on|hold\s+on|never\s?mind(?=\s*,))\b"
)
_OPENING = re.compile(
    rf"^(?:(?P<correcting>{_CORRECTING})[\s,.!:-]*"
    r"|(?:hey|hi|oh|ah|so|okay|ok|alright|all\s+right|right|well|um+|uh+|hmm+|ugh|yeah|yes|and|also|plus|please"
    r"|murmur|just|anyway|cool|great|then)\b[\s,.!:-]*"
    r"|(?:can|could|would|will)\s+(?:you|we)\s+(?:please\s+)?|i\s+(?:think|guess|suppose|reckon)\s+(?:that\s+)?"
    r"|(?:let's|lets|let\s+us)\s+)+",
    re.IGNORECASE,
)
_CLOSING = re.compile(r"(?:[\s,]+(?:please|thanks|thank\s+you|cheers|ta|i\s+mean|sorry))+[\s.!?]*$", re.IGNORECASE)
_ANYWHERE = re.compile(r"\b(?:um+|uh+|erm|hmm+)\b[\s,]*", re.IGNORECASE)


@dataclass(frozen=True)
class Opened:
    text: str  # the clause without what opened and closed it
    correcting: bool  # it began as a correction ("no, ...", "actually ...", "sorry, ...")


def without_openers(clause: str) -> Opened:
    text = _ANYWHERE.sub(" ", clause).strip(" ,.!")
    found = _OPENING.match(text)
    correcting = bool(found and found["correcting"]) or bool(re.search(rf"[\s,]{_CORRECTING}[\s,.!]*$", text, re.I))
    text = text[found.end() :] if found else text
    return Opened(_CLOSING.sub("", text).strip(" ,.!"), correcting)
