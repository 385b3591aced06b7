"""The `murmur` command: the parser, assembled from the command modules' arguments, and main() with its
one-line errors. The parser loads nothing heavy (app.cli.args); a command's module is imported when it runs.

Exit status: see app.cli.exits. Errors go to stderr as one line: `murmur: error: ...`.
"""

import argparse
import logging
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from pathlib import Path
from typing import NoReturn

from app.api.settings import default_db_path, read_settings, secure_files_at_start, setup_logging
from app.api.terminal import terminal_safe
from app.cli.app_control import start_app
from app.cli.args import parse_args
from app.cli.exits import ExitCode, exit_code_of
from app.cli.output import print_error, print_warning
from app.cli.own_process import own_process
from app.cli.process_end import end_process
from app.errors import MurmurError, StoreError

log = logging.getLogger("murmur.cli")


def run() -> NoReturn:
    """The `murmur` command's process: `main` on the process's arguments, then its end (app.cli.process_end)."""
    end_process(main())


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """`murmur argv`; with `env`, run in this process as if it were a fresh one with exactly that environment
    (see app.cli.own_process), leaving the caller's state as it was."""
    if env is not None:
        with own_process(env):
            return _run(argv)
    return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    args = parse_args(argv)
    # --db may come before or after the command (so it is SUPPRESSed by default); resolved once, for every command
    named = Path(args.db).expanduser() if getattr(args, "db", None) else None
    args.db = named or default_db_path()
    if args.command is None:
        return start_app(args)
    log_path = setup_logging()
    secure_files_at_start()
    if args.command != "config":  # config show and set report the settings file's problems themselves
        for problem in read_settings()[1]:
            print_warning(problem)
    try:
        _refuse_a_missing_database(args, named)
        status = int(handler(args.func)(args))
        sys.stdout.flush()  # a closed pipe shows here, inside the handler, not at interpreter exit
        return status
    except BrokenPipeError:
        _silence_stdout()
        return ExitCode.BROKEN_PIPE
    except MurmurError as error:
        print_error(error)
        return exit_code_of(error)
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except Exception as error:  # a bug: one line here, the traceback in the log
        log.exception("unexpected error in %s", args.command)
        where = f"; details in {log_path}" if log_path else ""
        print(f"murmur: internal error: {terminal_safe(repr(error))} (this is a bug{where})", file=sys.stderr)
        return ExitCode.INTERNAL


def handler(name: str) -> Callable[[argparse.Namespace], int]:
    """The function a command runs, named "module:function" where the command is registered: its module (the
    store, the pipeline, the speech engines) is imported only now, for the one command that runs."""
    module, _, function = name.partition(":")
    found: Callable[[argparse.Namespace], int] = getattr(import_module(module), function)
    return found


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
