"""One sync: pull what changed on the server and merge it in, then push what the outbox holds.

No transaction is held while the network is used. The pull reads the server, then writes what it brought
in one transaction and one undo batch ("sync"), merging against the entries as they are at that moment. The
push sends each queued entry (a create only where nothing is, a replace only over the version last seen, so
nothing written elsewhere meanwhile is overwritten), then clears its outbox row in a short transaction,
unless the entry changed again while it was on its way. A sync cut short anywhere leaves the outbox to the
next: a create that reached the server but not our records is found at its fixed address and linked.
"""

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import func, text
from sqlmodel import Session, col, delete, select

from app.bounds.limits import MASS_CHANGE_CAP
from app.changes.imports import IncomingEntry
from app.changes.originals import shareable
from app.changes.synced import SyncBatch
from app.domain.checklist import checklist_text, dump_items, load_items
from app.domain.enums import Category, Status
from app.domain.summaries import clipped
from app.errors import Remedy
from app.portable.common import entry_id_for_uid
from app.portable.ics import NotATask, own_uid, read_vtodo, vtodo_object, vtodo_over
from app.store import Store
from app.store.models import Entry, SyncItem, SyncOutboxRow, SyncState
from app.sync.merge import SYNCED_FIELDS, Fields, carried, changed_fields, habit_done_elsewhere, merge
from app.sync.remedy_record import remedy_json
from app.sync.remote import ChangedOnServer, ObjectRefused, RemoteObject, TaskList
from app.sync.status import sync_status

log = logging.getLogger("murmur.sync")

# How a pulled change is reported, by the status it brought; any other change is "updated".
_VERBS = {Status.COMPLETED: "completed", Status.ARCHIVED: "archived", Status.ACTIVE: "reopened"}
_PUSH_CHUNK = 50  # entries sent between two writes of what was sent
_ROUNDS = 3  # pull and push again when the server changed under a push


@dataclass
class SyncReport:
    pulled: list[str] = field(default_factory=list)  # "created: Call the dentist"
    pushed: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)  # hrefs of objects that could not be read: tried again next time
    undo_id: int | None = None
    queued: int = 0  # changes still waiting to be sent

    @property
    def summary(self) -> str:
        parts = [f"{len(self.pushed)} sent", f"{len(self.pulled)} received"]
        if self.conflicts:
            parts.append(f"{len(self.conflicts)} in conflict (both copies kept)")
        if self.queued:
            parts.append(f"{self.queued} still queued")
        return ", ".join(parts)


_QUEUED_NOW = "strftime('%Y-%m-%dT%H:%M:%f', 'now')"  # the outbox's time, as its triggers write it


def _queue(session: Session, entry_id: str) -> None:
    session.execute(text(f"INSERT OR REPLACE INTO sync_outbox VALUES (:id, {_QUEUED_NOW})"), {"id": entry_id})


def _entry_values(fields: Fields) -> dict[str, object]:
    """The merged fields as the entry's columns; a completion time only where the task is completed (an
    open habit keeps the time it was last done)."""
    values = dict(fields)
    if values["status"] is not Status.COMPLETED:
        del values["completed_at"]
    return values


def new_entry(entry_id: str, incoming: IncomingEntry, now: datetime) -> Entry:
    """A task first met on the server, as an entry here."""
    return Entry(
        id=entry_id,
        content=incoming.content,
        summary=incoming.summary,
        category=incoming.category,
        priority=incoming.priority,
        due_at=incoming.due_at,
        recurrence=incoming.recurrence,
        status=incoming.status,
        snooze_until=incoming.snooze_until,
        completed_at=incoming.completed_at,
        items=dump_items(incoming.items),
        source_text=incoming.content,
        created_at=incoming.created_at,
        updated_at=now,
    )


def _worded(name: str, value: object) -> str:
    if name == "items":  # a checklist as people write one, not as it is stored
        return "\n" + checklist_text(load_items(value if isinstance(value, str) else None))
    return str(getattr(value, "value", value))


