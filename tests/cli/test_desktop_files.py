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

from app.desktop.entries import APP_ID, PNG_SIZES, autostart_path, desktop_entry, launcher, set_autostart
from tests.support.in_process import run_in_process

# `desktop install` draws its icons with Qt in this process: the session's QApplication is made first, since the
# windowless QGuiApplication the command would make keeps the window tests later in this worker from making theirs.
pytestmark = pytest.mark.usefixtures("qapp")

# What Murmur wrote at login before `murmur desktop install` existed (an older version's autostart entry).
OLDER_AUTOSTART_ENTRY = """[Desktop Entry]
Type=Application
Name=Murmur
Comment=Push-to-talk list keeper
Exec=murmur
Icon=murmur
Terminal=false
X-GNOME-Autostart-enabled=true
"""


def _murmur(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "MURMUR_DATA_DIR": str(home / "murmur-data"),
    }
    done = run_in_process(args, env, None)
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


def test_uninstall_leaves_a_file_changed_since_install_and_says_so(tmp_path: Path) -> None:
    installed = {Path(p) for p in json.loads(_murmur(tmp_path, "desktop", "install", "--json").stdout)["written"]}
    entry = tmp_path / ".local/share/applications" / f"{APP_ID}.desktop"
    entry.write_text(entry.read_text() + "NoDisplay=true\n")  # the user hid it from the menu

    removed = _murmur(tmp_path, "desktop", "uninstall")

    assert removed.stdout.splitlines() == [
        f"Removed {len(installed) - 1} files.",
        f"Left {entry}: changed since Murmur wrote it",
    ]
    assert [path for path in installed if path.exists()] == [entry] and entry.read_text().endswith("NoDisplay=true\n")


def test_a_record_of_the_previous_release_removes_only_what_this_version_writes(tmp_path: Path) -> None:
    installed = json.loads(_murmur(tmp_path, "desktop", "install", "--autostart", "--json").stdout)["written"]
    metainfo = tmp_path / ".local/share/metainfo" / f"{APP_ID}.metainfo.xml"
    metainfo.write_text(metainfo.read_text().replace("<name>Murmur</name>", "<name>My Murmur</name>"))
    unknown = tmp_path / ".local/share/applications/murmur.desktop"  # a path this version never writes
    unknown.write_text("[Desktop Entry]\nType=Application\nName=Mine\nExec=mine\n")
    record = tmp_path / "murmur-data" / "desktop-files.json"
    record.write_text(json.dumps(sorted([*installed, str(unknown)])))  # the paths alone, as the previous release kept

    removed = json.loads(_murmur(tmp_path, "desktop", "uninstall", "--json").stdout)

    assert sorted(removed["left"]) == sorted([str(metainfo), str(unknown)])
    assert sorted(removed["removed"]) == sorted(set(installed) - {str(metainfo)})
    assert metainfo.exists() and unknown.exists() and not record.exists()
    assert not any(Path(path).exists() for path in removed["removed"])


@pytest.mark.parametrize(
    ("content", "stays"),
    [
        (OLDER_AUTOSTART_ENTRY, False),
        (OLDER_AUTOSTART_ENTRY.replace("Exec=murmur", "Exec=murmur --hidden"), True),
        ("[Desktop Entry]\nType=Application\nName=Murmur the sound player\nExec=murmur-player\n", True),
    ],
    ids=["an older Murmur's", "edited by the user", "another program's"],
)
def test_start_at_login_removes_an_older_murmurs_autostart_entry_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str, stays: bool
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    older = tmp_path / "autostart" / "murmur.desktop"
    older.parent.mkdir()
    older.write_text(content)

    assert set_autostart(True) is None

    assert older.exists() is stays and (not stays or older.read_text() == content)
    assert autostart_path().read_text() == desktop_entry(launcher(), autostart=True)


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
