"""The data commands: the user's entries out (export) and in (import), in the formats other programs read."""

import argparse
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

from app.assembly import build_service
from app.changes.imports import ImportOutcome
from app.cli.exits import ExitCode
from app.cli.report import print_json, say
from app.domain.enums import Category, Status
from app.portable.common import Format
from app.service import MurmurService

_Choice = TypeVar("_Choice", bound=StrEnum)


def _service(args: argparse.Namespace) -> MurmurService:
    """Export and import read and write entries by hand: no interpreter is used, so none is looked up."""
    return build_service(args.db, offline=True)


def _choices(kind: type[_Choice]) -> Callable[[str], list[_Choice]]:
    """An option that takes one value or several, comma-separated ("active,snoozed")."""

    def parse(value: str) -> list[_Choice]:
        try:
            return [kind(word.strip().lower()) for word in value.split(",") if word.strip()]
        except ValueError:
            names = ", ".join(member.value for member in kind)
            raise argparse.ArgumentTypeError(f"{value!r}: choose from {names}") from None

    return parse


def cmd_export(args: argparse.Namespace) -> int:
    statuses = [s for chosen in args.status for s in chosen] if args.status else list(Status)
    categories = [c for chosen in args.category for c in chosen] if args.category else []
    service, fmt = _service(args), Format(args.format)
    if args.output is None:
        sys.stdout.write(service.export(fmt, statuses, categories))
        return ExitCode.OK
    output = Path(args.output).expanduser()
    service.export_file(output, fmt, statuses, categories)
    say(f"Exported to {output}")
    return ExitCode.OK


def _report_import(outcome: ImportOutcome, name: str, dry_run: bool, as_json: bool) -> int:
    if as_json:
        print_json(
            {
                "added": outcome.added,
                "duplicates": outcome.duplicates,
                "utterances": outcome.utterances,
                "memories": outcome.memories,
                "problems": [{"line": p.line, "message": p.message} for p in outcome.problems],
                "undo_id": outcome.undo_id,
                "dry_run": dry_run,
            }
        )
    else:
        for problem in outcome.problems:
            say(f"  {problem}")
        say(_import_summary(outcome, name, dry_run))
    nothing = not (outcome.added or outcome.duplicates or outcome.utterances or outcome.memories)
    return ExitCode.NOTHING_APPLIED if nothing and outcome.problems else ExitCode.OK


def _import_summary(outcome: ImportOutcome, name: str, dry_run: bool) -> str:
    noun = "entry" if outcome.added == 1 else "entries"
    verb = "Would import" if dry_run else "Imported"
    text = f"{verb} {outcome.added} {noun} from {name}"
    extras = [
        f"{count} {word}" for count, word in ((outcome.utterances, "said"), (outcome.memories, "remembered")) if count
    ]
    if extras:
        text += f" (and {', '.join(extras)})"
    notes = []
    if outcome.duplicates:
        notes.append(f"{outcome.duplicates} already here, skipped")
    if outcome.problems:
        notes.append(f"{len(outcome.problems)} with problems, listed above")
    text += f"; {'; '.join(notes)}." if notes else "."
    if dry_run:
        return f"{text} Nothing was changed (dry run)."
    return f"{text} Undo: murmur undo" if outcome.undo_id is not None else text


def cmd_import(args: argparse.Namespace) -> int:
    path = Path(args.file).expanduser()
    fmt = Format(args.format) if args.format else None
    outcome = _service(args).import_file(path, fmt, dry_run=args.dry_run)
    return _report_import(outcome, path.name, args.dry_run, args.json)


def add_commands(
    sub: "argparse._SubParsersAction[Any]",
    common: argparse.ArgumentParser,
    as_json: argparse.ArgumentParser,
) -> None:
    formats = [f.value for f in Format]
    export = sub.add_parser(
        "export", parents=[common], help="write your entries as JSON, Markdown, iCalendar, todo.txt or CSV"
    )
    export.add_argument(
        "--format", choices=formats, default=Format.JSON.value, help="default: json (all of it, to restore)"
    )
    export.add_argument(
        "--status", type=_choices(Status), action="append", metavar="S[,S]", help="only these statuses (default: all)"
    )
    export.add_argument(
        "--category", type=_choices(Category), action="append", metavar="C[,C]", help="only these categories"
    )
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE (owner-only) instead of standard output")
    export.set_defaults(func=cmd_export)

    importing = sub.add_parser("import", parents=[common, as_json], help="add entries from a file (one undoable batch)")
    importing.add_argument(
        "file", metavar="FILE", help="a Murmur JSON export, an .ics calendar, a todo.txt or a CSV file"
    )
    importing.add_argument(
        "--format", choices=[f.value for f in Format if f is not Format.MARKDOWN], help="default: from the file's name"
    )
    importing.add_argument("--dry-run", action="store_true", help="say what would be added; change nothing")
    importing.set_defaults(func=cmd_import)
