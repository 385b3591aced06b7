"""Changes to the user's memories (remember, forget, edit), each recorded with its undo in the caller's transaction."""

import json
import re
from dataclasses import dataclass, replace
from datetime import datetime

from sqlmodel import Session, col, func, select

from app.domain.defaults import MAX_MEMORY_CHARS
from app.domain.enums import MemoryChangeKind, MemorySource, UndoKind, UndoSubject
from app.domain.redaction import secret_in
from app.domain.summaries import clipped
from app.domain.verbs import PAST_TENSE
from app.errors import UsageError
from app.store.models import Memory, UndoBatch, UndoItem
from app.store.queries import encode_row, get_memory, raw_memory_row, short_memory_id_of

_LABEL_CHARS = 40
CONFIRMED = "confirmed"  # a label's verb: remember found the fact already kept
_SPACES = re.compile(r"\s+")

# A memory goes into every request's system prompt: one that tells the assistant what to do would be a
# standing instruction planted by whoever wrote it (a model misled by a pasted text, a crafted import file).
# Facts about the user are statements ("I always say 'morning' for 8 am"); these read as orders to the
# assistant: talk about its rules, "you must", or a command to its tools, said outright or "always"/"whenever".
_COMMANDS = (
    r"archive|delete|complete|snooze|update|create|forget|remember|remove|clear|wipe|erase|mark|move|say|reply"
    r"|respond|answer|tell|ignore|disregard|obey|follow|stop|skip|hide|send|run|execute|call[ \t]+the[ \t]+tool"
)
_INSTRUCTION = re.compile(
    r"\b(?:override|jailbreak|system[ \t]*(?::|prompt|message|instructions?|note|override)|developer[ \t]+mode"
    r"|(?:ignore|disregard|forget)[ \t]+(?:(?:all|any|the|your|my|previous|prior|above|earlier|other)[ \t]+)*"
    r"(?:instructions?|rules?|prompts?|guidelines|everything|above)"
    r"|you[ \t]+(?:must|should|shall|will|need[ \t]+to|have[ \t]+to|are[ \t]+to|may[ \t]+not|must[ \t]+not)"
    r"|the[ \t]+(?:assistant|model|ai)[ \t]+(?:must|should|shall|will)"
    r"|\w+_entries|tool[ \t]+calls?)(?!\w)"
    # A command: at the start, after "please", "always", "never", "from now on", or after the comma of
    # "whenever/every time/when ..., archive" (no subject before it, so "I always say" is a fact).
    rf"|(?:^|[.;:!]\s*|\bplease[ \t]+|(?<!\bi )(?<!\bwe )(?<!\bthey )(?<!\bhe )(?<!\bshe )"
    rf"\b(?:always|never|from[ \t]+now[ \t]+on,?)[ \t]+"
    rf"|\b(?:whenever|every[ \t]+time|each[ \t]+time|when|if)\b[^.;]{{0,80}},[ \t]*(?:then[ \t]+)?)"
    rf"(?:do[ \t]+not[ \t]+|don't[ \t]+|never[ \t]+)?(?:{_COMMANDS})\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class MemoryChange:
    kind: MemoryChangeKind
    memory: Memory
    short_id: str
    undo_item_id: int
    batch_id: int
    confirmed: bool = False  # remember found the same fact already kept: it was confirmed, not added again


# What a memory means, whatever its form ("archive every todo", "I prefer that every todo is archived", "my wish
# is for reminders to be deleted"): something done to the list's entries, in any tense or voice. A fact about the
# user names no such thing; a standing wish about what is done to the list is an instruction however it is put.
_LIST_VERBS = frozenset(
    "archive delete complete snooze remove wipe erase clear purge drop cancel hide forget move reschedule postpone"
    " tick check mark empty strip copy create add".split()
)
_LIST_THINGS = re.compile(
    r"\b(?:todos?|to-dos?|tasks?|entr(?:y|ies)|reminders?|notes?|lists?|items?|checklists?|backlog|everything"
    r"|all of them|you|assistant)\b",
    re.IGNORECASE,
)
# The same done in two words: "pushed back", "got rid of", "thrown away", "switched off", "into the Done column".
_LIST_PHRASES = re.compile(
    r"\b(?:push(?:ed|es|ing)?[ \t]+(?:back|off)|get(?:s|ting)?[ \t]+rid|got[ \t]+rid|throw[ \t]+away|thrown[ \t]+away"
    r"|switch(?:ed|es)?[ \t]+off|turn(?:ed|s)?[ \t]+off|into[ \t]+the[ \t]+done)\b",
    re.IGNORECASE,
)
# A new entry wished for: "there should be a new task", "a fresh reminder every hour".
_NEW_ENTRY = re.compile(
    r"\b(?:new|fresh|another|extra)[ \t]+(?:[\w-]+[ \t]+)?(?:todo|to-do|task|reminder|entry|note)s?\b", re.I
)
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)?")


