"""The commands for the running app (toggle, start, stop, cancel, show, quit): run from app.cli.app_control, which
loads only the socket client, so a key bound to `murmur start` starts recording at once."""

import argparse
from typing import Any

HELP = {
    "toggle": "start recording in the running app, or stop it and submit (bind this to a key on Wayland)",
    "start": "start recording in the running app",
    "stop": "stop recording in the running app and submit what was said",
    "cancel": "stop recording in the running app and drop what was said (or stop it speaking)",
    "show": "show the running app's window",
    "quit": "quit the running app, as its Quit does (what was said is kept)",
}


def add_commands(sub: "argparse._SubParsersAction[Any]", common: argparse.ArgumentParser) -> None:
    """Register the commands for the running app (`common`: --db)."""
    for name, text in HELP.items():
        command = sub.add_parser(name, parents=[common], help=text)
        command.set_defaults(func="app.cli.app_control:cmd_app_command")
