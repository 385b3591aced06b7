"""Sessions: utterances close together in time. One ends after a gap of silence (noticed when the next
utterance comes), when the app quits, or when asked; its talk with the model is then summed up, and the
next session's first requests carry that synthesis."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeGuard

from sqlmodel import Session, col, select

from app.domain.enums import SessionEnd, Status
from app.store.models import Entry, TalkSession, Utterance
from app.store.queries import short_id_of, touched_before

_OPEN = (Status.ACTIVE, Status.SNOOZED)
FIRST_REQUESTS = 3  # a new session's first utterances see the previous session's synthesis
RECENT_DIALOGUE = timedelta(minutes=10)  # an utterance this soon after the last one sees what was said
RECENT_EXCHANGES = 4
MAX_TRANSCRIPT_CHARS = 12_000  # of a session's talk sent for its synthesis (the latest part when longer)


def open_session(session: Session) -> TalkSession | None:
    return session.exec(
        select(TalkSession).where(col(TalkSession.ended_at).is_(None)).order_by(col(TalkSession.id).desc())
    ).first()


def end_session(session: Session, talk: TalkSession, now: datetime, reason: SessionEnd) -> None:
    talk.ended_at, talk.end_reason = now, reason
    session.add(talk)


def gone_quiet(talk: TalkSession | None, now: datetime, gap: timedelta) -> TypeGuard[TalkSession]:
    """Has the open session `talk` been silent longer than `gap`? Words said now begin a new one."""
    return talk is not None and now - talk.last_at > gap


def end_for_silence(session: Session, talk: TalkSession) -> None:
    """End `talk`, gone quiet, at its last words."""
    end_session(session, talk, talk.last_at, SessionEnd.SILENCE)


def join_session(session: Session, utterance: Utterance, now: datetime, gap: timedelta) -> bool:
    """Put `utterance` in the open session, or in a new one when there is none or the open one has been
    silent longer than `gap` (it ends then). True when a new session started: the sessions ended before it
    (by this gap, a quit or when asked) may now be summed up."""
    talk = open_session(session)
    if gone_quiet(talk, now, gap):
        end_for_silence(session, talk)
        talk = None
    started = talk is None
    if talk is None:
        talk = TalkSession(started_at=now, last_at=now)
        session.add(talk)
        session.flush()
    talk.last_at = now
    session.add(talk)
    utterance.session_id = talk.id
    return started


def needs_synthesis(session: Session, talk: TalkSession) -> bool:
    """An ended session with a talk with the model, not summed up yet."""
    if talk.ended_at is None or talk.synthesis is not None:
        return False
    query = select(Utterance.id).where(Utterance.session_id == talk.id, col(Utterance.conversation_id).is_not(None))
    return session.exec(query.limit(1)).first() is not None


def unsummed_sessions(session: Session) -> list[TalkSession]:
    """Ended sessions still waiting for their synthesis. One that failed is not tried again: a server that
    is down would otherwise cost every later utterance a wait."""
    ended = session.exec(
        select(TalkSession)
        .where(
            col(TalkSession.ended_at).is_not(None),
            col(TalkSession.synthesis).is_(None),
            col(TalkSession.synthesis_error).is_(None),
        )
        .order_by(col(TalkSession.id).desc())
        .limit(3)
    ).all()
    return [talk for talk in ended if needs_synthesis(session, talk)]


def transcript(session: Session, talk: TalkSession) -> str:
    """What was said and answered in `talk`, oldest first, as lines for the model to sum up."""
    utterances = session.exec(
        select(Utterance).where(Utterance.session_id == talk.id).order_by(col(Utterance.id))
    ).all()
    lines = []
    for utterance in utterances:
        lines.append(f"{utterance.created_at:%H:%M} user: {utterance.text}")
        if utterance.reply:
            lines.append(f"{utterance.created_at:%H:%M} murmur: {utterance.reply}")
    text = "\n".join(lines)
    return text[-MAX_TRANSCRIPT_CHARS:]


@dataclass(frozen=True)
class SessionMemory:
    """What a request carries of the sessions: the last one's synthesis and the last few exchanges."""

    previous: TalkSession | None  # the last summed-up session, while the current one is young
    recent: list[Utterance]  # said (and answered) just before, oldest first


def session_memory(session: Session, utterance_id: int, now: datetime) -> SessionMemory:
    utterance = session.get(Utterance, utterance_id)
    current = (
        None if utterance is None or utterance.session_id is None else session.get(TalkSession, utterance.session_id)
    )
    previous = None
    if current is not None:
        earlier = session.exec(
            select(Utterance.id).where(Utterance.session_id == current.id, col(Utterance.id) < utterance_id)
        ).all()
        if len(earlier) < FIRST_REQUESTS:
            previous = session.exec(
                select(TalkSession)
                .where(col(TalkSession.id) < current.id, col(TalkSession.synthesis).is_not(None))
                .order_by(col(TalkSession.id).desc())
            ).first()
    recent = session.exec(
        select(Utterance)
        .where(col(Utterance.id) < utterance_id, col(Utterance.created_at) >= now - RECENT_DIALOGUE)
        .order_by(col(Utterance.id).desc())
        .limit(RECENT_EXCHANGES)
    ).all()
    return SessionMemory(previous, list(reversed(recent)))


def touched_entries(session: Session, utterance_id: int) -> list[tuple[str, str]]:
    """The entries (short ID, summary) the session's previous utterance made or changed, still open."""
    found = (session.get(Entry, entry_id) for entry_id in touched_before(session, utterance_id))
    return [(short_id_of(session, entry.id), entry.summary) for entry in found if entry and entry.status in _OPEN]
