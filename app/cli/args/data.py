"""The arguments of data's commands; what they run is imported from app.cli.data when one does."""

import argparse
from collections.abc import Callable
from enum import StrEnum
from typing import Any, TypeVar

from app.api.limits import MASS_CHANGE_CAP
from app.domain.enums import Category, Format, Status

_Choice = TypeVar("_Choice", bound=StrEnum)


def _choices(kind: type[_Choice]) -> Callable[[str], list[_Choice]]:
    """An option that takes one value or several, comma-separated ("active,snoozed")."""

    def parse(value: str) -> list[_Choice]:
        try:
            return [kind(word.strip().lower()) for word in value.split(",") if word.strip()]
        except ValueError:
            names = ", ".join(member.value for member in kind)
            raise argparse.ArgumentTypeError(f"{value!r}: choose from {names}") from None

    return parse


# Recordings are left out of backups and exports unless asked for: they are what the user said, in their voice.
_WITH_AUDIO = "also copy the recordings of what you said, into a folder beside {} (FILE.recordings)"


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
    export.add_argument(
        "--with-said",
        action="store_true",
        help="ics: also write the words you said (X-MURMUR-SAID), for a file that stays yours; json always has them",
    )
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE (owner-only) instead of standard output")
    export.add_argument("--force", action="store_true", help="replace FILE if it exists (a link: what it points to)")
    export.add_argument("--with-audio", action="store_true", help=_WITH_AUDIO.format("-o FILE"))
    export.set_defaults(func="app.cli.data:cmd_export", reads_only=True)

    importing = sub.add_parser("import", parents=[common, as_json], help="add entries from a file (one undoable batch)")
    importing.add_argument(
        "file", metavar="FILE", help="a Murmur JSON export, an .ics calendar, a todo.txt or a CSV file"
    )
    importing.add_argument(
        "--format", choices=[f.value for f in Format if f is not Format.MARKDOWN], help="default: from the file's name"
    )
    importing.add_argument("--dry-run", action="store_true", help="say what would be added; change nothing")
    importing.add_argument(
        "--confirm",
        action="store_true",
        help=f"import however many entries at once (more than {MASS_CHANGE_CAP} wait for this)",
    )
    importing.set_defaults(func="app.cli.data:cmd_import")

    backup = sub.add_parser(
        "backup", parents=[common, as_json], help="back up the database now (it is also backed up daily)"
    )
    backup.add_argument("path", nargs="?", metavar="PATH", help="where to write it (default: the backups folder)")
    backup.add_argument("--force", action="store_true", help="replace PATH if it exists (a link: what it points to)")
    backup.add_argument("--with-audio", action="store_true", help=_WITH_AUDIO.format("the backup"))
    backup.set_defaults(func="app.cli.data:cmd_backup", reads_only=True)
    backups = sub.add_parser("backups", parents=[common, as_json], help="list the backups, newest first")
    backups.set_defaults(func="app.cli.data:cmd_backups", reads_only=True)
    restore = sub.add_parser(
        "restore",
        parents=[common, as_json],
        help="put a backup in place of the database (the database is backed up first)",
    )
    restore.add_argument("backup", metavar="BACKUP", help="a backup's file, or its name as `murmur backups` lists it")
    restore.set_defaults(func="app.cli.data:cmd_restore")
