"""Start at login: an XDG autostart entry on Linux (packaging/murmur-autostart.desktop's content)."""

import os
import sys
from pathlib import Path

ENTRY = """[Desktop Entry]
Type=Application
Name=Murmur
Comment=Push-to-talk list keeper
Exec=murmur
Icon=murmur
Terminal=false
X-GNOME-Autostart-enabled=true
"""


def autostart_path() -> Path:
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "autostart" / "murmur.desktop"


def set_start_at_login(enabled: bool) -> str | None:
    """Add or remove the autostart entry; a one-line reason when this platform is not supported."""
    if not sys.platform.startswith("linux"):
        return "start at login is set up by the installer on this platform"
    path = autostart_path()
    if enabled:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(ENTRY, encoding="utf-8")
    else:
        path.unlink(missing_ok=True)
    return None
