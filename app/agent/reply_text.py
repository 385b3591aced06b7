"""The model's words made fit to show and keep: no reasoning block, nothing from the chat template (small
local models write "<|im_end|>" and go on as the user), runaway repetition cut, a sane length."""

import re
from collections.abc import Sequence

from app.domain.model_text import LEFTOVER_TOKEN, TURN_ENDS, first_turn
from app.domain.summaries import clipped

MAX_REPLY_CHARS = 2_000
# Asked of servers on this machine or network as stop sequences: where each chat template ends a turn or
# begins the next, for a small model that writes them and goes on as the user ("</s>" and "[INST]" are left
# out: a model may write them as text).
STOP_SEQUENCES = [marker for marker in TURN_ENDS if marker not in ("</s>", "[INST]")]
# A remote service may take four at most (OpenAI's limit, kept by services that pass requests on); with the
# text protocol the end of a call block takes the place of the last.
REMOTE_STOP_SEQUENCES = ["<|im_end|>", "<end_of_turn>", "<|eot_id|>", "<|im_start|>"]
TEXT_PROTOCOL_STOP = "</execute>"

# Reasoning, and results a model wrote for itself instead of waiting for them (the text protocol).
_THINK_BLOCK = re.compile(r"<(think|results)>.*?(?:</\1>|$)", re.DOTALL | re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*\s*")


def _without_repeats(text: str) -> str:
    """Up to where a sentence comes round a second time: a model in a loop says nothing new after."""
    seen: set[str] = set()
    for match in _SENTENCE.finditer(text):
        key = " ".join(match.group().lower().split())
        if key and key in seen:
            return text[: match.start()]
        seen.add(key)
    return text


def clean_reply(content: str) -> str:
    text = LEFTOVER_TOKEN.sub("", first_turn(_THINK_BLOCK.sub("", content)))
    text = _without_repeats(_without_loop(text)).strip()
    return clipped(text, MAX_REPLY_CHARS)


# Asks nothing the user must answer: the polite close of a reply ("Anything else I can help with?").
_PLEASANTRY = re.compile(r"\b(anything else|can i help|help you with|let me know)\b", re.IGNORECASE)
MAX_QUESTION_CHARS = 300  # a clarifying question is short; a long reply ending in "?" is rambling


def asks_the_user(message: str) -> bool:
    """The reply is a question the user is to answer, so what they say next continues this talk."""
    if not message.endswith("?") or len(message) > MAX_QUESTION_CHARS:
        return False
    sentences = [match.group() for match in _SENTENCE.finditer(message)]
    return not _PLEASANTRY.search(sentences[-1] if sentences else message)


_WORD = re.compile(r"[\w']+")
_COPY_MIN_WORDS = 3  # "When?" may be a real question; a copy is a sentence of some length


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def only_repeats(message: str, sources: Sequence[str]) -> bool:
    """Every sentence of `message` says nothing one of `sources` did not: a copy of the prompt's example
    questions or of the user's own words, which is neither a question about what the user said nor an answer."""
    sentences = [words for match in _SENTENCE.finditer(message) if (words := _words(match.group()))]
    known = [_words(source) for source in sources]
    return bool(sentences) and all(
        len(words) >= _COPY_MIN_WORDS and any(words <= source for source in known) for words in sentences
    )


# A model in a loop ("remember, remember, remember, ...") writes until max_tokens: half a minute on a CPU.
_LOOP_TAIL_CHARS = 240  # the end of the answer that must be one unit, over and over
_LOOP_MAX_UNIT = 80
_LOOP_MIN_REPEATS = 6


def _loop_unit(text: str) -> str | None:
    """What the answer ends repeating, when it ends in the same few words over and over."""
    tail = text[-_LOOP_TAIL_CHARS:]
    if len(tail) < _LOOP_TAIL_CHARS:
        return None
    for size in range(1, _LOOP_MAX_UNIT + 1):
        if _LOOP_TAIL_CHARS // size >= _LOOP_MIN_REPEATS and tail == _repeated(tail[-size:], len(tail)):
            return tail[-size:]
    return None


def is_looping(text: str) -> bool:
    """Long enough in a loop that nothing new will come."""
    return _loop_unit(text) is not None


def _without_loop(text: str) -> str:
    """The answer up to where its loop began, marked as cut."""
    unit = _loop_unit(text)
    if unit is None:
        return text
    while text.endswith(unit):
        text = text[: -len(unit)]
    # The loop's first round may have begun inside the unit as found ("...remember, remembe" ends the text).
    start = next((size for size in range(len(unit) - 1, 0, -1) if text.endswith(unit[-size:])), 0)
    return text[: len(text) - start].rstrip(" ,;") + "…"


def _repeated(unit: str, length: int) -> str:
    """`unit` repeated to `length` characters, aligned on the end."""
    times = length // len(unit) + 1
    return (unit * times)[-length:]
