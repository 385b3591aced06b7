"""The desktop app commands: `murmur` alone starts the app; toggle, start, stop, cancel, show and quit drive the
running one.

Qt loads for the app only: the commands for the running one use a plain socket (app/command_socket.py).
"""

import argparse

from app.api.running_app import AppCommand, send_command
from app.cli.exits import ExitCode


def cmd_app_command(args: argparse.Namespace) -> int:
    send_command(AppCommand(args.command))
    return ExitCode.OK


def start_app(args: argparse.Namespace) -> int:
    """`murmur` with no command: the desktop app (or the already running one, raised)."""
    from app.ui.application import run

    return run(db_path=args.db)
