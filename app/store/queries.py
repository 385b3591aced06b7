"""The store's queries: short IDs, entry and memory lookup, listings, what the model cost. Nothing here writes
but `wake_snoozed`, the housekeeping every write transaction does first."""

import bisect
import json
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from os.path import commonprefix
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from sqlalchemy import and_, case, text, type_coerce, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, or_, select

from app.domain.enums import Category, Status, UtteranceOutcome
from app.domain.usage import UsageRow, UsageSummary
from app.errors import AmbiguousIdError, EntryNotFoundError, MemoryNotFoundError, MurmurError, Words, command
from app.store.column_types import EnumText
from app.store.models import Entry, LlmRequest, Memory, TalkSession, Utterance

Found = TypeVar("Found", Entry, Memory)

SHORT_ID_MIN = 6
# Shorter prefixes are still resolved when unique, like git does; below this they are refused.
PREFIX_MIN = 4
_HEX = re.compile(r"^[0-9a-f]+$")


def _shared_length(a: str, b: str) -> int:
    # Almost all neighbours differ within the first six digits: skip the character walk then.
    return 0 if a[:SHORT_ID_MIN] != b[:SHORT_ID_MIN] else len(commonprefix([a, b]))


def short_id_among(entry_id: str, neighbours: Iterable[str | None]) -> str:
    shared = max((_shared_length(entry_id, other) for other in neighbours if other), default=0)
    return entry_id[: max(SHORT_ID_MIN, shared + 1)]


def _short_id_at(ids: Sequence[str], place: int) -> str:
    """The short ID of `ids[place]`, `ids` in order: it depends on its two neighbours alone."""
    return short_id_among(
        ids[place], (ids[place - 1] if place else None, ids[place + 1] if place + 1 < len(ids) else None)
    )


def short_ids(session: Session) -> dict[str, str]:
    """Every entry's shortest unique prefix (at least 6 hex digits), in one pass over the index."""
    ids = list(session.exec(select(Entry.id).order_by(Entry.id)).all())
    return {entry_id: _short_id_at(ids, place) for place, entry_id in enumerate(ids)}


def short_ids_after(shown: dict[str, str], entry_ids: Iterable[str]) -> dict[str, str]:
    """What `short_ids` would say of `entry_ids`, from the short IDs `shown` before some entries came or went:
    made again only around those. No read: the IDs are known."""
    ids = sorted(entry_ids)
    came = [place for place, entry_id in enumerate(ids) if entry_id not in shown]
    went = [bisect.bisect_left(ids, entry_id) for entry_id in shown.keys() - set(ids)]
    if not came and not went:
        return shown
    short = {entry_id: shown[entry_id] for entry_id in ids if entry_id in shown}
    around = {near for place in came for near in (place - 1, place, place + 1)}
    around |= {near for place in went for near in (place - 1, place)}
    for place in sorted(near for near in around if 0 <= near < len(ids)):
        short[ids[place]] = _short_id_at(ids, place)
    return short


def short_id_of(session: Session, entry_id: str) -> str:
    """One entry's short ID, from its two neighbours in the primary-key index."""
    before = session.exec(select(Entry.id).where(Entry.id < entry_id).order_by(col(Entry.id).desc()).limit(1)).first()
    after = session.exec(select(Entry.id).where(Entry.id > entry_id).order_by(Entry.id).limit(1)).first()
    return short_id_among(entry_id, (before, after))


def normalize_prefix(prefix: str, noun: str = "entry", not_found: type[MurmurError] = EntryNotFoundError) -> str:
    """Lowercase hex with dashes removed; refuses anything that cannot be an ID prefix (of an entry, or a `noun`)."""
    cleaned = prefix.strip().lower().replace("-", "")
    if not cleaned or not _HEX.match(cleaned):
        article = "an" if noun[:1] in "aeiou" else "a"
        raise not_found(f"'{prefix}' is not {article} {noun} ID (IDs are hex digits, like 3fa1b2)")
    if len(cleaned) < PREFIX_MIN:
        raise not_found(f"ID '{prefix}' is too short: give at least {PREFIX_MIN} characters")
    return cleaned


