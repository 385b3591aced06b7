"""The memory commands: what Murmur remembers about the user (memory list, add, forget, edit)."""

import argparse

from app.api.as_json import memory_json
from app.api.memories import MemoryChange
from app.api.service import MurmurService, build_service
from app.api.terminal import terminal_safe
from app.cli.exits import ExitCode
from app.cli.output import print_json, say
from app.cli.report import read_text
from app.presentation.memories import memory_said


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
        say(f"{memory_said(change)}  (undo: murmur undo)")
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
