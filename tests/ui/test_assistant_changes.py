"""What another assistant changes through `murmur mcp` (a process of its own) shows in the window as it happens:
the list, History naming the assistant, and a mass change waiting in the inbox for the window's yes."""

from pathlib import Path

import anyio
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from tests.support.app_window import WAIT_MS, said_and_shown, summaries
from tests.support.mcp_client import called, mcp_session
from tests.support.murmur_cli import Murmur as MurmurCli

# Left out of `make test-fast`: `murmur mcp` runs as a process of its own beside the window.
pytestmark = pytest.mark.slow


def test_an_assistants_change_shows_in_the_list_and_in_history(
    qtbot: QtBot, murmur: Murmur, db_path: Path, tmp_path: Path
) -> None:
    async def add() -> None:
        async with mcp_session(MurmurCli(db_path, tmp_path / "assistant")) as session:
            await called(session, "add", {"text": "buy bread"})

    anyio.run(add)
    qtbot.waitUntil(lambda: summaries(murmur) == ["Buy bread"], timeout=WAIT_MS)
    tree = murmur.window.history.tree
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1, timeout=WAIT_MS)
    assert tree.topLevelItem(0).text(0) == "“buy bread” via Claude Desktop"


def test_an_assistants_mass_archive_waits_for_the_windows_yes(
    qtbot: QtBot, murmur: Murmur, db_path: Path, tmp_path: Path
) -> None:
    said_and_shown(qtbot, murmur, *(f"note thing number {n}" for n in range(6)))
    ids = murmur.window.model.entry_ids()

    async def archive_all() -> int:
        async with mcp_session(MurmurCli(db_path, tmp_path / "assistant")) as session:
            held = await session.call_tool("archive_entries", {"entries": [{"id": i, "reason": "tidy"} for i in ids]})
            assert held.is_error and isinstance(held.structured_content, dict)
            return int(held.structured_content["error"]["utterance_id"])

    utterance = anyio.run(archive_all)
    inbox = murmur.window.inbox.tree
    qtbot.waitUntil(lambda: inbox.topLevelItemCount() == 1, timeout=WAIT_MS)
    assert len(summaries(murmur)) == 6
    murmur.conductor.retry(utterance)  # the inbox's Retry: the toast asks for the yes
    qtbot.waitUntil(lambda: murmur.toast.retry_button.text() == "Do it", timeout=WAIT_MS)
    qtbot.mouseClick(murmur.toast.retry_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: summaries(murmur) == [], timeout=WAIT_MS)
    history = murmur.window.history.tree
    qtbot.waitUntil(lambda: history.topLevelItem(0).text(0).endswith("via Claude Desktop"), timeout=WAIT_MS)
