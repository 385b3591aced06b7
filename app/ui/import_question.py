"""File → Import of a file that would add more entries at once than Murmur adds unasked: the window asks first.
The box is window-modal and shown with open(), not exec(): the tray and the hotkey keep working behind it."""

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QMessageBox, QWidget


def ask_to_import(parent: QWidget, title: str, question: str, import_anyway: Callable[[], None]) -> QMessageBox:
    """Ask `question`; Yes calls `import_anyway`. No is the default, as Escape and closing the box are."""
    box = QMessageBox(
        QMessageBox.Icon.Question,
        title,
        question,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        parent,
    )
    box.setObjectName("import-question")
    box.setTextFormat(Qt.TextFormat.PlainText)  # a file's name is shown as it is, never read as markup
    box.setDefaultButton(QMessageBox.StandardButton.No)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

    def answered(button: QAbstractButton) -> None:
        if box.standardButton(button) is QMessageBox.StandardButton.Yes:
            import_anyway()

    box.buttonClicked.connect(answered)
    box.open()
    return box
