"""A model's words as text fit to quote: its chat template's markers and what follows them cut (a small local
model writes "<|im_end|>" and goes on as the user), no control characters, one short line."""

import re

from app.domain.summaries import clipped

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
LEFTOVER_TOKEN = re.compile(r"<\|[^|<>\s]{1,40}\|>|<(?:bos|eos|s)>|\[/INST\]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029]")
QUOTE_CHARS = 80  # a quote of the model in a one-line message


def first_turn(text: str) -> str:
    """`text` up to the first marker that ends the model's turn."""
    ends = [index for marker in TURN_ENDS if (index := text.find(marker)) >= 0]
    return text[: min(ends)] if ends else text


def quoted_line(text: str, limit: int = QUOTE_CHARS) -> str:
    """What the model said, to be quoted in one line: its first turn, no template markers or control
    characters, spaces collapsed, at most `limit` characters."""
    text = LEFTOVER_TOKEN.sub("", first_turn(text))
    return clipped(" ".join(_CONTROL.sub(" ", text).split()), limit)


def only_said(message: str | None) -> str:
    """What the model said, for a line about what it failed to do."""
    return f'it only said "{quoted_line(message)}"' if message else "and said nothing"
