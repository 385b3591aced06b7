"""Settings -> Your words: the vocabulary listed, added to, taken from, imported and exported, each change undoable."""

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from app.ui.settings.dialog import SettingsDialog
from app.vocabulary.words import Word, replacement, term


def test_the_page_adds_terms_and_replacements_removes_them_and_undo_brings_them_back(
    qtbot: QtBot, murmur: Murmur
) -> None:
    service = murmur.service
    service.keep_words([term("Siobhan")])
    seen: list[list[str]] = []

    def use_the_page() -> None:
        dialog = QApplication.activeModalWidget()
        try:
            assert isinstance(dialog, SettingsDialog) and dialog.words_page is not None
            page = dialog.words_page
            assert dialog.tabs.tabText(dialog.tabs.indexOf(page)) == "Your words"
            assert page.texts() == ["Siobhan"] and page.empty.isHidden()
            page.term.setText("Kubernetes")
            qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
            page.term.setText("JSON")
            page.heard.setText("jay son")
            qtbot.keyClick(page.heard, Qt.Key.Key_Return)
            seen.append(page.texts())
            assert page.status.text() == "Added “jay son -> JSON”" and page.term.text() == page.heard.text() == ""
            assert not page.remove_button.isEnabled()
            page.list.setCurrentRow(0)
            qtbot.mouseClick(page.remove_button, Qt.MouseButton.LeftButton)
            seen.append(page.texts())
            page.term.setText("JSON")
            page.heard.setText("JSON")  # replaced by itself: refused, shown, the fields kept to mend
            page.add()
            assert "replaced by itself" in page.status.text() and page.term.text() == "JSON"
        finally:
            if dialog is not None:  # open, the dialog would keep open_settings waiting
                dialog.reject()

    QTimer.singleShot(300, use_the_page)
    murmur.open_settings()
    assert seen == [["Siobhan", "Kubernetes", "jay son -> JSON"], ["Kubernetes", "jay son -> JSON"]]
    assert service.words() == [Word("Kubernetes"), Word("JSON", "jay son")]  # kept, though the dialog was cancelled
    service.undo()
    assert service.words() == [Word("Siobhan"), Word("Kubernetes"), Word("JSON", "jay son")]


def test_the_page_imports_and_exports_the_text_file(qtbot: QtBot, murmur: Murmur, tmp_path: Path) -> None:
    dialog = SettingsDialog(murmur.settings, words=murmur.service)
    qtbot.addWidget(dialog)
    page = dialog.words_page
    assert page is not None and page.texts() == [] and not page.empty.isHidden()
    source = tmp_path / "words.txt"
    source.write_text("# from my other laptop\nGrafana\nshiv on -> Siobhan\n", encoding="utf-8")
    page.import_from(source)
    assert page.texts() == ["Grafana", "shiv on -> Siobhan"] and page.status.text() == "Added 2 words"
    source.write_text("Terraform\nx -> x\n", encoding="utf-8")
    page.import_from(source)
    assert page.status.text().startswith("line 2:") and page.texts() == ["Grafana", "shiv on -> Siobhan"]
    target = tmp_path / "out.txt"
    target.write_text("older", encoding="utf-8")  # the file dialog asked before it is replaced
    page.export_to(target)
    assert target.read_text(encoding="utf-8").splitlines()[1:] == ["Grafana", "shiv on -> Siobhan"]
    assert page.status.text() == f"Exported to {target}"
    assert murmur.service.words() == [Word("Grafana"), replacement("shiv on", "Siobhan")]


def test_the_dialog_has_no_words_page_without_a_place_to_keep_them(qtbot: QtBot, murmur: Murmur) -> None:
    dialog = SettingsDialog(murmur.settings)
    qtbot.addWidget(dialog)
    assert dialog.words_page is None
    assert "Your words" not in [dialog.tabs.tabText(index) for index in range(dialog.tabs.count())]
