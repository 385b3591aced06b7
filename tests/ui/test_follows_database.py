"""The window follows the database: what another process commits (`murmur add` in a terminal) shows
within a second, without a restart, and an idle database costs no refresh."""

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.domain.enums import Category
from app.store import Store
from app.store.models import Entry
from app.ui.application import WATCH_MS, Murmur
from tests.support.app_window import summaries, type_and_enter
from tests.support.murmur_cli import Murmur as MurmurCli


def test_an_entry_added_from_a_terminal_shows_in_the_window(
    qtbot: QtBot, murmur: Murmur, db_path: Path, tmp_path: Path
) -> None:
    assert summaries(murmur) == []
    done = MurmurCli(db_path, tmp_path / "terminal").run("add", "buy bread")
    assert done.returncode == 0, done.stderr
    qtbot.waitUntil(lambda: summaries(murmur) == ["Buy bread"], timeout=5_000)


def add_from_another_store(db_path: Path, *summaries: str) -> None:
    other = Store.open(db_path)
    try:
        with other.write() as session:
            session.add_all(Entry(content=s, summary=s, category=Category.NOTE, source_text=s) for s in summaries)
    finally:
        other.close()


def test_the_selection_and_scroll_stay_when_another_process_adds(qtbot: QtBot, murmur: Murmur, db_path: Path) -> None:
    add_from_another_store(db_path, *(f"note {i:02}" for i in range(60)))
    qtbot.waitUntil(lambda: len(summaries(murmur)) == 60, timeout=5_000)
    view = murmur.window.entries
    view.select_entry(view.entry_ids()[40])
    chosen = view.selected_ids()
    view.verticalScrollBar().setValue(view.verticalScrollBar().maximum())
    scrolled = view.verticalScrollBar().value()
    assert chosen and scrolled > 0

    add_from_another_store(db_path, "note 60")
    qtbot.waitUntil(lambda: len(summaries(murmur)) == 61, timeout=5_000)
    assert view.selected_ids() == chosen
    assert view.list_model.entry_id(view.currentIndex()) == chosen[0]
    assert view.verticalScrollBar().value() == scrolled


def test_an_idle_database_is_not_reloaded(qtbot: QtBot, murmur: Murmur) -> None:
    with qtbot.assertNotEmitted(murmur.entries_shown, wait=3 * WATCH_MS):
        pass


def test_the_app_s_own_change_is_shown_once(qtbot: QtBot, murmur: Murmur) -> None:
    """Its write is a commit the watch sees too, but the refresh after the change already showed it."""
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        type_and_enter(qtbot, murmur, "buy milk")
    with qtbot.assertNotEmitted(murmur.entries_shown, wait=3 * WATCH_MS):
        pass
    assert summaries(murmur) == ["Buy milk"]
