"""Each format's writer and reader behind one call, and a file read as text with one clear line when it cannot be."""

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from app.changes.imports import ReadFile
from app.domain.enums import Format
from app.errors import UsageError
from app.portable.common import READABLE, StoredRows
from app.portable.csv_format import read_csv, write_csv
from app.portable.ics import read_ics, write_ics
from app.portable.json_format import read_json, write_json
from app.portable.markdown import write_markdown
from app.portable.todotxt import read_todotxt, write_todotxt
from app.portable.values import checked
from app.store.models import Entry

MAX_IMPORT_BYTES = 256 * 1024 * 1024  # far above any list; a bigger file is not one


def write_entries(
    fmt: Format, entries: Sequence[Entry], stored: StoredRows, tz: ZoneInfo, now: datetime, with_said: bool = False
) -> str:
    """The entries in `fmt`; `with_said`: an iCalendar file carries the words said too (JSON always does)."""
    if fmt is Format.JSON:
        return write_json(stored.entries, stored.utterances, stored.memories, stored.schema, now)
    if fmt is Format.MARKDOWN:
        return write_markdown(entries, tz, now)
    if fmt is Format.ICS:
        return write_ics(entries, tz, now, with_said)
    if fmt is Format.TODOTXT:
        return write_todotxt(entries, tz)
    return write_csv(entries, tz)


def read_entries(fmt: Format, text: str, tz: ZoneInfo, now: datetime) -> ReadFile:
    """What the file holds, every entry held to the rules Murmur's own writes keep."""
    if fmt not in READABLE:
        raise UsageError(f"Murmur does not import {fmt.value} (it imports {', '.join(f.value for f in READABLE)})")
    if fmt is Format.JSON:
        return checked(read_json(text, now))
    if fmt is Format.ICS:
        return checked(read_ics(text, tz, now))
    if fmt is Format.TODOTXT:
        return checked(read_todotxt(text, tz, now))
    return checked(read_csv(text, tz, now))


def read_text(path: Path) -> str:
    """The file's text (UTF-8, a byte-order mark allowed, any line ends)."""
    try:
        if path.stat().st_size > MAX_IMPORT_BYTES:
            raise UsageError(f"{path} is larger than {MAX_IMPORT_BYTES // 2**20} MB; not a list Murmur imports")
        data = path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"no file at {path}") from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a folder, not a file") from None
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UsageError(f"{path} is not UTF-8 text (byte {error.start + 1} cannot be read)") from None
