"""The CLI's desktop-app commands: `murmur` alone starts the app; `murmur toggle|start|stop|cancel|show`
drive the running one. Importing this module must not import Qt (so `murmur add` stays fast)."""

import argparse
from pathlib import Path
from typing import Any

HELP = {
    "toggle": "start recording in the running app, or stop it and submit (bind this to a key on Wayland)",
    "start": "start recording in the running app",
    "stop": "stop recording in the running app and submit what was said",
    "cancel": "stop recording in the running app and drop what was said",
    "show": "show the running app's window",
}


def add_app_commands(subparsers: "argparse._SubParsersAction[Any]", parents: list[argparse.ArgumentParser]) -> None:
    for name, text in HELP.items():
        command = subparsers.add_parser(name, parents=parents, help=text)
        command.set_defaults(func=cmd_app_command)


def cmd_app_command(args: argparse.Namespace) -> int:
    from PySide6.QtCore import QCoreApplication

    from app.ui.single_instance import AppCommand, send_command

    _ = QCoreApplication.instance() or QCoreApplication([])
    send_command(AppCommand(args.command))
    return 0


def start_app(args: argparse.Namespace) -> int:
    """`murmur` with no command: the desktop app (or the already running one, raised)."""
    from app.ui.application import run

    return run(db_path=Path(args.db) if args.db else None)
