"""The arguments of recall's commands; what they run is imported from app.cli.recall when one does."""

import argparse
from typing import Any


def add_commands(
    sub: "argparse._SubParsersAction[Any]", common: argparse.ArgumentParser, as_json: argparse.ArgumentParser
) -> None:
    recall = sub.add_parser(
        "recall", parents=[common, as_json], help="search what you said before (and what was answered and done)"
    )
    recall.add_argument("words", nargs="+", help="words to look for")
    recall.add_argument("--since", metavar="WHEN", help="only from then on: 'last week', 'yesterday', '2026-11-01'")
    recall.add_argument("--until", metavar="WHEN", help="only before then")
    recall.set_defaults(func="app.cli.recall:cmd_recall", reads_only=True)
