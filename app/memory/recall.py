"""Recall: what the user said before, what Murmur answered and what it did about it, found by words
(SQLite FTS5 over utterances and replies) within optional time bounds, newest first, bounded in size."""

from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy import text
from sqlmodel import Session

from app.domain.enums import UndoKind
from app.memory.entry_search import match_expression, query_words
from app.presentation.history import done_phrase
from app.store.column_types import to_db_time

MAX_HITS = 8
MAX_SNIPPET_CHARS = 240  # of each said or answered text


@dataclass(frozen=True)
class RecallHit:
    utterance_id: int
    said_at: datetime
    said: str
    reply: str | None
    done: list[str] = field(default_factory=list)  # what its batch did, e.g. 'created "Fix the fence"'


@dataclass(frozen=True)
class RecallQuery:
    words: str
    since: datetime | None = None
    until: datetime | None = None
    exclude_conversation: int | None = None  # the talk in progress: its words are already in front of the model
    exclude_utterance: int | None = None
    limit: int = MAX_HITS


def recall(session: Session, query: RecallQuery) -> list[RecallHit]:
    """Past utterances matching the words (any of them; best matches kept, shown newest first)."""
    words = query_words(query.words)
    if not words:
        return []
    conditions = ["utterances_search MATCH :match"]
    params: dict[str, object] = {"match": match_expression(words), "limit": max(1, min(query.limit, 50))}
    if query.since is not None:
        conditions.append("u.created_at >= :since")
        params["since"] = to_db_time(query.since)
    if query.until is not None:
        conditions.append("u.created_at < :until")
        params["until"] = to_db_time(query.until)
    if query.exclude_conversation is not None:
        conditions.append("(u.conversation_id IS NULL OR u.conversation_id != :conversation)")
        params["conversation"] = query.exclude_conversation
    if query.exclude_utterance is not None:
        conditions.append("u.id != :utterance")
        params["utterance"] = query.exclude_utterance
    rows = session.execute(
        text(
            "SELECT u.id, u.created_at, u.text, u.reply FROM utterances_search "
            "JOIN utterances AS u ON u.id = utterances_search.rowid "
            f"WHERE {' AND '.join(conditions)} ORDER BY utterances_search.rank LIMIT :limit"
        ),
        params,
    ).all()
    done = _what_was_done(session, [row[0] for row in rows])
    hits = [RecallHit(row[0], datetime.fromisoformat(row[1]), row[2], row[3], done.get(row[0], [])) for row in rows]
    return sorted(hits, key=lambda hit: hit.said_at, reverse=True)


def _what_was_done(session: Session, utterance_ids: list[int]) -> dict[int, list[str]]:
    """Each utterance's applied (not undone) changes, as short phrases."""
    if not utterance_ids:
        return {}
    marks = ", ".join(f":u{i}" for i in range(len(utterance_ids)))
    rows = session.execute(
        text(
            "SELECT b.utterance_id, i.kind, coalesce(e.summary, json_extract(i.description, '$.text')) "
            "FROM undo_batches AS b JOIN undo_items AS i ON i.batch_id = b.id "
            "LEFT JOIN entries AS e ON e.id = i.entry_id AND i.subject = 'entry' "
            f"WHERE b.utterance_id IN ({marks}) AND i.undone_at IS NULL ORDER BY i.batch_id, i.position"
        ),
        {f"u{i}": value for i, value in enumerate(utterance_ids)},
    ).all()
    done: dict[int, list[str]] = {}
    for utterance_id, kind, name in rows:
        done.setdefault(utterance_id, []).append(done_phrase(UndoKind(kind), name))
    return done


def _clip(words: str) -> str:
    flat = " ".join(words.split())
    return flat if len(flat) <= MAX_SNIPPET_CHARS else flat[: MAX_SNIPPET_CHARS - 1].rstrip() + "…"


def render_hits(hits: list[RecallHit], tz: ZoneInfo, numbered: bool = False) -> str:
    """Compact dated snippets for the model (and the CLI): what was said, answered and done; `numbered`: each with
    its utterance's number first, what `murmur play` and `murmur retry` take."""
    if not hits:
        return "Nothing found in what the user said before."
    lines = []
    for hit in hits:
        number = f"[{hit.utterance_id}] " if numbered else ""
        line = f'{number}{hit.said_at.astimezone(tz):%a %Y-%m-%d %H:%M} said: "{_clip(hit.said)}"'
        if hit.reply:
            line += f' | answered: "{_clip(hit.reply)}"'
        if hit.done:
            line += f" | done: {'; '.join(hit.done)}"
        lines.append(line)
    return "\n".join(lines)
