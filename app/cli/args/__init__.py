"""The `murmur` parser, from each command family's arguments, registered without importing what its commands
run: `func` names the function as "module:function", imported by app.cli.main when that command runs."""

import argparse
from typing import NoReturn

from app import __version__
from app.cli.args import (
    app_control,
    data,
    desktop,
    doctor,
    entries,
    llm,
    memory,
    models,
    recall,
    sessions,
    speech,
    sync,
    usage,
    voice,
)
from app.cli.exits import ExitCode


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line on stderr, like every other error (subcommands inherit this class)."""

    def error(self, message: str) -> NoReturn:
        self.exit(ExitCode.USAGE, f"murmur: error: {message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db", metavar="PATH", default=argparse.SUPPRESS, help="database file (default: $MURMUR_DB or the data dir)"
    )
    as_json = argparse.ArgumentParser(add_help=False)
    as_json.add_argument("--json", action="store_true", help="print JSON")

    parser = _Parser(
        prog="murmur",
        parents=[common],
        description="Murmur Desktop: turn what you say into a kept list of todos, reminders and notes.",
    )
    parser.add_argument("--version", action="version", version=f"murmur {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    entries.add_commands(sub, common, as_json)
    memory.add_commands(sub, common, as_json)
    data.add_commands(sub, common, as_json)
    sync.add_commands(sub, common, as_json)
    speech.add_commands(sub, common, as_json)
    voice.add_commands(sub, common, as_json)
    models.add_commands(sub, common, as_json)
    llm.add_commands(sub, common, as_json)
    usage.add_commands(sub, common, as_json)
    recall.add_commands(sub, common, as_json)
    sessions.add_commands(sub, common, as_json)
    doctor.add_commands(sub, common, as_json)
    desktop.add_commands(sub, common, as_json)
    app_control.add_commands(sub, common)
    return parser
