"""The desktop app commands: `murmur` alone starts the app; toggle, start, stop, cancel and show drive the running one.

Qt loads for the app only: the commands for the running one use a plain socket (app/command_socket.py).
"""

import argparse
from typing import Any

from app.cli.exits import ExitCode
from app.command_socket import AppCommand, send_command

HELP = {
    "toggle": "start recording in the running app, or stop it and submit (bind this to a key on Wayland)",
    "start": "start recording in the running app",
    "stop": "stop recording in the running app and submit what was said",
    "cancel": "stop recording in the running app and drop what was said (or stop it speaking)",
    "show": "show the running app's window",
}


def cmd_app_command(args: argparse.Namespace) -> int:
    send_command(AppCommand(args.command))
    return ExitCode.OK


def start_app(args: argparse.Namespace) -> int:
    """`murmur` with no command: the desktop app (or the already running one, raised)."""
    from app.ui.application import run

    return run(db_path=args.db)


def add_commands(sub: "argparse._SubParsersAction[Any]", common: argparse.ArgumentParser) -> None:
    """Register the commands for the running app (`common`: --db)."""
    for name, text in HELP.items():
        command = sub.add_parser(name, parents=[common], help=text)
        command.set_defaults(func=cmd_app_command)
