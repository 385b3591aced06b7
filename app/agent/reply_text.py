"""The model's words made fit to show and keep: no reasoning block, nothing from the chat template (small
local models write "<|im_end|>" and go on as the user), runaway repetition cut, a sane length."""

import re

MAX_REPLY_CHARS = 2_000
# Where a local model's turn really ended: what follows is the template's next turn, not words to the user.
TURN_ENDS = (
    "<|im_end|>",
    "<|im_start|>",
    "<end_of_turn>",
    "<start_of_turn>",
    "<|eot_id|>",
    "<|start_header_id|>",
    "<|endoftext|>",
    "</s>",
    "[INST]",
)
# Asked of local servers as stop sequences (four: the most some servers take); with the text protocol the
# end of a call block takes the place of the last (a ChatML model writes <|im_end|> before <|im_start|>).
STOP_SEQUENCES = ["<|im_end|>", "<end_of_turn>", "<|eot_id|>", "<|im_start|>"]
TEXT_PROTOCOL_STOP = "</execute>"

# Reasoning, and results a model wrote for itself instead of waiting for them (the text protocol).
_THINK_BLOCK = re.compile(r"<(think|results)>.*?(?:</\1>|$)", re.DOTALL | re.IGNORECASE)
_LEFTOVER_TOKEN = re.compile(r"<\|[^|<>\s]{1,40}\|>|<(?:bos|eos|s)>|\[/INST\]")
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*\s*")


def _first_turn(text: str) -> str:
    ends = [index for marker in TURN_ENDS if (index := text.find(marker)) >= 0]
    return text[: min(ends)] if ends else text


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
    text = _LEFTOVER_TOKEN.sub("", _first_turn(_THINK_BLOCK.sub("", content)))
    text = _without_repeats(text).strip()
    return text if len(text) <= MAX_REPLY_CHARS else text[: MAX_REPLY_CHARS - 1].rstrip() + "…"


# Asks nothing the user must answer: the polite close of a reply ("Anything else I can help with?").
_PLEASANTRY = re.compile(r"\b(anything else|can i help|help you with|let me know)\b", re.IGNORECASE)
MAX_QUESTION_CHARS = 300  # a clarifying question is short; a long reply ending in "?" is rambling


def asks_the_user(message: str) -> bool:
    """The reply is a question the user is to answer, so what they say next continues this talk."""
    if not message.endswith("?") or len(message) > MAX_QUESTION_CHARS:
        return False
    sentences = [match.group() for match in _SENTENCE.finditer(message)]
    return not _PLEASANTRY.search(sentences[-1] if sentences else message)
