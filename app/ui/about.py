"""Murmur → About: the version a bug report asks for, the Qt it runs on, and where the user's data is."""

from importlib import metadata

from PySide6.QtCore import qVersion
from PySide6.QtWidgets import QMessageBox, QWidget

from app.api.settings import __version__, data_dir


def about_text() -> str:
    try:
        pyside = metadata.version("PySide6-Essentials")
    except metadata.PackageNotFoundError:
        pyside = "unknown"
    return (
        f"<b>Murmur {__version__}</b><br>Speech in, a kept list out.<br><br>"
        f"Qt {qVersion()}, PySide6 {pyside}<br>"
        f"Your data: {data_dir()}<br><br>"
        "For a bug report, run <code>murmur doctor</code> and attach what it prints."
    )


def about_box(parent: QWidget) -> QMessageBox:
    """Shown with open(), not exec(): the app keeps working behind it."""
    box = QMessageBox(
        QMessageBox.Icon.Information, "About Murmur", about_text(), QMessageBox.StandardButton.Close, parent
    )
    box.setObjectName("about")
    box.open()
    return box
