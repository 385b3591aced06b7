"""The arguments of desktop's commands; what they run is imported from app.cli.desktop when one does."""

import argparse
from typing import Any


def add_commands(
    sub: "argparse._SubParsersAction[Any]", common: argparse.ArgumentParser, as_json: argparse.ArgumentParser
) -> None:
    desktop = sub.add_parser("desktop", help="put Murmur in the desktop's application menu, or take it out")
    actions = desktop.add_subparsers(dest="desktop_command", metavar="ACTION", required=True)
    installing = actions.add_parser("install", parents=[common, as_json], help="the menu entry, icons and metainfo")
    installing.add_argument("--autostart", action="store_true", help="also start Murmur at login")
    installing.add_argument(
        "--prefix", metavar="DIR", help="for packagers: write into DIR/share (Exec=murmur), not the user's folders"
    )
    installing.set_defaults(func="app.cli.desktop:cmd_desktop_install")
    removing = actions.add_parser(
        "uninstall", parents=[common, as_json], help="remove what install wrote, but for files changed since"
    )
    removing.set_defaults(func="app.cli.desktop:cmd_desktop_uninstall")
