"""Owner-only files made and tightened in process, under an ordinary umask (022), as a library caller has."""

import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.config import Settings, save_settings
from app.paths import data_dir
from app.private_files import ensure_private_dir
from app.store import Store


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def ordinary_umask() -> Iterator[None]:
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def test_the_database_and_its_wal_and_shm_are_made_owner_only() -> None:
    store = Store.open(data_dir() / "murmur.db")
    try:
        made = sorted(data_dir().iterdir())
        assert [path.name for path in made] == ["murmur.db", "murmur.db-shm", "murmur.db-wal"]
        assert [mode(path) for path in made] == [0o600] * 3
        assert mode(data_dir()) == 0o700
    finally:
        store.close()


def test_a_database_in_a_folder_the_user_picked_leaves_the_folder_alone(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir(mode=0o755)
    (folder / "murmur.db.bak").write_text("an old copy")
    Store.open(folder / "murmur.db").close()
    assert mode(folder) == 0o755
    assert (mode(folder / "murmur.db"), mode(folder / "murmur.db.bak")) == (0o600, 0o600)


def test_a_looser_folder_and_its_files_are_tightened_once_each_models_stay(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "data"
    (folder / "models").mkdir(parents=True)
    (folder / "models" / "model.bin").write_text("weights")
    (folder / "speech-channels.json").write_text("{}")
    folder.chmod(0o755)
    with caplog.at_level(logging.INFO, logger="murmur.files"):
        ensure_private_dir(folder)
        ensure_private_dir(folder)
    assert (mode(folder), mode(folder / "speech-channels.json")) == (0o700, 0o600)
    assert (mode(folder / "models"), mode(folder / "models" / "model.bin")) == (0o755, 0o644)
    assert caplog.messages == [
        f"tightened permissions of {folder} to 0700",
        f"tightened permissions of {folder / 'speech-channels.json'} to 0600",
    ]


def test_settings_are_written_owner_only_from_the_start(tmp_path: Path) -> None:
    path = save_settings(Settings(), tmp_path / "config" / "settings.toml")
    assert (mode(path.parent), mode(path)) == (0o700, 0o600)
