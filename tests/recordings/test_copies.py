"""Backups and exports leave the recordings out unless asked: `--with-audio` copies them, owner-only, into a
folder beside the file. `murmur` as typed, on a database with a dictated utterance (real speech from flite)."""

import stat
from pathlib import Path

from app.domain.enums import UtteranceSource
from app.recordings.sound import read_sound
from app.service import MurmurService
from tests.support.murmur_cli import Murmur


def flac_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.flac"))


def test_a_backup_leaves_the_recordings_out_unless_asked(
    service: MurmurService, speech: bytes, db_path: Path, tmp_path: Path
) -> None:
    service.submit("buy milk and bread", UtteranceSource.VOICE, audio=speech)
    cli = Murmur(db_path, tmp_path)
    plain, with_audio = tmp_path / "out" / "plain.db", tmp_path / "out" / "with-audio.db"
    plain.parent.mkdir()
    assert cli.run("backup", str(plain)).returncode == 0
    assert flac_files(plain.parent) == []
    done = cli.run("backup", str(with_audio), "--with-audio")
    assert done.returncode == 0 and "Copied 1 recording(s)" in done.stdout
    [copied] = flac_files(plain.parent)
    assert copied.parent == tmp_path / "out" / "with-audio.db.recordings"
    assert stat.S_IMODE(copied.stat().st_mode) == 0o600 and stat.S_IMODE(copied.parent.stat().st_mode) == 0o700
    assert read_sound(copied) == speech


def test_an_export_copies_the_recordings_of_its_utterances_only_when_asked(
    service: MurmurService, speech: bytes, db_path: Path, tmp_path: Path
) -> None:
    milk = service.submit("buy milk and bread", UtteranceSource.VOICE, audio=speech)
    dentist = service.submit("call the dentist", UtteranceSource.VOICE, audio=speech[: len(speech) // 2])
    service.complete(list(milk.touched))
    cli = Murmur(db_path, tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    assert cli.run("export", "-o", str(out / "all.json")).returncode == 0
    assert flac_files(out) == []
    assert cli.run("export", "--with-audio").returncode != 0  # to standard output: nowhere to put them
    assert cli.run("export", "--format", "csv", "--with-audio", "-o", str(out / "x.csv")).returncode != 0
    assert cli.run("export", "--with-audio", "-o", str(out / "all.json"), "--force").returncode == 0
    assert len(flac_files(out / "all.json.recordings")) == 2
    assert cli.run("export", "--status", "active", "--with-audio", "-o", str(out / "open.json")).returncode == 0
    [open_one] = flac_files(out / "open.json.recordings")
    assert open_one.name.startswith(f"{dentist.utterance_id}-")