def _entries_with_prefix(session: Session, prefix: str) -> list[Entry]:
    cleaned = normalize_prefix(prefix)
    # A range on the primary key, so it is an index seek at any store size.
    upper = cleaned + "g"  # 'g' sorts after every hex digit
    return list(
        session.exec(select(Entry).where(Entry.id >= cleaned, Entry.id < upper).order_by(Entry.id).limit(6)).all()
    )


def _only_match(matches: Sequence[Found], prefix: str, nouns: str) -> Found:
    """The one row of `matches` (at most six, by ID) found for `prefix`; AmbiguousIdError naming a few."""
    if len(matches) > 1:
        width = len(prefix.strip().replace("-", "")) + 2
        shown = ", ".join(m.id[:width] for m in matches[:5])
        count = f"{len(matches)}{'+' if len(matches) > 5 else ''}"
        more = "" if len(matches) <= 5 else ", ..."
        raise AmbiguousIdError(
            f"ID '{prefix}' is ambiguous: it matches {count} {nouns} ({shown}{more}); give more characters"
        )
    return matches[0]


def get_entry(session: Session, prefix: str) -> Entry:
    """The one entry whose ID starts with `prefix`; an explicit error for none or several."""
    matches = _entries_with_prefix(session, prefix)
    if not matches:
        raise EntryNotFoundError(f"no entry has ID '{prefix}'")
    return _only_match(matches, prefix, "entries")


def status_at(now: datetime) -> Any:
    """An entry's status at `now`, in SQL: a snoozed entry whose time has come reads active.

    Reads never write; the next write transaction persists the wake-up (see `wake_snoozed`).
    """
    snooze_over = and_(col(Entry.status) == Status.SNOOZED.value, col(Entry.snooze_until) <= now)
    return type_coerce(case((snooze_over, Status.ACTIVE.value), else_=col(Entry.status)), EnumText(Status))


def wake_snoozed(session: Session, now: datetime) -> None:
    """Snoozed entries whose time has come become active again.

    Housekeeping, not a user's change: no undo record, and the revision is left alone, so an
    earlier snooze can still be undone exactly (its prior row is the same active state).
    """
    statement = (
        update(Entry)
        .where(col(Entry.status) == Status.SNOOZED.value, col(Entry.snooze_until) <= now)
        .values(status=Status.ACTIVE, snooze_until=None)
    )
    session.execute(statement)


def _show_awake(entry: Entry, now: datetime) -> Entry:
    """The entry as `status_at` reads it, changed in memory only: the session has nothing to flush."""
    if entry.status is Status.SNOOZED and entry.snooze_until is not None and entry.snooze_until <= now:
        set_committed_value(entry, "status", Status.ACTIVE)
        set_committed_value(entry, "snooze_until", None)
    return entry


def _listing(
    query: Any, now: datetime, statuses: Sequence[Status], category: Category | None, search: str | None
) -> Any:
    query = query.where(status_at(now).in_([s.value for s in statuses]))
    if category is not None:
        query = query.where(Entry.category == category)
    if search:
        pattern = f"%{search.strip()}%"
        query = query.where(or_(col(Entry.summary).ilike(pattern), col(Entry.content).ilike(pattern)))
    return query.order_by(col(Entry.priority).is_(None), col(Entry.priority), col(Entry.created_at).desc())


def list_entries(
    session: Session,
    now: datetime,
    statuses: Sequence[Status] = (Status.ACTIVE,),
    category: Category | None = None,
    search: str | None = None,
) -> list[Entry]:
    """Entries by priority (1 first, none last), then newest first, with their status at `now`."""
    query = _listing(select(Entry), now, statuses, category, search)
    return [_show_awake(entry, now) for entry in session.exec(query).all()]


