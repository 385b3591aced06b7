"""The bounds themselves: plain numbers, free of imports, so every layer (and the CLI's parser) can quote them."""

FIRST_YEAR, LAST_YEAR = 1900, 2200  # what a file brings in, and what the list, the exports and the clock all show
# What the store keeps: a time before 1900 is out of reach of the platform's clock west of UTC (a due in year 1 broke
# every listing); a peer's "someday" in year 9999 is listed, exported and sent back as it came.
KEPT_LAST_YEAR = 9999
MAX_COUNT = 2**31 - 1  # revisions, attempts, offsets: far above any real count, far inside SQLite's integers
MAX_ROW_ID = 2**63 - 1  # SQLite's largest integer: no row has a larger ID

MAX_UTTERANCE_CHARS = 20_000  # a long dictation is a few thousand; a pasted document is not something said
# Each stored text field's longest value, in characters: a summary is a line, an entry's text a page. A field past
# its bound is refused with its name, never cut: what is kept is what was given.
TEXT_CHARS = {
    "summary": 1_000,
    "content": MAX_UTTERANCE_CHARS,
    "source_text": MAX_UTTERANCE_CHARS,
    "due_text": 500,
    "recurrence": 1_000,
    "items": 100_000,  # the checklist as stored (JSON): 500 items of 200 characters
    "text": MAX_UTTERANCE_CHARS,  # an utterance's or a memory's words
    "heard_text": MAX_UTTERANCE_CHARS,
    "reply": MAX_UTTERANCE_CHARS,  # what Murmur answered; a model that repeats itself is cut short before this
    "reason": 1_000,
}
MAX_ITEMS = 500  # a checklist's items
MAX_ITEM_CHARS = 200  # one item, a few words

MAX_AUDIO_SECONDS = 4 * 3600  # a file to transcribe: a long meeting, not a day of silence
MAX_AUDIO_CHANNELS = 32  # more than any microphone array a user records with

MASS_CHANGE_CAP = 25  # entries one request (words, a model, an assistant, a sync, an import) makes unasked
