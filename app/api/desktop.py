"""The app on the desktop: one instance serving commands, its menu entry, autostart and launcher, the hotkey
backends."""

from app.command_server import CommandServer
from app.desktop.entries import APP_ID, install, install_into, launcher, set_autostart, uninstall
from app.doctor.advice import NO_TRAY
from app.instance_lock import InstanceLock, instance_lock_path
from app.shortcuts.choice import BACKEND_WORDS, Backend, choose_backend
from app.shortcuts.problems import ShortcutError

__all__ = [
    "APP_ID",
    "BACKEND_WORDS",
    "Backend",
    "CommandServer",
    "InstanceLock",
    "NO_TRAY",
    "ShortcutError",
    "choose_backend",
    "install",
    "install_into",
    "instance_lock_path",
    "launcher",
    "set_autostart",
    "uninstall",
]
