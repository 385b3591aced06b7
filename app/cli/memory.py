"""The memory commands: what Murmur remembers about the user (memory list, add, forget, edit)."""

import argparse
from typing import Any

from app.assembly import build_service
from app.changes.memories import MAX_MEMORY_CHARS, MemoryChange
from app.cli.exits import ExitCode
from app.cli.report import print_json, read_text, say
from app.render import memory_json, terminal_safe
from app.service import MurmurService

_DONE = {"remember": "Remembered", "forget": "Forgot", "edit": "Edited"}


def _service(args: argparse.Namespace) -> MurmurService:
    """Memories are read and changed by hand: no interpreter is used, so none is looked up."""
    return build_service(args.db, offline=True)


def _one_line(text: str) -> str:
    return terminal_safe(text, multiline=False)


def cmd_memory_list(args: argparse.Namespace) -> int:
    service = _service(args)
    memories = service.memories()
    if args.json:
        tz = service.clock().tz
        print_json([memory_json(memory, short_id, tz) for short_id, memory in memories])
    elif not memories:
        say("No memories yet.")
    else:
        for short_id, memory in memories:
            say(f"{short_id}  {_one_line(memory.text)}")
    return ExitCode.OK


def _report(service: MurmurService, change: MemoryChange, as_json: bool) -> int:
    if as_json:
        print_json(
            {
                "change": change.kind,
                "confirmed": change.confirmed,
                "memory": memory_json(change.memory, change.short_id, service.clock().tz),
                "undo_id": change.batch_id,
                "action_id": change.undo_item_id,
            }
        )
    else:
        done = "Already remembered" if change.confirmed else _DONE[change.kind]
        say(f"{done} {change.short_id}: {_one_line(change.memory.text)}  (undo: murmur undo)")
    return ExitCode.OK


def cmd_memory_add(args: argparse.Namespace) -> int:
    service = _service(args)
    return _report(service, service.remember(read_text(args.text)), args.json)


def cmd_memory_forget(args: argparse.Namespace) -> int:
    service = _service(args)
    return _report(service, service.forget_memory(args.id), args.json)


def cmd_memory_edit(args: argparse.Namespace) -> int:
    service = _service(args)
    return _report(service, service.edit_memory(args.id, read_text(args.text)), args.json)


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
    lst.set_defaults(func=cmd_memory_list, reads_only=True)

    add = actions.add_parser("add", parents=[common, as_json], help="remember a fact, e.g. 'my brother is Tom'")
    add.add_argument("text", nargs="+", help=f"the fact, at most {MAX_MEMORY_CHARS} characters ('-' reads stdin)")
    add.set_defaults(func=cmd_memory_add)

    forget = actions.add_parser("forget", parents=[common, as_json], help="forget a memory (undo brings it back)")
    forget.add_argument("id", metavar="ID", help="its short ID, from `murmur memory list`")
    forget.set_defaults(func=cmd_memory_forget)

    edit = actions.add_parser("edit", parents=[common, as_json], help="say a memory in new words")
    edit.add_argument("id", metavar="ID", help="its short ID, from `murmur memory list`")
    edit.add_argument("text", nargs="+", help="the new words ('-' reads stdin)")
    edit.set_defaults(func=cmd_memory_edit)
