"""The arguments of sessions's commands; what they run is imported from app.cli.sessions when one does."""

import argparse
from typing import Any

from app.cli.numbers import LIMIT


def add_commands(
    sub: "argparse._SubParsersAction[Any]", common: argparse.ArgumentParser, as_json: argparse.ArgumentParser
) -> None:
    session = sub.add_parser("session", help="sessions of talk: list them, or end the open one")
    actions = session.add_subparsers(dest="session_command", metavar="ACTION", required=True)
    listing = actions.add_parser("list", parents=[common, as_json], help="the latest sessions, with their synthesis")
    listing.add_argument("--limit", type=LIMIT, default=20, help="how many (default 20)")
    listing.set_defaults(func="app.cli.sessions:cmd_session_list", reads_only=True)
    end = actions.add_parser("end", parents=[common], help="end the open session now (the model sums it up)")
    end.set_defaults(func="app.cli.sessions:cmd_session_end")
