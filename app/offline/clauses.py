"""Splitting an utterance into clauses, one command each.

Sentence punctuation (. ! ? ; newlines) always splits, and so do "and then", ", then", ", also" and
"and also". ", and" splits too, except where it closes a comma list ("eggs, bread, and milk").
A plain "and", comma, "then", "also" or "plus" splits only when what follows starts a new command
(an imperative verb, "I need to", "remind me", "X is done"), so lists stay whole: "buy salt and
pepper", "call mom and dad", "I need to buy eggs and bread".
"""

import re

from app.domain.dates import spoken_to_digits
from app.domain.spoken_numbers import CARDINALS
from app.offline.entity_first.requests import past_tense
from app.offline.vocabulary import (
    COMMAND_OPENINGS,
    COMMAND_VERBS,
    HESITATIONS,
    LEADING_FILLER,
    STOP_WORDS,
    TASK_VERBS,
    without_filler,
)

# A full stop after these is not the end of a sentence ("Dr. Smith", "5 p.m. tomorrow").
_ABBREVIATIONS = frozenset("dr mr mrs ms st prof jr sr vs etc e.g i.e a.m p.m approx".split())
_SENTENCE_BREAK = re.compile(r"(?<=[.!?…])\s+|\s*[;\n\r]+\s*")
_JOINT = re.compile(
    r"(?P<joint>\s*,\s*(?:and\s+then|and\s+also|and|then|also|plus)?\s+|\s*,\s*"
    r"|\s+and\s+then\s+|\s+and\s+also\s+|\s+(?:and|then|also|plus)\s+)",
    re.IGNORECASE,
)
_ALWAYS_SPLITS = re.compile(r"\bthen\b|,\s*also\b|\band\s+also\b", re.IGNORECASE)
_COMMA_AND = re.compile(r"^\s*,\s*and\s+$", re.IGNORECASE)
_PLAIN_COMMA = re.compile(r"^\s*,\s*$")
_COMPLETION_TAIL = re.compile(
    r"(?:\s+(?:is|are|was|were)\s+(?:all\s+|now\s+|already\s+)?|'s\s+|\s+)(?:done|finished|complete|completed|packed)$",
    re.IGNORECASE,
)
_LEAD_WORDS = 3
_LOOK = 200  # characters of a clause's start or end that decide how it joins its neighbours
_DOTTED_TIME = re.compile(r"(\d)\s*([ap])\.m\.?", re.IGNORECASE)  # "5 p.m." -> "5pm", which dates can read
_EDGE_PUNCTUATION = " \t,.;:!-–—…\"'"
_POLITE_START = re.compile(r"^(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?", re.IGNORECASE)
_POLITE_END = re.compile(r"[\s,]*\b(?:please|thanks|thank you)$", re.IGNORECASE)
# A clause of nothing but these says nothing ("oh wait, scratch that" -> "scratch that").
_ONLY_FILLER = re.compile(
    r"^(?:(?:oh|wait|no|sorry|oops|hold on|hmm|yes|yeah|ok|okay|right|so|well|like|you know|i mean"
    r"|cool|thanks|thank you|cheers|great|nice|perfect|awesome|got it|sounds good|all good|that's it|that's all)"
    r"\b[\s,.!]*)+$",
    re.I,
)
_PRIORITY_LEAD = re.compile(
    r"^(?:urgent(?:ly)?|important|asap|(?:high|low)[- ]priority|p\s?[1-5]|priority\s+[1-5])\s*[:,-]?\s+", re.I
)
# "call mom no call dad", "at three, I mean four", "buy apples actually make that pears".
_CORRECTION = re.compile(
    r"[\s,]+(?P<marker>i mean|sorry|no wait|wait no|or rather|(?:actually\s+)?make (?:that|it)|correction|no)[\s,]+",
    re.IGNORECASE,
)
# Words one may be corrected by another of ("at five no six", "on saturday no sunday").
_KINDS = [
    re.compile(rf"\d+(?::\d\d)?(?:am|pm)?|{'|'.join(CARDINALS)}|noon", re.I),
    re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tomorrow|tonight", re.I),
]
# A restart: what came before was the speaker searching ("what was it, oh yeah, buy stamps").
_RESTART = re.compile(r"^.*?\b(?:oh\s+)?(?:yeah|right|yes)\s*,?\s+(?=\w)", re.IGNORECASE)
_SEARCHING = re.compile(r"^(?:hmm+\s+)?(?:what was it|what else|where was i|let me think|let's see)\b", re.IGNORECASE)
_NAMED_LIST = re.compile(r"^[\w' -]{1,40}\blist\s*:", re.IGNORECASE)
# "scratch that" said at the end of a sentence without a pause: its own clause.
_TRAILING_RETRACT = re.compile(r"\s+(?=(?:scratch|strike|forget|ignore|cancel)\s+that$|never\s?mind$)", re.I)
# "at four" reads as "at 4", which the date rules know; "at three thirty" as "at 3:30".
_AT_NUMBER = re.compile(
    rf"\b(?P<lead>at|by|around|before|after|until|till)\s+(?P<hour>{'|'.join(CARDINALS)})"
    r"(?:\s+(?P<minutes>fifteen|thirty|forty[\s-]five))?\b",
    re.IGNORECASE,
)
_APOLOGY = re.compile(r"^(?:i\s+)?(?:forgot|my\s+bad|my\s+mistake|meant\s+to\s+say)\b(?!\s+to\b)", re.IGNORECASE)
_NOT_CORRECTIONS = frozenset("later more less longer rush idea way problem need one".split())
_MINUTES = {"fifteen": ":15", "thirty": ":30", "forty five": ":45", "forty-five": ":45"}
_TYPOGRAPHY = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " ", "\u200b": ""})


