"""The arguments of usage's commands; what they run is imported from app.cli.usage when one does."""

import argparse
from typing import Any

from app.cli.numbers import LIMIT


def add_commands(
    sub: "argparse._SubParsersAction[Any]",
    common: argparse.ArgumentParser,
    as_json: argparse.ArgumentParser,
) -> None:
    """Register usage and log (`common`: --db; `as_json`: --json)."""
    usage = sub.add_parser("usage", parents=[common, as_json], help="tokens and cost by day and month")
    usage.set_defaults(func="app.cli.usage:cmd_usage", reads_only=True)
    log = sub.add_parser("log", parents=[common, as_json], help="what the model was sent and answered")
    log.add_argument("--limit", type=LIMIT, default=10)
    log.set_defaults(func="app.cli.usage:cmd_log", reads_only=True)