def _clash_note(entry: Entry, clashes: dict[str, object], now: datetime) -> Entry:
    """The local words the server's replaced, kept as a note beside the entry."""
    lines = [f"{name}: {_worded(name, value)}" for name, value in clashes.items()]
    kept = "\n".join(lines)
    return Entry(
        content=f"Changed here and on the sync server at once; the server's version was kept. Yours was:\n{kept}",
        summary=f"Your copy of “{clipped(entry.summary, 60)}”",
        category=Category.NOTE,
        source_text=kept,
        created_at=now,
        updated_at=now,
    )


def _said(error: Exception) -> str:
    """An error in a few words, its kind where it says nothing more."""
    words = " ".join(str(error).split())
    return clipped(f"{type(error).__name__}: {words}" if words else type(error).__name__, 160)


def _chunks(values: Sequence[str], size: int = 500) -> Iterator[Sequence[str]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


class _Pull:
    """Writing what the server sent, inside one transaction; the outbox is settled once, at the end."""

    def __init__(self, session: Session, tz: ZoneInfo, now: datetime, report: SyncReport) -> None:
        self.session, self.tz, self.now, self.report = session, tz, now, report
        self.batch = SyncBatch(session, now)
        self.items: dict[str, SyncItem] = {}  # by href and by UID, read in bulk
        self.in_step: set[str] = set()  # entries that now match the server: out of the outbox
        self.behind: set[str] = set()  # entries the merge changed beyond the server's copy: to be sent

    def _read(self, ics: str) -> tuple[str, IncomingEntry]:
        return read_vtodo(ics, self.tz, self.now)

    def _load_items(self, column: Any, keys: list[str]) -> None:
        for chunk in _chunks(keys):
            for item in self.session.exec(select(SyncItem).where(column.in_(chunk))).all():
                self.items[item.href] = self.items[item.uid] = item

    def take_all(self, objects: list[RemoteObject]) -> None:
        read: list[tuple[RemoteObject, str, IncomingEntry]] = []
        for obj in objects:
            try:
                read.append((obj, *self._read(obj.text)))
            except NotATask:
                continue  # an event in a list that holds tasks too: not Murmur's to show or change
            except Exception as error:  # noqa: BLE001 - whatever a reader trips on, one task never stops the rest
                self.report.problems.append(f"{obj.href}: skipped, it cannot be read ({_said(error)})")
                self.report.unread.append(obj.href)
        self._load_items(col(SyncItem.href), [obj.href for obj in objects])
        self._load_items(col(SyncItem.uid), [uid for _, uid, _ in read if uid not in self.items])
        for obj, uid, incoming in read:
            self._take(obj, uid, incoming)

    def _local(self, entry: Entry, base: Fields) -> Fields:
        """The entry's synced fields; the base when nothing changed here since the last sync."""
        return base if self.session.get(SyncOutboxRow, entry.id) is None else carried(entry)

    def _take(self, obj: RemoteObject, uid: str, incoming: IncomingEntry) -> None:
        item = self.items.get(obj.href) or self.items.get(uid)
        entry_id = item.entry_id if item else entry_id_for_uid(uid)
        entry = self.session.get(Entry, entry_id)
        remote = carried(incoming)
        if entry is None:
            entry = new_entry(entry_id, incoming, self.now)
            self.batch.create(entry)
            self.report.pulled.append(f"created: {entry.summary}")
            self._record(entry.id, uid, obj, in_step=True, item=item)
            return
        base = self._agreed(item) or remote  # first meeting: the local copy is newer
        done_elsewhere = habit_done_elsewhere(base, remote, self.now, self.tz)
        merged = merge(base, self._local(entry, base), remote)
        now_here = carried(entry)  # what is written is only what differs (a time to the second)
        values = {name: value for name, value in _entry_values(merged.fields).items() if now_here[name] != value}
        if done_elsewhere:
            values["completed_at"] = self.now
        before = entry.revision
        self.batch.update(entry, values)
        if entry.revision != before:
            status = values.get("status")
            verb = _VERBS[status] if isinstance(status, Status) else "done, due next" if done_elsewhere else "updated"
            self.report.pulled.append(f"{verb}: {entry.summary}")
        if merged.clashes:
            self.batch.create(_clash_note(entry, merged.clashes, self.now))
            fields = ", ".join(merged.clashes)
            self.report.conflicts.append(f"{entry.summary}: {fields} changed on both sides; your copy kept as a note")
        self._record(entry.id, uid, obj, in_step=merged.fields == carried(incoming) and not done_elsewhere, item=item)

    def _agreed(self, item: SyncItem | None) -> Fields | None:
        """The version both sides last agreed on; None when there is none, or it can no longer be read."""
        try:
            return carried(self._read(item.synced_ics)[1]) if item else None
        except Exception:  # noqa: BLE001 - a version kept by an older release that this reader refuses
            return None

    def _record(self, entry_id: str, uid: str, obj: RemoteObject, in_step: bool, item: SyncItem | None) -> None:
        """Remember the server's version as the one agreed; the entry waits to be sent only if it differs."""
        item = item or SyncItem(entry_id=entry_id, uid=uid, href=obj.href, synced_ics=obj.text)
        item.uid, item.href, item.etag, item.synced_ics = uid, obj.href, obj.etag, obj.text
        self.session.add(item)
        self.items[item.href] = self.items[uid] = item
        (self.in_step if in_step else self.behind).add(entry_id)
        (self.behind if in_step else self.in_step).discard(entry_id)

    def gone(self, href: str) -> None:
        item = self.session.exec(select(SyncItem).where(SyncItem.href == href)).first()
        if item is None:
            return
        entry = self.session.get(Entry, item.entry_id)
        self.session.delete(item)
        if entry is not None and entry.status is not Status.ARCHIVED:
            self.batch.archive(entry)
            self.report.pulled.append(f"archived (deleted on the server): {entry.summary}")
        self.in_step.add(item.entry_id)

    def settle_outbox(self) -> None:
        """After every write of the pull (each queued its entry, by trigger): what matches the server leaves."""
        self.session.flush()
        for chunk in _chunks(sorted(self.in_step)):
            self.session.execute(delete(SyncOutboxRow).where(col(SyncOutboxRow.entry_id).in_(chunk)))
        for entry_id in sorted(self.behind):
            _queue(self.session, entry_id)


def note_outcome(
    store: Store, error: str | None, now: datetime, report: SyncReport | None = None, remedy: Remedy | None = None
) -> int:
    """Keep how the last sync ended (for the tray, the window and `murmur sync status`), a failed first one too
    (its task list still unknown): when and why it failed, what to do, since when it keeps failing; or what a
    whole sync left aside. Returns the changes still queued."""
    with store.write() as session:
        state = session.get(SyncState, 1) or SyncState(calendar_url="")
        state.last_error = error
        state.last_error_remedy = remedy_json(remedy) if error is not None else None
        if error is None:
            state.last_sync_at = now
            state.failing_since = None
            done = report or SyncReport()
            # One line each, once each: a pull round after a push may meet the same object again.
            state.skipped = "\n".join(dict.fromkeys(" ".join(line.split()) for line in done.problems))
            state.unread = "\n".join(dict.fromkeys(done.unread))
        else:
            state.last_error_at = now
            state.failing_since = state.failing_since or now
        session.add(state)
        session.flush()
        return sync_status(session).queued


@dataclass(frozen=True)
class _Sent:
    entry_id: str
    queued_at: str
    revision: int | None  # None: the entry was deleted here
    item: SyncItem | None  # what the server now holds; None: nothing


class Sync:
    def __init__(self, store: Store, tasks: TaskList, tz: ZoneInfo, now: datetime, *, confirmed: bool = False) -> None:
        """`confirmed`: the user said yes to archiving more entries than the cap, all deleted on the server."""
        self.store, self.tasks, self.tz, self.now = store, tasks, tz, now
        self.confirmed = confirmed
        self.report = SyncReport()
        self._again = False  # the server changed under a push: pull, then push again

    def run(self) -> SyncReport:
        """One sync; a SyncError leaves everything queued (the caller notes it with `note_outcome`)."""
        self._start()
        for _ in range(_ROUNDS):
            self._pull()
            if not self._push():
                break
        self.report.queued = note_outcome(self.store, None, self.now, self.report)
        return self.report

    def _start(self) -> None:
        """A first sync with this task list sends every entry; what the server holds is met at the pull."""
        with self.store.write() as session:
            state = session.get(SyncState, 1)
            if state is not None and state.calendar_url == self.tasks.url:
                state.calendar_name = self.tasks.name
                session.add(state)
                return
            session.execute(delete(SyncItem))
            session.execute(text(f"INSERT OR IGNORE INTO sync_outbox SELECT id, {_QUEUED_NOW} FROM entries"))
            failing_since = state.failing_since if state is not None else None  # the failures go on being counted
            if state is not None:
                session.delete(state)
                session.flush()
            session.add(
                SyncState(calendar_url=self.tasks.url, calendar_name=self.tasks.name, failing_since=failing_since)
            )

    def _pull(self) -> None:
        with self.store.read() as session:
            state = session.get(SyncState, 1)
            assert state is not None
            token = state.sync_token
            unread = [*state.unread.splitlines(), *self.report.unread]
            known: dict[str, str | None] = {
                href: etag for href, etag in session.execute(select(SyncItem.href, SyncItem.etag))
            }
        changes = self.tasks.changes(token)
        self.report.problems.extend(changes.problems)
        wanted = [href for href, etag in changes.changed if etag is None or known.get(href) != etag]
        wanted += [href for href in dict.fromkeys(unread) if href not in wanted and href not in changes.deleted]
        objects = self.tasks.fetch(wanted)
        gone = list(changes.deleted)
        if changes.complete:
            listed = {href for href, _ in changes.changed}
            gone += [href for href in known if href not in listed]
        with self.store.write() as session:
            pull = _Pull(session, self.tz, self.now, self.report)
            pull.take_all(objects)
            held = not self.confirmed and self._too_many_gone(session, gone)
            for href in [] if held else gone:
                pull.gone(href)
            pull.settle_outbox()
            state = session.get(SyncState, 1)
            assert state is not None
            if not held:  # held: the same deletions are heard again at the next sync
                state.sync_token = changes.token
            session.add(state)
            if pull.batch.undo_id is not None:
                self.report.undo_id = pull.batch.undo_id

    def _too_many_gone(self, session: Session, gone: Sequence[str]) -> bool:
        """Would these deletions on the server archive more open entries here than one change may unasked (a list
        emptied by mistake, a server that lost its data)? Then none is archived, and the user is asked."""
        if len(gone) <= MASS_CHANGE_CAP:  # so few cannot be too many: no need to look which are open
            return False
        open_ones = session.execute(
            select(func.count())
            .select_from(SyncItem)
            .join(Entry, col(Entry.id) == col(SyncItem.entry_id))
            .where(col(SyncItem.href).in_(list(gone)), col(Entry.status) != Status.ARCHIVED)
        ).scalar_one()
        if open_ones <= MASS_CHANGE_CAP:
            return False
        self.report.problems.append(
            f"{open_ones} tasks were deleted on the server at once; none was archived here "
            f"(more than {MASS_CHANGE_CAP}): if that was meant, sync again with --confirm"
        )
        return True

    def _queued(self) -> list[tuple[str, str]]:
        with self.store.read() as session:
            rows = session.exec(select(SyncOutboxRow).order_by(col(SyncOutboxRow.queued_at))).all()
            return [(row.entry_id, row.queued_at) for row in rows]

    def _push(self) -> bool:
        """Send the outbox; True when the server changed under it (a pull goes first, then it is sent again)."""
        queued = self._queued()
        self._again = False
        for start in range(0, len(queued), _PUSH_CHUNK):
            sent: list[_Sent] = []
            try:
                sent.extend(self._send(queued[start : start + _PUSH_CHUNK]))
            finally:
                self._record_sent(sent)
        return self._again

    def _send(self, chunk: list[tuple[str, str]]) -> Iterator[_Sent]:
        with self.store.read() as session:
            found = {entry_id: session.get(Entry, entry_id) for entry_id, _ in chunk}
            items = {entry_id: session.get(SyncItem, entry_id) for entry_id, _ in chunk}
            for entry in found.values():
                if entry is not None:
                    session.expunge(entry)
            # The server gets the placeholders, never a secret privacy.keep_unredacted put back locally.
            present = [entry for entry in found.values() if entry is not None]
            masked = {entry.id: entry for entry in shareable(session, present)}
            entries = {entry_id: masked.get(entry_id) for entry_id in found}
            for item in items.values():
                if item is not None:
                    session.expunge(item)
        for entry_id, queued_at in chunk:
            entry, item = entries[entry_id], items[entry_id]
            try:
                if entry is None:
                    if item is not None:
                        self.tasks.delete(item.href, item.etag)
                        self.report.pushed.append(f"deleted: {entry_id[:6]}")
                    yield _Sent(entry_id, queued_at, None, None)
                else:
                    yield _Sent(entry_id, queued_at, entry.revision, self._put(entry, item))
            except ObjectRefused as refused:  # left queued: sent again next time, the rest go now
                named = entry.summary if entry is not None else item.href if item is not None else entry_id
                self.report.problems.append(f"{named}: not sent, {refused}")
            except ChangedOnServer:
                self._again = True  # changed there meanwhile: the next pull merges it, then it is sent again
                if entry is not None and item is None and (linked := self._link_existing(entry)) is not None:
                    yield linked

    def _put(self, entry: Entry, item: SyncItem | None) -> SyncItem:
        uid = item.uid if item else own_uid(entry.id)
        if item is None:
            ics = vtodo_object(entry, self.tz, self.now, uid=uid)
        else:
            changed = self._changed_since(item, entry)
            if not changed:
                return item  # changed only in what a VTODO does not carry (the words said, a due phrase)
            ics = vtodo_over(item.synced_ics, entry, self.tz, self.now, uid, changed)
        href = item.href if item else self.tasks.href_for(uid)
        etag = self.tasks.put(href, ics, item.etag if item else None)
        verb = "updated" if item else "created"
        self.report.pushed.append(f"{verb}: {entry.summary}")
        return SyncItem(entry_id=entry.id, uid=uid, href=href, etag=etag, synced_ics=ics)

    def _changed_since(self, item: SyncItem, entry: Entry) -> list[str]:
        """The synced fields the entry changed since the version both sides last agreed on (every one when that
        version cannot be read: the entry is then written whole)."""
        try:
            agreed = read_vtodo(item.synced_ics, self.tz, self.now)[1]
        except Exception:  # noqa: BLE001 - any reader failure: the version kept is no base to compare with
            return list(SYNCED_FIELDS)
        return changed_fields(entry, agreed)

    def _link_existing(self, entry: Entry) -> _Sent | None:
        """A create found something at its address: an earlier sync's, cut short before it was recorded. It
        becomes the version agreed on; the entry stays queued, so a difference is sent at the next round."""
        uid = own_uid(entry.id)
        found = self.tasks.get(self.tasks.href_for(uid))
        if found is None:
            return None
        item = SyncItem(entry_id=entry.id, uid=uid, href=found.href, etag=found.etag, synced_ics=found.text)
        return _Sent(entry.id, "", entry.revision, item)  # "": never the queued time, so it stays queued

    def _record_sent(self, sent: list[_Sent]) -> None:
        if not sent:
            return
        with self.store.write() as session:
            for done in sent:
                if done.item is not None:
                    session.merge(done.item)  # added, or written over the one mapped
                elif (mapped := session.get(SyncItem, done.entry_id)) is not None:
                    session.delete(mapped)
                session.flush()
                entry = session.get(Entry, done.entry_id)
                unchanged = (entry.revision if entry else None) == done.revision
                row = session.get(SyncOutboxRow, done.entry_id)
                if row is not None and row.queued_at == done.queued_at and unchanged:
                    session.delete(row)
