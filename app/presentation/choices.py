"""Readings offered back instead of guessed, in words: what the window asks above the buttons that pick one."""

SHOWN_AT_MOST = 3  # more would crowd the toast; the command line lists them all
UNSURE = "Not sure what you meant"
# Above the buttons: nothing was done, and nothing is lost if the toast is closed.
WHICH_READING = "Which did you mean? It waits in the Inbox until you pick."
DID_YOU_MEAN = "Did you mean:"  # the Inbox's lead-in to the readings of the utterance selected