def completed_since(session: Session, since: datetime) -> list[Entry]:
    """The entries completed at or after `since`, the latest first."""
    query = select(Entry).where(col(Entry.status) == Status.COMPLETED.value, col(Entry.completed_at) >= since)
    return list(session.exec(query.order_by(col(Entry.completed_at).desc())).all())


def entries_with_ids(session: Session, ids: Iterable[str]) -> list[Entry]:
    """The entries of these IDs that exist, as stored."""
    return list(session.exec(select(Entry).where(col(Entry.id).in_(list(ids)))).all())


def entry_tally(session: Session) -> tuple[int, int]:
    """How many entries there are, and their revisions summed."""
    count, revisions = session.execute(text("SELECT count(*), coalesce(sum(revision), 0) FROM entries")).one()
    return int(count), int(revisions)


def entries_by_age(session: Session) -> list[Entry]:
    """Every entry as stored, oldest first."""
    return list(session.exec(select(Entry).order_by(col(Entry.created_at), col(Entry.id))).all())


def recent_summaries(session: Session, limit: int) -> list[str]:
    """The summaries of open entries (active or snoozed), most recently touched first."""
    query = (
        select(Entry.summary)
        .where(col(Entry.status).in_([Status.ACTIVE, Status.SNOOZED]))
        .order_by(col(Entry.updated_at).desc())
        .limit(limit)
    )
    return list(session.exec(query).all())


def _raw_row(session: Session, table: str, row_id: str | int) -> dict[str, object] | None:
    """A row's columns exactly as stored (text, integers, nulls), for byte-exact undo."""
    row = session.execute(text(f"SELECT * FROM {table} WHERE id = :id"), {"id": row_id}).mappings().first()
    return None if row is None else dict(row)


def raw_entry_row(session: Session, entry_id: str) -> dict[str, object] | None:
    return _raw_row(session, "entries", entry_id)


def raw_utterance_row(session: Session, utterance_id: int) -> dict[str, object] | None:
    return _raw_row(session, "utterances", utterance_id)


def stored_rows(session: Session, table: str) -> list[dict[str, object]]:
    """Every row of `table` as stored, oldest first (what Murmur's own export carries)."""
    return [dict(row) for row in session.execute(text(f"SELECT * FROM {table} ORDER BY rowid")).mappings()]


def schema_of(session: Session) -> int:
    """How many migration steps the database has had (its `PRAGMA user_version`)."""
    return int(session.execute(text("PRAGMA user_version")).scalar_one())


def encode_row(row: dict[str, object]) -> str:
    return json.dumps(row, ensure_ascii=False)


# -- what was said, and the sessions it was said in ---------------------------------------------


def waiting_utterances(session: Session) -> list[Utterance]:
    """Utterances that failed or never finished, oldest first, except those the user dismissed."""
    query = (
        select(Utterance)
        .where(col(Utterance.outcome) != UtteranceOutcome.DONE.value, col(Utterance.dismissed_at).is_(None))
        .order_by(col(Utterance.id))
    )
    return list(session.exec(query).all())


def latest_sessions(session: Session, limit: int) -> list[TalkSession]:
    """The latest talk sessions, newest first."""
    return list(session.exec(select(TalkSession).order_by(col(TalkSession.id).desc()).limit(limit)).all())


# -- the user's memories ------------------------------------------------------------------------


def short_memory_id_of(session: Session, memory_id: str) -> str:
    """One memory's short ID, from its two neighbours among all memory rows (forgotten ones too, so an
    undo that brings one back never makes another's short ID ambiguous)."""
    before = session.exec(
        select(Memory.id).where(Memory.id < memory_id).order_by(col(Memory.id).desc()).limit(1)
    ).first()
    after = session.exec(select(Memory.id).where(Memory.id > memory_id).order_by(Memory.id).limit(1)).first()
    return short_id_among(memory_id, (before, after))


