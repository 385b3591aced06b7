"""The user's memories as they are read: the active ones, their short IDs, and the profile lines under a budget."""

import json

from sqlmodel import Session, col, select

from app.memory.tokens import estimate_tokens
from app.store.models import Memory
from app.store.queries import short_id_among


def active_memories(session: Session) -> list[Memory]:
    """The memories not forgotten, most recently used (remembered, confirmed or edited) first."""
    query = (
        select(Memory)
        .where(col(Memory.forgotten_at).is_(None))
        .order_by(col(Memory.used_at).desc(), col(Memory.created_at).desc(), col(Memory.id))
    )
    return list(session.exec(query).all())


def short_memory_ids(session: Session) -> dict[str, str]:
    """Every memory's shortest unique ID prefix (at least 6 hex digits), in one pass over the index.

    Unique among all memory rows, forgotten ones too (as `app.store.queries.short_memory_id_of`), so a short
    ID said once stays valid when a forget is undone."""
    ids = list(session.exec(select(Memory.id).order_by(Memory.id)).all())
    return {
        memory_id: short_id_among(memory_id, (ids[i - 1] if i else None, ids[i + 1] if i + 1 < len(ids) else None))
        for i, memory_id in enumerate(ids)
    }


def profile_line(memory: Memory, short_id: str) -> str:
    """`[3fa1b2] "My brother is Tom"`: one line, whatever line breaks the text has, its words quoted (JSON) so
    the model reads them as data, not as lines of its instructions."""
    return f"[{short_id}] {json.dumps(' '.join(memory.text.split()), ensure_ascii=False)}"


def profile_lines(session: Session, budget_tokens: int) -> list[str]:
    """The active memories as lines, most recently used first, as many as fit in `budget_tokens`
    (estimated, app/memory/tokens.py, as the entry lines of the context are counted)."""
    shorts = short_memory_ids(session)
    lines: list[str] = []
    spent = 0
    for memory in active_memories(session):
        line = profile_line(memory, shorts[memory.id])
        cost = estimate_tokens(line)
        if spent + cost > budget_tokens:
            break
        lines.append(line)
        spent += cost
    return lines
