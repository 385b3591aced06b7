"""The doctor's advice that the window's setup notes give too, kept light: the window imports it at start."""

from app.errors import Words, command

# The desktop entry's action (app/desktop/entries.py) runs `murmur toggle`: a desktop shortcut can run either.
NO_TRAY = command(
    "toggle",
    instead=Words(
        "the window stays open instead; bind Murmur's “Start or stop listening” action to a desktop shortcut "
        "to talk from anywhere"
    ),
    phrase="the window stays open instead; bind {} to a desktop shortcut to talk from anywhere",
)
