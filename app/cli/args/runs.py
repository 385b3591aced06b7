"""The arguments of the runs command; what it runs is imported from app.cli.runs when it does."""

import argparse
from typing import Any

from app.cli.numbers import LIMIT


def add_commands(
    sub: "argparse._SubParsersAction[Any]", common: argparse.ArgumentParser, as_json: argparse.ArgumentParser
) -> None:
    """Register runs (`common`: --db; `as_json`: --json)."""
    runs = sub.add_parser(
        "runs",
        parents=[common, as_json],
        help="the last runs, newest first: each stage's time and how it ended, to see what is slow or failing",
    )
    runs.add_argument("run_id", nargs="?", metavar="RUN_ID", help="one run's events, by its ID or the ID's start")
    runs.add_argument("--limit", type=LIMIT, default=None, help="at most this many runs (default: all kept)")
    runs.set_defaults(func="app.cli.runs:cmd_runs", reads_only=True)
