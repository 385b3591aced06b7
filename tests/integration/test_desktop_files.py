"""`murmur desktop install` and `uninstall` into a fresh home: the files validate with the desktop's own tools
(desktop-file-validate, appstreamcli), the icons are PNGs of their sizes, and uninstall removes exactly them."""

import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from app.desktop.entries import APP_ID, PNG_SIZES, desktop_entry
from tests.support.murmur_cli import ROOT


def _murmur(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "MURMUR_DATA_DIR": str(home / "murmur-data"),
    }
    done = subprocess.run([sys.executable, "-m", "app", *args], env=env, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done


def _validate(*command: str) -> None:
    if shutil.which(command[0]) is None:
        pytest.fail(f"{command[0]} is not installed (Debian: desktop-file-utils, appstream)")
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0 and "error" not in done.stdout.lower(), done.stdout + done.stderr


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_install_writes_valid_files_and_uninstall_removes_exactly_them(tmp_path: Path) -> None:
    share = tmp_path / ".local/share"
    mine = share / "applications" / "someone-else.desktop"
    mine.parent.mkdir(parents=True)
    mine.write_text("[Desktop Entry]\nType=Application\nName=Other\nExec=other\n")

    installed = _murmur(tmp_path, "desktop", "install", "--autostart", "--json")

    entry = share / "applications" / f"{APP_ID}.desktop"
    autostart = tmp_path / ".config/autostart" / f"{APP_ID}.desktop"
    metainfo = share / "metainfo" / f"{APP_ID}.metainfo.xml"
    for desktop_file in (entry, autostart):
        _validate("desktop-file-validate", str(desktop_file))
    _validate("appstreamcli", "validate", "--no-net", str(metainfo))
    exec_line = next(line for line in entry.read_text().splitlines() if line.startswith("Exec="))
    program = exec_line.removeprefix("Exec=").split()[0]
    assert os.access(program, os.X_OK) and Path(program).parent == Path(sys.executable).parent
    for size in PNG_SIZES:
        assert _png_size(share / f"icons/hicolor/{size}x{size}/apps/{APP_ID}.png") == (size, size)
    assert (share / f"icons/hicolor/scalable/apps/{APP_ID}.svg").read_bytes().lstrip().startswith(b"<")
    written = {Path(p) for p in json.loads(installed.stdout)["written"]}
    assert len(written) == 3 + len(PNG_SIZES) + 1

    removed = _murmur(tmp_path, "desktop", "uninstall", "--json")

    assert {Path(p) for p in json.loads(removed.stdout)["removed"]} == written
    assert not any(path.exists() for path in written) and mine.exists()
    assert _murmur(tmp_path, "desktop", "uninstall").stdout.startswith("Nothing to remove")


def test_a_path_with_spaces_and_quotes_is_quoted_as_the_spec_asks(tmp_path: Path) -> None:
    path = tmp_path / "the apps" / 'murmur "beta"$1.desktop'
    path.parent.mkdir()
    path.write_text(desktop_entry(['/opt/My Apps/murmur "beta"/murmur']))
    _validate("desktop-file-validate", str(path))
    assert 'Exec="/opt/My Apps/murmur \\\\"beta\\\\"/murmur"\n' in path.read_text()


def test_a_package_gets_the_same_files_under_its_prefix_started_from_path(tmp_path: Path) -> None:
    prefix = tmp_path / "app"

    _murmur(tmp_path, "desktop", "install", "--prefix", str(prefix))

    entry = prefix / "share" / "applications" / f"{APP_ID}.desktop"
    _validate("desktop-file-validate", str(entry))
    _validate("appstreamcli", "validate", "--no-net", str(prefix / "share" / "metainfo" / f"{APP_ID}.metainfo.xml"))
    assert "Exec=murmur\n" in entry.read_text()
    assert not (tmp_path / "murmur-data" / "desktop-files.json").exists()  # the package removes them, not we
    assert not (tmp_path / ".local").exists()  # nothing in the user's own folders
