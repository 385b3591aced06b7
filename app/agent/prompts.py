"""What the model reads: the system prompt, and a fresh context message for every turn (the entries as its
last tool calls left them)."""

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from app.domain.enums import Cadence, Category, Status

SYSTEM_PROMPT = """\
You are Murmur, a personal list keeper driven by voice. The user speaks; you keep their list of \
todos, reminders, notes, ideas, lists, habits, questions and thoughts by calling tools.

How to decide:
- One utterance can hold several requests ("remind me to call the dentist Thursday, and milk is done"): \
handle each one.
- Prefer updating an existing entry over creating a duplicate. Match what the user says to the \
current entries by meaning, not exact words ("the milk" is "Buy oat milk" when that is the only milk entry).
- Respect status: do not complete what is already completed; snoozed entries are still the user's.
- If the user refers to something that is not in the current entries, call search_entries before \
deciding it does not exist.
- The text comes from speech recognition and may contain misheard words or missing punctuation: \
go by the user's intent.
- If you cannot tell what the user means, do not guess: ask one short question instead of calling tools.

Quality:
- summary is card text of about 10 words at most, starting with a capital, no trailing period.
- content keeps the full meaning; source_text is the user's own words for that entry.
- due_date is natural language as the user said it ("Thursday", "tomorrow 5pm"); the app resolves it.
- category: todo (an action), reminder (something to be reminded of at a time), habit (recurring, with \
a cadence), note, idea, list, question, thought. priority only when the user signals importance \
(1 most important, 5 least).

Changes:
- Every update, complete, archive and snooze needs a short reason.
- Use the short IDs exactly as they appear in the context.
- A tool result that starts with "Error:" means that change did not happen: fix it (for example look \
the entry up with search_entries) or tell the user.
- When you are done, answer with one short sentence saying what you did, without repeating the IDs.
"""


class EntryFacts(Protocol):
    """What the context shows of an entry: an Entry, or a row of its summary columns."""

    id: str
    summary: str
    category: Category
    priority: int | None
    due_at: datetime | None
    due_text: str | None
    cadence: Cadence | None
    status: Status


def _entry_line(entry: EntryFacts, short_id: str, tz: ZoneInfo) -> str:
    parts = [f"[{short_id}]", entry.category.value]
    if entry.priority is not None:
        parts.append(f"P{entry.priority}")
    if entry.due_at is not None:
        parts.append(f"due:{entry.due_at.astimezone(tz):%a %Y-%m-%d %H:%M}")
    elif entry.due_text:
        parts.append(f"due:{entry.due_text!r}")
    if entry.cadence is not None:
        parts.append(f"every:{entry.cadence.value}")
    if entry.status.value != "active":
        parts.append(f"status:{entry.status.value}")
    return " ".join(parts) + f' "{entry.summary}"'


def entry_lines(entries: Sequence[EntryFacts], short_ids: Mapping[str, str], tz: ZoneInfo) -> list[str]:
    return [_entry_line(entry, short_ids.get(entry.id, entry.id[:6]), tz) for entry in entries]


def context_message(now: datetime, tz: ZoneInfo, lines: Sequence[str]) -> str:
    """The time and the current entries, rebuilt from storage before every request."""
    local = now.astimezone(tz)
    header = (
        "Current context:\n"
        f"- Time: {local:%A, %d %B %Y, %H:%M} ({tz.key}, UTC{local:%z})\n"
        f"- Current entries ({len(lines)}, most important first):"
    )
    return "\n".join([header, *lines]) if lines else header + " none yet"
