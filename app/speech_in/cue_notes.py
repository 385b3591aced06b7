"""The notes of Murmur's sound cues: the desktop plays them, and a recording started with one cuts them out."""

Notes = tuple[float, ...]  # frequencies in Hz, played one after the other

NOTE_SECONDS = 0.05  # short: what the user says over a start cue is not kept

START: Notes = (660.0, 880.0)  # rising: listening
STOP: Notes = (880.0, 660.0)  # falling: got it
ANSWER: Notes = (880.0, 880.0)  # one high note, twice: your turn to answer (unlike speech, unlike the others)
