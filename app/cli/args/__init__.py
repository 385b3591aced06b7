"""The `murmur` parser, from each command family's arguments, registered without importing what its commands
run: `func` names the function as "module:function", imported by app.cli.main when that command runs."""

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

from app.api.settings import __version__
from app.cli.args import (
    app_control,
    data,
    desktop,
    doctor,
    entries,
    llm,
    mcp,
    memory,
    models,
    recall,
    recordings,
    runs,
    sessions,
    speech,
    sync,
    usage,
    vocab,
    voice,
)
from app.cli.exits import ExitCode


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line on stderr, like every other error (subcommands inherit this class)."""

    def error(self, message: str) -> NoReturn:
        self.exit(ExitCode.USAGE, f"murmur: error: {message} (see `{self.prog} --help`)\n")


class _NotQuick(Exception):
    """What the quick parser does not accept: the full parser takes it over."""


class _QuickParser(_Parser):
    def error(self, message: str) -> NoReturn:
        raise _NotQuick(message)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, parsed. Building argparse's sub-parsers for all the commands costs more than
    `murmur toggle` itself, so a parser with only --version and the commands for the running app tries first;
    anything else it meets (every other command, --help, a mistake) is parsed, or refused, by the full one."""
    try:
        return build_parser(quick=True).parse_args(argv)
    except _NotQuick:
        return build_parser().parse_args(argv)


def build_parser(quick: bool = False) -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db", metavar="PATH", default=argparse.SUPPRESS, help="database file (default: $MURMUR_DB or the data dir)"
    )
    as_json = argparse.ArgumentParser(add_help=False)
    as_json.add_argument("--json", action="store_true", help="print JSON")

    parser = (_QuickParser if quick else _Parser)(
        prog="murmur",
        parents=[common],
        add_help=not quick,  # the help lists every command: the full parser's
        description="Murmur Desktop: turn what you say into a kept list of todos, reminders and notes.",
    )
    parser.add_argument("--version", action="version", version=f"murmur {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    if not quick:
        _add_every_other_command(sub, common, as_json)
    app_control.add_commands(sub, common)
    return parser


def _add_every_other_command(
    sub: "argparse._SubParsersAction[Any]", common: argparse.ArgumentParser, as_json: argparse.ArgumentParser
) -> None:
    entries.add_commands(sub, common, as_json)
    memory.add_commands(sub, common, as_json)
    vocab.add_commands(sub, common, as_json)
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
    runs.add_commands(sub, common, as_json)
    desktop.add_commands(sub, common, as_json)
    mcp.add_commands(sub, common, as_json)
    recordings.add_commands(sub, common, as_json)
