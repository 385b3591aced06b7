"""The arguments of memory's commands; what they run is imported from app.cli.memory when one does."""

import argparse
from typing import Any

from app.domain.defaults import MAX_MEMORY_CHARS


def add_commands(
    sub: "argparse._SubParsersAction[Any]",
    common: argparse.ArgumentParser,
    as_json: argparse.ArgumentParser,
) -> None:
    """Register `memory` and its actions (`common`: --db; `as_json`: --json)."""
    memory = sub.add_parser(
        "memory", parents=[common], help="what Murmur remembers about you (shown to the LLM in every request)"
    )
    actions = memory.add_subparsers(dest="memory_command", metavar="ACTION", required=True)

    lst = actions.add_parser("list", parents=[common, as_json], help="the memories, most recently used first")
    lst.set_defaults(func="app.cli.memory:cmd_memory_list", reads_only=True)

    add = actions.add_parser("add", parents=[common, as_json], help="remember a fact, e.g. 'my brother is Tom'")
    add.add_argument("text", nargs="+", help=f"the fact, at most {MAX_MEMORY_CHARS} characters ('-' reads stdin)")
    add.set_defaults(func="app.cli.memory:cmd_memory_add")

    forget = actions.add_parser("forget", parents=[common, as_json], help="forget a memory (undo brings it back)")
    forget.add_argument("id", metavar="ID", help="its short ID, from `murmur memory list`")
    forget.set_defaults(func="app.cli.memory:cmd_memory_forget")

    edit = actions.add_parser("edit", parents=[common, as_json], help="say a memory in new words")
    edit.add_argument("id", metavar="ID", help="its short ID, from `murmur memory list`")
    edit.add_argument("text", nargs="+", help="the new words ('-' reads stdin)")
    edit.set_defaults(func="app.cli.memory:cmd_memory_edit")
