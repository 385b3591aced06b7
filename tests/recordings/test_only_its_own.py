"""Murmur removes only the sounds it wrote, in the folder it made: a `recordings` folder of the user's beside a
database opened with --db, or one that links to their music, keeps every file, and the dictation's sound goes
to a folder of Murmur's own. The real command and service on real files, real speech from flite."""

import os
from pathlib import Path

from app.assembly import build_service
from app.config import Settings
from app.domain.enums import UtteranceSource
from app.recordings.folder import MARK, RecordingsFolder
from tests.support.murmur_cli import Murmur

SONGS = ("song.flac", "12-0123456789ab.flac.bak", "voice memo.flac")


def users_folder(folder: Path) -> dict[str, bytes]:
    folder.mkdir(parents=True, exist_ok=True)
    for number, name in enumerate(SONGS):
        (folder / name).write_bytes(b"fLaC" + bytes([number]) * 64)
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def test_a_users_recordings_folder_beside_the_database_keeps_every_file(tmp_path: Path, speech: bytes) -> None:
    home = tmp_path / "home"
    before = users_folder(home / "recordings")
    murmur = Murmur(home / "todo.db", tmp_path)
    assert murmur.run("add", "--offline", "buy milk").returncode == 0
    assert murmur.run("list").returncode == 0
    service = build_service(home / "todo.db", Settings(), offline=True)
    try:
        said = service.submit("buy bread", UtteranceSource.VOICE, audio=speech).utterance_id
        assert service.recording_sound(said) == speech
        assert service.recordings.path == home / "todo.db-recordings"
    finally:
        service.close()
    assert murmur.run("list").returncode == 0  # a start's housekeeping, with a sound of Murmur's kept
    assert {path.name: path.read_bytes() for path in (home / "recordings").iterdir()} == before


def test_a_recordings_folder_that_links_elsewhere_is_never_swept(tmp_path: Path) -> None:
    music = tmp_path / "Music"
    before = users_folder(music)
    (tmp_path / "profile").mkdir()
    (tmp_path / "profile" / "recordings").symlink_to(music, target_is_directory=True)
    murmur = Murmur(tmp_path / "profile" / "murmur.db", tmp_path)
    assert murmur.run("add", "--offline", "buy milk").returncode == 0
    assert murmur.run("list").returncode == 0
    assert {path.name: path.read_bytes() for path in music.iterdir()} == before


def test_an_older_murmurs_folder_is_taken_on_and_its_strays_swept(tmp_path: Path, speech: bytes) -> None:
    folder = tmp_path / "recordings"
    folder.mkdir(mode=0o700)
    os.chmod(folder, 0o700)
    stray = folder / "7-00112233aabb.flac"  # a write cut short by an older Murmur: no row names it
    stray.write_bytes(b"fLaC")
    service = build_service(tmp_path / "murmur.db", Settings(), offline=True)
    try:
        assert service.recordings.path == folder and (folder / MARK).is_file()
        said = service.submit("buy bread", UtteranceSource.VOICE, audio=speech).utterance_id
        assert service.recording_sound(said) == speech
    finally:
        service.close()
    Murmur(tmp_path / "murmur.db", tmp_path).run("list")
    assert not stray.exists()


def test_a_name_murmur_never_gives_is_neither_found_nor_removed(tmp_path: Path) -> None:
    folder = RecordingsFolder.beside(tmp_path / "murmur.db")
    folder.new_file(1)
    outside = tmp_path / "notes.flac"
    outside.write_bytes(b"mine")
    for name in ("../notes.flac", str(outside), MARK):
        folder.delete(name)
        folder.to_trash(name)
        assert not folder.file(name).is_file()
    assert outside.read_bytes() == b"mine" and (folder.path / MARK).is_file()
