"""Actions that take one NAME (download, remove, use), as the models and the voices commands both have."""

import argparse
from collections.abc import Sequence
from typing import Any


def add_named_actions(
    actions: "argparse._SubParsersAction[Any]",
    parents: list[argparse.ArgumentParser],
    named: Sequence[tuple[str, str, str]],
) -> None:
    """One sub-command per (name, "module:function", help), each taking the NAME it acts on."""
    for name, func, text in named:
        action = actions.add_parser(name, parents=parents, help=text)
        action.add_argument("name", metavar="NAME")
        action.set_defaults(func=func)
