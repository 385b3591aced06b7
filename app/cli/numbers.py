"""Numbers read from the command line, each checked against its range as it is parsed: one out of range is a
one-line usage error (exit 2) before anything is opened, never an overflow deep in SQLite."""

import argparse
import math
from collections.abc import Callable

SQLITE_MAX_INT = 2**63 - 1  # SQLite's integers are signed 64-bit: no row has a larger ID
MAX_LISTED = 100_000  # more lines than anyone reads; a limit past it only costs memory


def whole_number(high: int = SQLITE_MAX_INT, low: int = 1) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:  # not digits, or more of them than Python converts
            value = low - 1
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is not a whole number from {low} to {high}")
        return value

    return parse


def positive_seconds(high: float) -> Callable[[str], float]:
    """An argparse type: a length of time in seconds, more than 0 and at most `high`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not 0 < value <= high:  # also refuses nan, which compares false with everything
            raise argparse.ArgumentTypeError(f"{text} is not a number of seconds above 0 and at most {high:g}")
        return value

    return parse


ROW_ID = whole_number()
LIMIT = whole_number(MAX_LISTED)