def _first_word(text: str) -> str:
    found = re.match(r"[\w']+", text)
    return found.group(0) if found else ""


def _starts_with_command(piece: str) -> bool:
    """An imperative verb (with something after it, so "bread and water" stays whole) or an opening.

    A priority said first does not hide the command after it ("... and urgent: pay rent").
    """
    piece = _PRIORITY_LEAD.sub("", piece)
    lowered = piece.lower()
    if lowered.startswith(COMMAND_OPENINGS):
        return True
    word = _first_word(piece)
    # A capitalised word mid-sentence is a name ("call Anna and Mark about it"); shouting was lowered.
    is_name = word[:1].isupper() and not word.isupper()
    return word.lower() in COMMAND_VERBS and len(piece.split()) > 1 and not is_name


def _tells_of_doing(piece: str) -> bool:
    """ "I've renewed the library card", "we paid the deposit": what the user did, a clause of its own."""
    said = re.match(
        r"^(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|also\s+|already\s+|finally\s+)*(?P<verb>\w+)", piece.strip(), re.I
    )
    return said is not None and said["verb"].lower() not in ("got", "been", "had") and past_tense(said["verb"])


def _is_news(piece: str) -> bool:
    """A clause opening with a verb in the past tense ("sent off the form", "I've renewed the card")."""
    words = re.sub(
        r"^(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|also\s+|already\s+)*", "", piece.strip(), flags=re.I
    ).split()
    return bool(words) and past_tense(words[0])


def _is_completion(piece: str) -> bool:
    return bool(_COMPLETION_TAIL.search(piece.rstrip(_EDGE_PUNCTUATION)))


def _starts_new_clause(piece: str, before: str) -> bool:
    """Whether `piece` (after a plain joint) is a command of its own rather than more of `before`.

    "X is done" counts only after a command: "buy bread and milk is done" splits, while
    "oat milk and the passport are done" is one completion of two entries. Nothing splits off a
    short lead that is not a command itself ("tomorrow, call the bank", "Anna, call mom").
    """
    # Only the ends of `before` matter; looking at its whole would be quadratic in a long ramble.
    piece, head, tail = clean_clause(piece[:_LOOK]), clean_clause(before[:_LOOK]), before[-_LOOK:]
    if (_is_news(piece) and _is_news(head)) or _tells_of_doing(piece):  # two things said, two clauses
        return True
    before_is_command = _starts_with_command(head) or _is_completion(tail)
    if len(head.split()) <= _LEAD_WORDS and not before_is_command:
        return False  # "tomorrow, call the bank": a short lead belongs to what follows
    if _starts_with_command(piece):
        return True
    return _is_completion(piece) and before_is_command


def _last_word(text: str) -> str:
    found = re.search(r"[\w']+(?=\W*$)", text)
    return found.group(0) if found else ""


def _same_kind(first: str, second: str) -> bool:
    return any(kind.fullmatch(first) and kind.fullmatch(second) for kind in _KINDS)


def _corrects(before: str, after: str) -> bool:
    """Whether a bare "no" corrects the word before it: one of a kind ("at five no six", "on saturday no
    sunday"), or the object of a command ("text maya no nadia"); not "there's no milk", "no later than"."""
    said, instead = _last_word(before), _first_word(after)
    if _same_kind(said, instead):
        return True
    words = before.lower().split()
    ordinary = instead.lower() in STOP_WORDS or instead.lower() in _NOT_CORRECTIONS
    return len(words) == 2 and words[0] in TASK_VERBS and words[1] not in STOP_WORDS and not ordinary


def _digits(found: re.Match[str]) -> str:
    minutes = _MINUTES.get((found["minutes"] or "").lower(), "")
    return f"{found['lead']} {CARDINALS[found['hour'].lower()]}{minutes}"


