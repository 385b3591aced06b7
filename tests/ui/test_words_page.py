"""Settings -> Your words: the vocabulary listed, added to, taken from, imported and exported, each change undoable."""

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from app.ui.settings.dialog import SettingsDialog
from app.ui.settings.words_page import WordsPage
from app.vocabulary.words import Word, replacement, term


def shown(qtbot: QtBot, page: WordsPage, action: Callable[[], object]) -> str:
    """The status line the page shows once `action`'s read or change has ended (off the GUI thread)."""
    with qtbot.waitSignal(page.shown, timeout=10_000) as ended:
        action()
    return str(ended.args[0])


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
            qtbot.waitUntil(lambda: page.texts() == ["Siobhan"])
            assert page.empty.isHidden()
            page.term.setText("Kubernetes")
            shown(qtbot, page, lambda: qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton))
            page.term.setText("JSON")
            page.heard.setText("jay son")
            assert (
                shown(qtbot, page, lambda: qtbot.keyClick(page.heard, Qt.Key.Key_Return)) == "Added “jay son -> JSON”"
            )
            seen.append(page.texts())
            assert page.term.text() == page.heard.text() == ""
            assert not page.remove_button.isEnabled()
            page.list.setCurrentRow(0)
            assert shown(qtbot, page, lambda: qtbot.mouseClick(page.remove_button, Qt.MouseButton.LeftButton)) == (
                "Removed “Siobhan”"
            )
            seen.append(page.texts())
            page.term.setText("JSON")
            page.heard.setText("JSON")  # replaced by itself: refused, shown, the fields kept to mend
            assert "replaced by itself" in shown(qtbot, page, page.add) and page.term.text() == "JSON"
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
    assert page is not None
    qtbot.waitSignal(page.shown, timeout=10_000).wait()
    assert page.texts() == [] and not page.empty.isHidden()
    source = tmp_path / "words.txt"
    source.write_text("# from my other laptop\nGrafana\nshiv on -> Siobhan\n", encoding="utf-8")
    assert shown(qtbot, page, lambda: page.import_from(source)) == "Added 2 words"
    assert page.texts() == ["Grafana", "shiv on -> Siobhan"] and page.empty.isHidden()
    source.write_text("Terraform\nx -> x\n", encoding="utf-8")
    assert shown(qtbot, page, lambda: page.import_from(source)).startswith("line 2:")
    assert page.texts() == ["Grafana", "shiv on -> Siobhan"]
    target = tmp_path / "out.txt"
    target.write_text("older", encoding="utf-8")  # the file dialog asked before it is replaced
    assert shown(qtbot, page, lambda: page.export_to(target)) == f"Exported to {target}"
    assert target.read_text(encoding="utf-8").splitlines()[1:] == ["Grafana", "shiv on -> Siobhan"]
    assert murmur.service.words() == [Word("Grafana"), replacement("shiv on", "Siobhan")]


def test_the_dialog_has_no_words_page_without_a_place_to_keep_them(qtbot: QtBot, murmur: Murmur) -> None:
    dialog = SettingsDialog(murmur.settings)
    qtbot.addWidget(dialog)
    assert dialog.words_page is None
    assert "Your words" not in [dialog.tabs.tabText(index) for index in range(dialog.tabs.count())]