def _verb_of(word: str) -> str:
    from lemminflect import getLemma  # English base forms: "archived", "deleting" -> archive, delete

    lemmas = getLemma(word, upos="VERB")
    return lemmas[0] if lemmas else word


def _done_to_the_list(text: str) -> str | None:
    """The list-changing verb in `text`, when its words are also about the list's entries."""
    if (made := _NEW_ENTRY.search(text)) is not None:
        return made.group()
    if (thing := _LIST_THINGS.search(text)) is None:
        return None
    if (phrase := _LIST_PHRASES.search(text)) is not None:
        return f"{phrase.group()} … {thing.group()}"
    for word in _WORD.findall(text.lower()):
        if _verb_of(word) in _LIST_VERBS:
            return f"{word} … {thing.group()}"
    return None


def instruction_in(text: str) -> str | None:
    """The words that make `text` read as an instruction to the assistant rather than a fact about the user."""
    said = _SPACES.sub(" ", text).strip()
    match = _INSTRUCTION.search(said)
    return match.group().strip(" .;:!") if match else _done_to_the_list(said)


def validate_memory_text(text: str) -> str:
    """The text as it will be kept (stripped); refuses an empty one, one over MAX_MEMORY_CHARS, and one that
    reads as an instruction to the assistant (whoever writes it: the model, the user, an import)."""
    if "\x00" in text:
        raise UsageError("the memory contains a NUL byte")
    stripped = text.strip()
    if not stripped:
        raise UsageError("nothing to remember: the text is empty")
    if len(stripped) > MAX_MEMORY_CHARS:
        raise UsageError(
            f"a memory is one short fact: this one has {len(stripped):,} characters, the limit is {MAX_MEMORY_CHARS}"
        )
    if (words := instruction_in(stripped)) is not None:
        raise UsageError(
            f"a memory is a fact about the user, not an instruction to the assistant ({words!r}); not remembered"
        )
    return stripped


def validate_kept_memory(text: str) -> str:
    """A memory from elsewhere (a file) as it will be kept: the rules of validate_memory_text, and no secret,
    since every request carries the profile. The refusal never repeats the words."""
    stripped = validate_memory_text(text)
    kind = secret_in(stripped)
    if kind is not None:
        raise UsageError(f"it holds what looks like a secret ({kind}); secrets are never remembered")
    return stripped


def same_text_key(text: str) -> str:
    """What two texts share when they say the same thing: case and runs of whitespace ignored."""
    return _SPACES.sub(" ", text).strip().casefold()


