"""A model's or the user's words shown as written: never read by Qt as HTML (a fake link, hidden text)."""

import html
import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel


def plain_label(label: QLabel) -> QLabel:
    """`label` showing its text as plain text (Qt's default guesses, and takes "<a href=...>" for a link)."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def plain_tooltip(text: str) -> str:
    """A tooltip that shows `text` literally: tooltips have no text format, so the words are HTML-escaped."""
    return f"<p style='white-space:pre-wrap'>{html.escape(text)}</p>"


_MARKUP = str.maketrans({"<": "\u2039", ">": "\u203a"})  # ‹ › : no tag can form without < and >
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def plain_notification(text: str) -> str:
    """`text` for a desktop notification. Notification daemons read the body as markup (links, images)
    and Qt's own balloon guesses, and neither can be told "plain"; escaping would show "&lt;" on one of
    them, so the two characters that make a tag are shown as look-alikes instead."""
    return _CONTROL.sub("", text).translate(_MARKUP)