def get_memory(session: Session, prefix: str) -> Memory:
    """The one memory not forgotten whose ID starts with `prefix`; an explicit error for none or several."""
    cleaned = normalize_prefix(prefix, "memory", MemoryNotFoundError)
    query = (
        select(Memory)
        .where(Memory.id >= cleaned, Memory.id < cleaned + "g", col(Memory.forgotten_at).is_(None))
        .order_by(Memory.id)
        .limit(6)
    )
    matches = list(session.exec(query).all())
    if not matches:
        listed = command("memory", "list", instead=Words("the Memory tab shows them"), phrase="{} shows them")
        raise MemoryNotFoundError(f"no memory has ID '{prefix}'", listed)
    return _only_match(matches, prefix, "memories")


def raw_memory_row(session: Session, memory_id: str) -> dict[str, object] | None:
    return _raw_row(session, "memories", memory_id)


def raw_word_row(session: Session, word_id: str) -> dict[str, object] | None:
    return _raw_row(session, "vocabulary", word_id)


# -- what the model cost and was sent -----------------------------------------------------------


def usage_summary(
    session: Session, now: datetime, tz: ZoneInfo, monthly_budget: float = 0.0, days: int = 31
) -> UsageSummary:
    """What the model requests cost: totals by day (the last `days` days) and by month, newest first, in the
    user's timezone."""
    rows = session.exec(
        select(LlmRequest.created_at, LlmRequest.prompt_tokens, LlmRequest.completion_tokens, LlmRequest.cost_usd)
    ).all()
    day_totals: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0.0])
    month_totals: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0.0])
    first_day = (now.astimezone(tz) - timedelta(days=days - 1)).date()
    for created_at, prompt, completion, cost in rows:
        local = created_at.astimezone(tz)
        targets = [month_totals[f"{local:%Y-%m}"]]
        if local.date() >= first_day:
            targets.append(day_totals[f"{local:%Y-%m-%d}"])
        for total in targets:
            total[0] += 1
            total[1] += prompt
            total[2] += completion
            total[3] += cost

    def as_rows(totals: dict[str, list[float]]) -> list[UsageRow]:
        return [
            UsageRow(period, int(t[0]), int(t[1]), int(t[2]), round(t[3], 6))
            for period, t in sorted(totals.items(), reverse=True)
        ]

    this_month = month_totals.get(f"{now.astimezone(tz):%Y-%m}", [0, 0, 0, 0.0])[3]
    return UsageSummary(as_rows(day_totals), as_rows(month_totals), monthly_budget, round(this_month, 6))


def recent_requests(session: Session, limit: int = 20) -> list[LlmRequest]:
    """The latest requests to the model, newest first, with what was sent and answered."""
    return list(session.exec(select(LlmRequest).order_by(col(LlmRequest.id).desc()).limit(limit)).all())


# The entries an utterance made or changed (none when it changed nothing, or was undone).
_TOUCHED_BY_SQL = """
    SELECT DISTINCT i.entry_id FROM undo_items i JOIN undo_batches b ON b.id = i.batch_id
    WHERE i.subject = 'entry' AND i.undone_at IS NULL AND b.undone_at IS NULL AND b.utterance_id = """
_TOUCHED_BEFORE = text(
    _TOUCHED_BY_SQL
    + """(
        SELECT earlier.id FROM utterances earlier JOIN utterances now_said ON now_said.id = :utterance
        WHERE earlier.session_id = now_said.session_id AND earlier.id < now_said.id
        ORDER BY earlier.id DESC LIMIT 1
    )
    """
)
_TOUCHED_BY = text(_TOUCHED_BY_SQL + ":utterance")


def touched_before(session: Session, utterance_id: int) -> list[str]:
    """What "that", "it" and "actually ..." refer to in utterance `utterance_id`: the entries the session's previous
    utterance made or changed."""
    return [row[0] for row in session.execute(_TOUCHED_BEFORE, {"utterance": utterance_id})]


def touched_by(session: Session, utterance_id: int) -> list[str]:
    """The entries utterance `utterance_id` made or changed, as long as those changes stand."""
    return [row[0] for row in session.execute(_TOUCHED_BY, {"utterance": utterance_id})]