def remember(
    session: Session,
    text: str,
    source: MemorySource,
    now: datetime,
    utterance_id: int | None = None,
    batch_id: int | None = None,
) -> MemoryChange:
    """Keep `text` as a memory; the same fact already kept (not forgotten) is confirmed (used now) instead."""
    text = validate_memory_text(text)
    key = same_text_key(text)
    active = session.exec(select(Memory).where(col(Memory.forgotten_at).is_(None))).all()
    existing = next((m for m in active if same_text_key(m.text) == key), None)
    if existing is not None:
        before = _snapshot(session, existing)
        existing.used_at = now
        existing.revision += 1
        change = _record(session, MemoryChangeKind.REMEMBER, existing, before, now, utterance_id, batch_id, CONFIRMED)
        return replace(change, confirmed=True)
    memory = Memory(
        text=text,
        source=source,
        utterance_id=utterance_id,
        created_at=now,
        updated_at=now,
        used_at=now,
        revision=1,
    )
    session.add(memory)
    return _record(session, MemoryChangeKind.REMEMBER, memory, None, now, utterance_id, batch_id)


def forget(
    session: Session,
    id_prefix: str,
    now: datetime,
    utterance_id: int | None = None,
    batch_id: int | None = None,
) -> MemoryChange:
    """Forget the memory `id_prefix` names: kept, marked forgotten, so undo can bring it back."""
    memory = get_memory(session, id_prefix)
    before = _snapshot(session, memory)
    memory.forgotten_at = now
    memory.revision += 1
    return _record(session, MemoryChangeKind.FORGET, memory, before, now, utterance_id, batch_id)


def edit_memory(
    session: Session,
    id_prefix: str,
    text: str,
    now: datetime,
    utterance_id: int | None = None,
    batch_id: int | None = None,
) -> MemoryChange:
    """Say the memory `id_prefix` names in new words."""
    text = validate_memory_text(text)
    memory = get_memory(session, id_prefix)
    before = _snapshot(session, memory)
    memory.text = text
    memory.updated_at = memory.used_at = now
    memory.revision += 1
    return _record(session, MemoryChangeKind.EDIT, memory, before, now, utterance_id, batch_id)


def _snapshot(session: Session, memory: Memory) -> str:
    """The memory's row as stored now (earlier changes of this transaction flushed first), encoded."""
    session.flush()
    row = raw_memory_row(session, memory.id)
    assert row is not None
    return encode_row(row)


def batch_label(verb: str, text: str) -> str:
    """'remembered "My brother is Tom"', the text cut short so a history line stays one line."""
    return f'{verb} "{clipped(_SPACES.sub(" ", text).strip(), _LABEL_CHARS)}"'


def _record(
    session: Session,
    kind: MemoryChangeKind,
    memory: Memory,
    before_row: str | None,
    now: datetime,
    utterance_id: int | None,
    batch_id: int | None,
    verb: str | None = None,
) -> MemoryChange:
    """Write the undo item for a change to `memory`, in batch `batch_id` or a new batch of its own
    (labelled '<verb> "<text>"', the kind's past tense unless `verb` says otherwise)."""
    session.add(memory)
    if batch_id is None:
        label = batch_label(verb or PAST_TENSE[UndoKind(kind)], memory.text)
        batch = UndoBatch(utterance_id=utterance_id, label=label, created_at=now)
        session.add(batch)
        session.flush()
        assert batch.id is not None
        batch_id, position = batch.id, 0
    else:
        if session.get(UndoBatch, batch_id) is None:
            raise ValueError(f"no undo batch {batch_id} to join")
        position = int(session.execute(select(func.count()).where(col(UndoItem.batch_id) == batch_id)).scalar_one())
    item = UndoItem(
        batch_id=batch_id,
        position=position,
        kind=UndoKind(kind),
        entry_id=memory.id,
        description=json.dumps({"text": memory.text}, ensure_ascii=False),
        subject=UndoSubject.MEMORY,
        before_row=before_row,
        after_revision=memory.revision,
    )
    session.add(item)
    session.flush()
    assert item.id is not None
    return MemoryChange(
        kind=kind,
        memory=memory,
        short_id=short_memory_id_of(session, memory.id),
        undo_item_id=item.id,
        batch_id=batch_id,
    )
