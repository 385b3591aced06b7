"""Light or dark: the desktop's colour scheme (followed as it changes) or the one chosen in Settings.

Qt's Fusion style draws both from a palette; the few colours Murmur paints itself (overdue red, the
priority flags, the badges) are picked per scheme in `Colours` so they read on either."""

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication


@dataclass(frozen=True)
class Colours:
    overdue: QColor
    flags: dict[int, QColor]  # priority 1-4; 5 and none use `muted`
    muted: QColor
    badge: QColor


LIGHT = Colours(
    overdue=QColor("#c5221f"),
    flags={1: QColor("#d1242f"), 2: QColor("#e8590c"), 3: QColor("#1c6fd9"), 4: QColor("#6e7781")},
    muted=QColor("#9aa0a6"),
    badge=QColor("#e8590c"),
)
DARK = Colours(
    overdue=QColor("#ff7b72"),
    flags={1: QColor("#ff7b72"), 2: QColor("#ffa657"), 3: QColor("#79c0ff"), 4: QColor("#9ea7b3")},
    muted=QColor("#7d8590"),
    badge=QColor("#f0883e"),
)


def is_dark() -> bool:
    """Whether the application shows the dark scheme now (its window colour is dark)."""
    return QGuiApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


def colours() -> Colours:
    return DARK if is_dark() else LIGHT


def dark_palette() -> QPalette:
    """A calm dark palette for the Fusion style: soft greys, not black, and a muted blue highlight."""
    palette = QPalette()
    roles = QPalette.ColorRole
    for role, colour in {
        roles.Window: "#202124",
        roles.WindowText: "#e8eaed",
        roles.Base: "#2a2b2e",
        roles.AlternateBase: "#303134",
        roles.ToolTipBase: "#303134",
        roles.ToolTipText: "#e8eaed",
        roles.Text: "#e8eaed",
        roles.PlaceholderText: "#9aa0a6",
        roles.Button: "#303134",
        roles.ButtonText: "#e8eaed",
        roles.BrightText: "#ffffff",
        roles.Light: "#3c4043",
        roles.Midlight: "#35363a",
        roles.Mid: "#5f6368",
        roles.Dark: "#17181a",
        roles.Shadow: "#000000",
        roles.Highlight: "#3b6fb6",
        roles.HighlightedText: "#ffffff",
        roles.Link: "#8ab4f8",
        roles.LinkVisited: "#c58af9",
    }.items():
        palette.setColor(role, QColor(colour))
    for role in (roles.WindowText, roles.Text, roles.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6f7378"))
    return palette


def wants_dark(app: QApplication, choice: str) -> bool:
    return choice == "dark" or (choice == "system" and app.styleHints().colorScheme() == Qt.ColorScheme.Dark)


def apply_theme(app: QApplication, choice: str) -> bool:
    """Show `choice` ("system", "light" or "dark") and return whether it is dark. "system" takes the
    desktop's scheme; the app calls this again when the desktop's changes (`colorSchemeChanged`)."""
    dark = wants_dark(app, choice)
    if app.style().name() != "fusion":
        app.setStyle("Fusion")  # draws any palette whole; a native style may keep its own light parts
    app.setPalette(dark_palette() if dark else app.style().standardPalette())
    _polish_style_sheets_anew(app)
    return dark


def _polish_style_sheets_anew(app: QApplication) -> None:
    """A widget under a style sheet is polished with the palette of that moment, and so are its children: a
    new application palette passes them by (the list, the fields, the labels would stay in the old scheme, and
    `palette(...)` in a sheet keeps the old colour). Setting each sheet again polishes them in the palette now
    shown, open dialogs and the toast included."""
    for widget in app.allWidgets():
        if sheet := widget.styleSheet():
            widget.setStyleSheet(sheet)
