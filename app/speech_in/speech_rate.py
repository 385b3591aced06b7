"""How many words anyone can say in a stretch of time: a read holding more is not what was said."""

# Over a short stretch with little speech (an "uh", a single word, a breath before a pause) Whisper may write its
# prompt out again ("bat" read as "Pay the water bill, Book the dry cleaning." with a list's items as the prompt) or
# loop on a word ("4.4.4.3.4.4..." for a spoken "four"; "than than than ..." for 1.5 s): more words than anyone says
# in the time. Fast speech is about 4-5 words a second.
MOST_WORDS_PER_SECOND = 5.0
SPARE_WORDS = 2


def said_in_time(text: str, seconds: float) -> bool:
    """Could someone have said `text` in `seconds`?"""
    return len(text.split()) <= MOST_WORDS_PER_SECOND * seconds + SPARE_WORDS
