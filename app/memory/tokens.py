"""How many tokens a text costs a model, estimated without the model's tokenizer.

Murmur talks to many models whose tokenizers differ and are not installed here (tiktoken fetches its
tables from the internet). So the estimate is deliberately conservative: every word or run of digits is
at least one token and one more per four characters beyond its first four, every other character (a
bracket, a quote, a colon) one. English BPE tokenizers average about four characters a token, so this
counts high, never low: a budget in these tokens is a ceiling in the model's.
"""

import re

_PIECE = re.compile(r"[^\W\d_]+|\d+|[^\w\s]|_")


def estimate_tokens(text: str) -> int:
    return sum(1 + max(0, len(piece) - 1) // 4 for piece in _PIECE.findall(text))
