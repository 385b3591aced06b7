"""The files that put Murmur in the desktop's menu, under the user's XDG folders, and a record of them.

`install` writes the .desktop file (its Exec is this installation's `murmur`, so a pipx or virtualenv install
starts from the menu without being on PATH), the icon in the hicolor theme (the SVG, and PNGs for desktops that
want them), the AppStream metainfo, and, when asked, the autostart entry. What it wrote is recorded with the
SHA-256 of each file, so `uninstall` removes exactly that and nothing else: a file changed since (the user edited
the menu entry) is left, and said so.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from app import __version__
from app.errors import UsageError
from app.paths import data_dir
from app.private_files import write_private_text

APP_ID = "io.github.murmurdesktop.Murmur"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256)
RELEASE_DATE = "2026-11-24"  # of __version__, for the metainfo's release list

PngRenderer = Callable[[bytes, int], bytes]  # the SVG and a size -> PNG bytes (Qt draws them: app.ui.icon_files)


def data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def config_home() -> Path:
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")


def _record_path() -> Path:
    return data_dir() / "desktop-files.json"


def launcher() -> list[str]:
    """How this installation starts: the `murmur` script beside this Python, else this Python running the package."""
    script = Path(sys.executable).parent / "murmur"
    return [str(script)] if script.is_file() and os.access(script, os.X_OK) else [sys.executable, "-m", "app"]


def _exec_line(arguments: list[str]) -> str:
    """Quoted as the Desktop Entry spec asks: a quoted argument escapes ", `, $ and \\ with a backslash, and then
    every backslash is doubled, as the value is unescaped as a string before it is split."""
    quoted = []
    for argument in arguments:
        if argument and not any(c in argument for c in " \t\n\"'\\><~|&;$*?#()`="):
            quoted.append(argument)
            continue
        escaped = "".join(f"\\{c}" if c in '"`$\\' else c for c in argument)
        quoted.append(f'"{escaped}"')
    return " ".join(quoted).replace("\\", "\\\\").replace("%", "%%")


def desktop_entry(command: list[str], autostart: bool = False) -> str:
    run = _exec_line(command)
    lines = [
        "[Desktop Entry]",
        "Type=Application",
        "Name=Murmur",
        "GenericName=Voice to-do list",
        "Comment=Hold a key, say what you need to do, let go",
        f"Exec={run}",
        f"Icon={APP_ID}",
        "Terminal=false",
        "Categories=Office;ProjectManagement;",
        "Keywords=todo;reminder;voice;dictation;notes;",
        "StartupNotify=false",
    ]
    if autostart:
        return "\n".join([*lines, "X-GNOME-Autostart-enabled=true", ""])
    action = ["", "[Desktop Action toggle]", "Name=Start or stop listening", f"Exec={run} toggle"]
    return "\n".join([*lines, "Actions=toggle;", *action, ""])


def metainfo() -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<component type="desktop-application">
  <id>{APP_ID}</id>
  <metadata_license>CC0-1.0</metadata_license>
  <project_license>MIT</project_license>
  <name>Murmur</name>
  <summary>Turn what you say into a kept list of todos and reminders</summary>
  <description>
    <p>Hold a key, say “remind me to call the dentist Thursday, and milk is done”, let go: a reminder due
    Thursday appears, the milk is ticked off, and a note offers Undo.</p>
    <p>Murmur works offline out of the box and understands more with a language model of your choice.
    Everything you say is kept on your computer, every change can be undone, and your list exports to
    iCalendar, todo.txt, CSV and Markdown.</p>
  </description>
  <launchable type="desktop-id">{APP_ID}.desktop</launchable>
  <developer id="io.github.murmurdesktop">
    <name>The Murmur Desktop developers</name>
  </developer>
  <content_rating type="oars-1.1"/>
  <provides>
    <binary>murmur</binary>
  </provides>
  <releases>
    <release version="{__version__}" date="{RELEASE_DATE}"/>
  </releases>
</component>
"""


def _icon_svg() -> bytes:
    return (files("app") / "resources" / "icons" / "murmur.svg").read_bytes()


def planned_files(
    render_png: PngRenderer, autostart: bool, share: Path | None = None, command: list[str] | None = None
) -> dict[Path, bytes]:
    """Every file `install` writes, with its bytes (into the user's XDG data folder unless `share` is given)."""
    share, command = share or data_home(), command or launcher()
    hicolor = share / "icons" / "hicolor"
    svg = _icon_svg()
    planned = {
        share / "applications" / f"{APP_ID}.desktop": desktop_entry(command).encode(),
        share / "metainfo" / f"{APP_ID}.metainfo.xml": metainfo().encode(),
        hicolor / "scalable" / "apps" / f"{APP_ID}.svg": svg,
    }
    for size in PNG_SIZES:
        planned[hicolor / f"{size}x{size}" / "apps" / f"{APP_ID}.png"] = render_png(svg, size)
    if autostart:
        planned[autostart_path()] = desktop_entry(command, autostart=True).encode()
    return planned


