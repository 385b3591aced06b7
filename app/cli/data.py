"""The data commands: the user's entries out (export) and in (import), in the formats other programs read, and
the database's backups (backup, backups, restore)."""

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

from app.api.data import Backup, ImportOutcome, RecordingCopies, restore_database
from app.api.service import MurmurService, build_service
from app.cli.exits import ExitCode
from app.cli.output import print_json, say
from app.domain.enums import Format, Status
from app.errors import UsageError
from app.presentation.times import moment_words


def _service(args: argparse.Namespace) -> MurmurService:
    """Export and import read and write entries by hand: no interpreter is used, so none is looked up."""
    return build_service(args.db, offline=True)


def cmd_export(args: argparse.Namespace) -> int:
    statuses = [s for chosen in args.status for s in chosen] if args.status else list(Status)
    categories = [c for chosen in args.category for c in chosen] if args.category else []
    fmt = Format(args.format)
    if args.with_said and fmt is not Format.ICS:
        raise UsageError("--with-said is for --format ics (a json backup always keeps the words said)")
    service = _service(args)
    if args.output is None:
        if args.with_audio:
            raise UsageError("--with-audio needs -o FILE: the recordings are copied into a folder beside it")
        sys.stdout.write(service.export(fmt, statuses, categories, args.with_said))
        return ExitCode.OK
    output = Path(args.output).expanduser()
    copies = service.export_file(output, fmt, statuses, categories, args.force, args.with_said, args.with_audio)
    say(f"Exported to {output}")
    if copies is not None:
        say(_copied(copies))
    return ExitCode.OK


def _copied(copies: RecordingCopies) -> str:
    return f"Copied {copies.count} recording(s) ({_size(copies.bytes)}) to {copies.folder}"


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
        notes.append(f"{outcome.duplicates} already on your list, skipped")
    if outcome.problems:
        notes.append(f"{len(outcome.problems)} with problems, listed above")
    text += f"; {'; '.join(notes)}." if notes else "."
    if dry_run:
        return f"{text} Nothing was changed (dry run)."
    return f"{text} Undo: murmur undo" if outcome.undo_id is not None else text


def cmd_import(args: argparse.Namespace) -> int:
    path = Path(args.file).expanduser()
    fmt = Format(args.format) if args.format else None
    outcome = _service(args).import_file(path, fmt, dry_run=args.dry_run, confirmed=args.confirm)
    return _report_import(outcome, path.name, args.dry_run, args.json)


def _size(size: int) -> str:
    return f"{size / 2**20:.1f} MB" if size >= 2**20 else f"{max(size // 1024, 1)} KB"


def _backup_json(backup: Backup) -> dict[str, object]:
    return {
        "path": str(backup.path),
        "kind": backup.kind.value,
        "taken_at": backup.taken_at.isoformat(),
        "size": backup.size,
    }


def cmd_backup(args: argparse.Namespace) -> int:
    target = Path(args.path).expanduser() if args.path else None
    service = _service(args)
    backup = service.back_up(target, args.force)
    copies = service.copy_recordings(backup.path) if args.with_audio else None
    if args.json:
        print_json(_backup_json(backup) | ({"recordings": copies.count} if copies else {}))
    else:
        say(f"Backed up to {backup.path} ({_size(backup.size)})")
        if copies is not None:
            say(_copied(copies))
    return ExitCode.OK


def cmd_backups(args: argparse.Namespace) -> int:
    service = _service(args)
    backups, clock = service.backups(), service.clock()
    if args.json:
        print_json([_backup_json(backup) for backup in backups])
    elif not backups:
        say("No backups yet: one is taken each day Murmur runs, and `murmur backup` takes one now.")
    else:
        for backup in backups:
            taken = moment_words(backup.taken_at, clock.now, clock.tz)
            say(f"{taken}  {backup.kind.value:<13}  {_size(backup.size):>8}  {backup.path}")
    return ExitCode.OK


def cmd_restore(args: argparse.Namespace) -> int:
    before = restore_database(args.db, Path(args.backup).expanduser(), datetime.now(UTC))
    if args.json:
        print_json({"restored": args.backup, "before": _backup_json(before) if before else None})
    elif before is None:
        say(f"Restored {args.backup}.")
    else:
        say(f"Restored {args.backup}. The database as it was is kept in {before.path}:")
        say(f"  murmur restore {before.path.name}   takes this back")
    return ExitCode.OK
