"""The arguments of the recordings' commands; what they run is imported from app.cli.recordings when one does."""

import argparse
from typing import Any

from app.cli.numbers import ROW_ID, whole_number


def add_commands(
    sub: "argparse._SubParsersAction[Any]", common: argparse.ArgumentParser, as_json: argparse.ArgumentParser
) -> None:
    """Register `play` and `forget-audio` (`common`: --db; `as_json`: --json)."""
    play = sub.add_parser("play", parents=[common], help="hear again what you said: an utterance's recording")
    play.add_argument("utterance_id", type=ROW_ID, metavar="ID", help="its number, from `murmur inbox` or `recall`")
    play.add_argument("--out", metavar="FILE", help="write it to FILE as WAV instead of playing it")
    play.add_argument("--force", action="store_true", help="with --out: replace FILE if it exists")
    play.set_defaults(func="app.cli.recordings:cmd_play", reads_only=True)

    forget = sub.add_parser(
        "forget-audio",
        parents=[common, as_json],
        help="forget the recordings of what you said, keeping the words (undo brings them back)",
    )
    which = forget.add_mutually_exclusive_group(required=True)
    which.add_argument("utterance_id", type=ROW_ID, metavar="ID", nargs="?", help="the utterance's recording")
    which.add_argument("--all", action="store_true", help="every recording kept")
    which.add_argument(
        "--older-than", type=whole_number(36_500, 0), metavar="DAYS", help="the recordings older than DAYS days"
    )
    forget.set_defaults(func="app.cli.recordings:cmd_forget_audio")
