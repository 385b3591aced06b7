"""The `murmur` command: the parser, assembled from the command modules, and main() with its one-line errors.

Exit status: see app.cli.exits. Errors go to stderr as one line: `murmur: error: ...`.
"""

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from app import __version__
from app.cli import (
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
from app.cli.report import print_error, print_warning
from app.config import read_settings
from app.errors import MurmurError, StoreError, UsageError
from app.logs import setup_logging
from app.paths import default_db_path
from app.private_files import secure_files_at_start
from app.render import terminal_safe

log = logging.getLogger("murmur.cli")


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


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # --db may come before or after the command (so it is SUPPRESSed by default); resolved once, for every command
    named = Path(args.db).expanduser() if getattr(args, "db", None) else None
    args.db = named or default_db_path()
    if args.command is None:
        return app_control.start_app(args)
    log_path = setup_logging()
    secure_files_at_start()
    if args.command != "config":  # config show and set report the settings file's problems themselves
        for problem in read_settings()[1]:
            print_warning(problem)
    try:
        _refuse_a_missing_database(args, named)
        status = int(args.func(args))
        sys.stdout.flush()  # a closed pipe shows here, inside the handler, not at interpreter exit
        return status
    except BrokenPipeError:
        _silence_stdout()
        return ExitCode.BROKEN_PIPE
    except UsageError as error:
        print_error(str(error))
        return ExitCode.USAGE
    except MurmurError as error:
        print_error(str(error))
        return ExitCode.NOTHING_APPLIED
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except Exception as error:  # a bug: one line here, the traceback in the log
        log.exception("unexpected error in %s", args.command)
        where = f"; details in {log_path}" if log_path else ""
        print(f"murmur: internal error: {terminal_safe(repr(error))} (this is a bug{where})", file=sys.stderr)
        return ExitCode.NOTHING_APPLIED


def _refuse_a_missing_database(args: argparse.Namespace, named: Path | None) -> None:
    """A command that only reads (marked `reads_only` where it is registered) makes no database: a mistyped
    --db is said so, not answered with an empty list. MURMUR_DB and the data folder's own are made as ever (a
    new profile's first `murmur list` is an empty list)."""
    if named is not None and getattr(args, "reads_only", False) and not named.exists():
        raise StoreError(f"no database at {named}")


def _silence_stdout() -> None:
    """The reader went away (`murmur list | head`): point stdout at devnull so the interpreter's last flush
    does not print "Exception ignored ... BrokenPipeError" (the recipe in the signal module's docs)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
