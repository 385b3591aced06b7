"""A model's or the user's words shown as written: never read by Qt as HTML (a fake link, hidden text)."""

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel


def plain_label(label: QLabel) -> QLabel:
    """`label` showing its text as plain text (Qt's default guesses, and takes "<a href=...>" for a link)."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def plain_tooltip(text: str) -> str:
    """A tooltip that shows `text` literally: tooltips have no text format, so the words are HTML-escaped."""
    return f"<p style='white-space:pre-wrap'>{html.escape(text)}</p>"
