"""The arguments of sync's commands; what they run is imported from app.cli.sync when one does."""

import argparse
from typing import Any

from app.cli.args.secret_file import add_keep_in_file


def add_commands(
    sub: "argparse._SubParsersAction[Any]",
    common: argparse.ArgumentParser,
    as_json: argparse.ArgumentParser,
) -> None:
    sync = sub.add_parser(
        "sync", parents=[common, as_json], help="sync the list with your CalDAV server (Nextcloud, Fastmail, ...)"
    )
    sync.add_argument(
        "--confirm", action="store_true", help="archive the tasks deleted on the server, however many at once"
    )
    sync.set_defaults(func="app.cli.sync:cmd_sync")
    actions = sync.add_subparsers(dest="sync_command", metavar="ACTION")
    status = actions.add_parser("status", parents=[common, as_json], help="last sync, changes waiting, last error")
    status.set_defaults(func="app.cli.sync:cmd_sync_status", reads_only=True)
    setup = actions.add_parser("setup", parents=[common], help="connect to a server and pick a task list")
    setup.add_argument("--url", help="the server's address, e.g. https://cloud.example.com/remote.php/dav")
    setup.add_argument("--username")
    setup.add_argument("--calendar", metavar="NAME", help="the task list (made when missing)")
    setup.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    add_keep_in_file(setup)
    setup.set_defaults(func="app.cli.sync:cmd_sync_setup")