def autostart_path() -> Path:
    return config_home() / "autostart" / f"{APP_ID}.desktop"


# What versions before `murmur desktop install` wrote as autostart/murmur.desktop, word for word.
_OLDER_AUTOSTART_ENTRY = """[Desktop Entry]
Type=Application
Name=Murmur
Comment=Push-to-talk list keeper
Exec=murmur
Icon=murmur
Terminal=false
X-GNOME-Autostart-enabled=true
"""


_Recorded = dict[Path, str | None]  # each file written -> the SHA-256 of what was written, None when not known


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _recorded() -> _Recorded:
    """What `install` wrote; the previous release recorded the paths alone (a list): their digests are not known."""
    try:
        record = json.loads(_record_path().read_text(encoding="utf-8"))
        if isinstance(record, list):
            return {Path(path): None for path in record}
        return {Path(path): digest for path, digest in record["written"].items()}
    except FileNotFoundError:
        return {}
    except (ValueError, TypeError, KeyError, AttributeError):
        raise UsageError(f"{_record_path()} is not the record Murmur wrote; remove the files by hand") from None


def _record(written: _Recorded) -> None:
    _record_path().parent.mkdir(parents=True, exist_ok=True)
    record = {"written": {str(path): written[path] for path in sorted(written)}}
    write_private_text(_record_path(), json.dumps(record, indent=1))


def _holds(path: Path, digest: str | None) -> bool:
    """Whether `path` is a file (not a link) holding exactly what has that digest: what Murmur wrote, unchanged."""
    return digest is not None and path.is_file() and not path.is_symlink() and _sha256(path.read_bytes()) == digest


def _refresh_caches(share: Path) -> None:
    """The menu and icon caches, where the desktop keeps them (best effort: they rebuild by themselves too)."""
    for tool, folder in (("update-desktop-database", "applications"), ("gtk-update-icon-cache", "icons/hicolor")):
        if shutil.which(tool) and (share / folder).is_dir():
            extra = ["-q", "-t"] if tool == "gtk-update-icon-cache" else ["-q"]
            subprocess.run([tool, *extra, str(share / folder)], capture_output=True, check=False)


def _write(planned: dict[Path, bytes]) -> None:
    for path, data in planned.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)  # not private: the desktop's menu and icon theme read them


def install(render_png: PngRenderer, autostart: bool = False) -> list[Path]:
    """Write the menu entry, icons and metainfo (and the autostart entry); returns the files written."""
    planned = planned_files(render_png, autostart)
    _write(planned)
    _record({**_recorded(), **{path: _sha256(data) for path, data in planned.items()}})
    _refresh_caches(data_home())
    return list(planned)


def install_into(prefix: Path, render_png: PngRenderer) -> list[Path]:
    """For a package (Flatpak, AppImage): the same files under `prefix`/share, started as `murmur` from PATH,
    and not recorded (the package removes them)."""
    planned = planned_files(render_png, autostart=False, share=prefix / "share", command=["murmur"])
    _write(planned)
    return list(planned)


@dataclass(frozen=True)
class Uninstalled:
    removed: list[Path]
    left: list[Path]  # recorded, but changed since Murmur wrote them: the user's now


def _known_digests(recorded: _Recorded, render_png: PngRenderer) -> _Recorded:
    """The recorded digests; where the record has none (the previous release's), that of what this version writes
    there (None where it writes nothing)."""
    if all(recorded.values()):
        return recorded
    planned = planned_files(render_png, autostart=True)
    return {path: digest or (_sha256(planned[path]) if path in planned else None) for path, digest in recorded.items()}


def uninstall(render_png: PngRenderer) -> Uninstalled:
    """Remove what `install` wrote (recorded) and is still as it was written, and nothing else; `render_png` draws
    the icons this version writes, to know a file the previous release's record names by its path alone."""
    expected = _known_digests(_recorded(), render_png)
    there = [path for path in expected if path.exists() or path.is_symlink()]
    removed = [path for path in there if _holds(path, expected[path])]
    for path in removed:
        path.unlink()
    _record_path().unlink(missing_ok=True)
    _refresh_caches(data_home())
    return Uninstalled(removed, [path for path in there if path not in removed])


def set_autostart(enabled: bool) -> str | None:
    """Start at login (Settings): add or remove the autostart entry; one line when this platform has none."""
    if not sys.platform.startswith("linux"):
        return "start at login is set up by the installer on this platform"
    path = autostart_path()
    older = path.parent / "murmur.desktop"
    if _holds(older, _sha256(_OLDER_AUTOSTART_ENTRY.encode())):  # a file of that name the user made stays
        older.unlink()
    if enabled:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(desktop_entry(launcher(), autostart=True), encoding="utf-8")
    else:
        path.unlink(missing_ok=True)
    return None