def _corrected(clause: str) -> str:
    """The clause as the speaker meant it after correcting themselves: "call mom no call dad" is "call
    dad" (the correction restarts at the word it repeats), "at three, I mean four" is "at four" (else it
    replaces the last word said)."""
    corrections = list(_CORRECTION.finditer(clause))
    found = corrections[-1] if corrections else None  # the last one said wins
    if found is None or not (after := clause[found.end() :].strip(" ,")):
        return clause
    before = clause[: found.start()]
    if _APOLOGY.match(after):  # "and vanilla, sorry, forgot that": sorry for the words before, not instead of them
        return before
    anchor = re.search(rf"(?i)\b{re.escape(_first_word(after))}\b(?!.*\b{re.escape(_first_word(after))}\b)", before)
    if anchor is not None:
        return _corrected(before[: anchor.start()] + after)
    if found.group("marker").lower() == "no" and not _corrects(before, after):
        return clause  # "no" that corrects nothing: "no rush", "there's no milk"
    return _corrected(re.sub(r"[\w']+[\s,]*$", "", before) + after)


def clean_clause(clause: str) -> str:
    """Drop hesitations, filler and politeness, and stray punctuation at the ends (a final "?" is kept);
    apply the speaker's self-corrections."""
    clause = _corrected(without_filler(HESITATIONS.sub(" ", clause))).strip()
    if _SEARCHING.match(clause):
        clause = _RESTART.sub("", clause, count=1)
    clause = _AT_NUMBER.sub(_digits, spoken_to_digits(clause))
    clause = _DOTTED_TIME.sub(r"\1\2m", clause)
    clause = re.sub(r"\s+", " ", clause).strip(_EDGE_PUNCTUATION)
    clause = LEADING_FILLER.sub("", clause).strip(_EDGE_PUNCTUATION)
    clause = _POLITE_END.sub("", clause).strip(_EDGE_PUNCTUATION)
    # "can you call mom" is a command; "can you believe it" stays a question.
    polite = _POLITE_START.match(clause)
    if polite and polite.end() and _starts_with_command(clause[polite.end() :]):
        clause = clause[polite.end() :]
    return "" if _ONLY_FILLER.match(clause) else clause


def _unshouted(sentence: str) -> str:
    """ALL CAPS reads as lower case, so names and verbs are told apart as usual."""
    letters = [c for c in sentence if c.isalpha()]
    return sentence.lower() if len(letters) > 3 and all(c.isupper() for c in letters) else sentence


def _sentences(text: str) -> list[str]:
    """Split on sentence punctuation, gluing back pieces cut after an abbreviation."""
    sentences: list[str] = []
    for piece in _SENTENCE_BREAK.split(text):
        if sentences and _ends_with_abbreviation(sentences[-1]):
            sentences[-1] += " " + piece
        else:
            sentences.append(piece)
    return sentences


def _ends_with_abbreviation(sentence: str) -> bool:
    if not sentence.endswith("."):
        return False
    last_word = sentence.rstrip(".").rsplit(" ", 1)[-1].lower()
    return last_word in _ABBREVIATIONS


def _split_sentence(sentence: str) -> list[str]:
    sentence, retract = _split_trailing_retract(sentence)
    if _NAMED_LIST.match(sentence):  # "packing list: maps, snacks, phone mount": items, not commands
        return [sentence, *retract]
    parts = _JOINT.split(sentence)
    clauses = [parts[0]]
    in_comma_list = False  # a plain comma that did not split: the sentence is listing things
    for joint, piece in zip(parts[1::2], parts[2::2], strict=True):
        if _COMMA_AND.match(joint):
            splits = not in_comma_list or _starts_new_clause(piece, clauses[-1])
        else:
            splits = bool(_ALWAYS_SPLITS.search(joint)) or _starts_new_clause(piece, clauses[-1])
        if _PLAIN_COMMA.match(joint) and not splits:
            in_comma_list = True
        if splits:
            clauses.append(piece)
        else:
            clauses[-1] += joint + piece
    return clauses + retract


def _split_trailing_retract(sentence: str) -> tuple[str, list[str]]:
    """ "buy printer ink scratch that": the order, and its taking back."""
    parts = _TRAILING_RETRACT.split(sentence.rstrip(_EDGE_PUNCTUATION), maxsplit=1)
    return (parts[0], [parts[1]]) if len(parts) == 2 and parts[0].strip() else (sentence, [])


def _normalised(text: str) -> str:
    """Curly quotes made straight, runs of spaces and of repeated punctuation ("!!!", ", ,") made one,
    which also keeps every later pattern linear on odd input."""
    text = re.sub(r"[^\S\n]+", " ", text.translate(_TYPOGRAPHY))
    return re.sub(r"([,;:!?.…-])(?: ?\1)+", r"\1", text)


def split_clauses(text: str) -> list[str]:
    """The clauses of `text`, cleaned; empty ones (pure filler or punctuation) are dropped."""
    clauses = []
    for sentence in _sentences(_normalised(text)):
        for clause in _split_sentence(_unshouted(sentence)):
            cleaned = clean_clause(clause)
            if cleaned:
                clauses.append(cleaned)
    return clauses
