"""Direct edits and undo: the executor's changes by hand or asked by another program, and taking any batch back."""

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from sqlmodel import Session

from app.changes.executor import ExecutionResult, execute
from app.changes.held import Asked, Caps, hold, over_the_cap
from app.changes.originals import clear_originals
from app.changes.undo import UndoResult, batch_to_undo, latest_batch, undo_in_chunks, undo_item
from app.changes.zone_moves import kept_at_their_time, last_zone, note_zone
from app.domain.actions import (
    Action,
    ArchiveAction,
    CompleteAction,
    SnoozeAction,
    UpdateAction,
    parse_actions,
    parse_update_fields,
)
from app.domain.dates import moved_due
from app.domain.defaults import BY_HAND
from app.domain.enums import Status, UndoSubject
from app.errors import MurmurError, StoreError, UndoError, UsageError
from app.presentation.failures import failure_line
from app.recordings.kept import follow_undo
from app.service.core import ServiceCore
from app.store.models import UndoBatch
from app.store.queries import get_entry, wake_snoozed

log = logging.getLogger("murmur.service")

TRASH_EMPTIED = "its sound was emptied from the trash since"


class EditArea(ServiceCore):
    """Edits by hand (the CLI, the window) and by other programs (MCP), each one undo batch; undo."""

    def read_due(self, phrase: str, current: datetime | None = None) -> datetime | None:
        """Where an entry's due lands when set to `phrase`, exactly as an edit sets it: read with this service's
        clock (its zone, now, the hours of the day's parts, named and personal days), keeping what the phrase does
        not say of the `current` due (a day alone keeps its time); None when no moment can be read."""
        return moved_due(current, phrase, self._run_clock())

    def apply(self, actions: Sequence[Action], label: str | None = None) -> ExecutionResult:
        """Direct edits (from the CLI or the window): the same executor, so they are undoable too."""
        clock = self._run_clock()
        with self.store.write() as session:
            wake_snoozed(session, clock.now)
            return execute(session, actions, clock, label=label)

    def apply_asked(self, asked: Asked, origin: str, words: str, caps: Caps) -> ExecutionResult:
        """The changes another program asks for (an assistant over MCP; `asked`: each action's kind and item as the
        agent's tools take them), as one undo batch marked with its name `origin`, all of them or none: an item
        that does not read or an action that fails is a UsageError and changes nothing. More than `caps` let
        through (of one kind: archive, complete, snooze, update; or in all) wait in the inbox, said as `words`, for
        the user's yes: ConfirmationNeeded, naming the utterance to confirm."""
        parsed = parse_actions(asked)
        if parsed.failures:
            raise UsageError("; ".join(f"{f.tool}: {f.error}" for f in parsed.failures) + "; nothing was changed")
        clock = self._run_clock()
        with self.store.write() as session:
            if (why := over_the_cap(asked, caps)) is not None:
                error = hold(session, asked, origin, words, why, clock.now)
            else:
                wake_snoozed(session, clock.now)
                result = execute(session, parsed.actions, clock, origin=origin)
                if result.failures:  # raised inside the write: none of it is kept
                    raise UsageError("; ".join(failure_line(f) for f in result.failures) + "; nothing was changed")
                return result
        raise error  # after the write, which kept the held request

    def complete(self, entry_ids: Sequence[str], reason: str = BY_HAND) -> ExecutionResult:
        return self.apply([CompleteAction(entry_id=i, reason=reason) for i in entry_ids], "completed by hand")

    def archive(self, entry_ids: Sequence[str], reason: str = BY_HAND) -> ExecutionResult:
        return self.apply([ArchiveAction(entry_id=i, reason=reason) for i in entry_ids], "archived by hand")

    def unarchive(self, entry_ids: Sequence[str], reason: str = BY_HAND) -> ExecutionResult:
        """Bring archived entries back into the list, open; one undo puts them away again."""
        actions = [UpdateAction(entry_id=i, changes={"status": Status.ACTIVE}, reason=reason) for i in entry_ids]
        return self.apply(actions, "unarchived by hand")

    def snooze(self, entry_ids: Sequence[str], until: str, reason: str = BY_HAND) -> ExecutionResult:
        actions = [SnoozeAction(entry_id=i, until_text=until, reason=reason) for i in entry_ids]
        return self.apply(actions, "snoozed by hand")

    def move(self, entry_ids: Sequence[str], due: str, reason: str = BY_HAND) -> ExecutionResult:
        """Give the entries a new due (`due` read as an edit of it reads it: a day alone keeps each entry's time, a
        habit keeps its repeat), one batch that one undo takes back."""
        actions = [UpdateAction(entry_id=i, changes={"due_date": due}, reason=reason) for i in entry_ids]
        return self.apply(actions, "moved by hand")

    def edit(self, entry_ids: Sequence[str], fields: Mapping[str, object], reason: str = BY_HAND) -> ExecutionResult:
        """Set `fields` (content, summary, category, priority, due_date, repeat, status; None clears one) on
        each entry; a field that does not validate is a UsageError and changes nothing."""
        try:
            changes = parse_update_fields(dict(fields))
        except MurmurError as error:
            raise UsageError(str(error)) from None
        result = self.apply(
            [UpdateAction(entry_id=i, changes=changes, reason=reason) for i in entry_ids], "edited by hand"
        )
        if {"summary", "content"} & set(changes):
            with self.store.write() as session:  # the user typed these words: they may go where the user sends them
                clear_originals(session, [item.entry.id for item in result.applied])
        return result

    def tick_item(self, entry_id: str, item: str, reason: str = BY_HAND) -> ExecutionResult:
        """Tick one item of the entry's checklist (its text, or words naming it); the last one completes it."""
        return self.apply([CompleteAction(entry_id=entry_id, item=item, reason=reason)], "ticked by hand")

    def untick_item(self, entry_id: str, item: str, reason: str = BY_HAND) -> ExecutionResult:
        """Take back a ticked item; an entry its last item completed is open again."""
        return self.edit([entry_id], {"untick_item": item}, reason)

    def add_items(self, entry_id: str, items: Sequence[str], reason: str = BY_HAND) -> ExecutionResult:
        """Append items to the open entry's checklist, skipping those already on it."""
        return self.edit([entry_id], {"add_items": list(items)}, reason)

    def remove_items(self, entry_id: str, items: Sequence[str], reason: str = BY_HAND) -> ExecutionResult:
        """Take items off the open entry's checklist, ticked or not; one undo puts them back where they were."""
        return self.edit([entry_id], {"remove_items": list(items)}, reason)

    def merge(self, new_id: str, into_id: str) -> ExecutionResult:
        """Two entries that are one thing said twice ("remind me to call the plumber at 11" next to "Call
        the plumber"): `into` takes the due and priority `new` brought, and `new` is archived, in one batch
        that one undo takes back."""
        clock = self.clock()
        with self.store.write() as session:
            wake_snoozed(session, clock.now)
            new, into = get_entry(session, new_id), get_entry(session, into_id)
            if new.id == into.id:
                raise UsageError("an entry cannot be merged into itself")
            changes: dict[str, object] = {}
            if new.due_text and new.due_at != into.due_at:
                changes["due_date"] = new.due_text
            if new.priority is not None and new.priority != into.priority:
                changes["priority"] = new.priority
            took = f"merged '{new.summary}' ({new.id[:6]}) into it"
            actions: list[Action] = [UpdateAction(entry_id=into.id, changes=changes, reason=took)] if changes else []
            actions.append(ArchiveAction(entry_id=new.id, reason=f"merged into '{into.summary}' ({into.id[:6]})"))
            return execute(session, actions, clock, label="merged")

    def undo(self) -> UndoResult:
        """Revert the newest batch not undone yet."""
        return self._sounds_follow(undo_in_chunks(self.store, latest_batch, self.clock().now))

    def undo_batch(self, batch_id: int, origin: str | None = None) -> UndoResult:
        """Revert what is left of batch `batch_id` (see `history`), last action first; with `origin`, only a batch
        that program made (another program may take back its own changes, never the user's)."""

        def pick(session: Session) -> UndoBatch:
            batch = batch_to_undo(session, batch_id)
            if origin is not None and batch.origin != origin:
                raise UndoError(f"batch {batch_id} was not made by {origin}; only its own batches can be undone")
            return batch

        return self._sounds_follow(undo_in_chunks(self.store, pick, self.clock().now))

    def undo_action(self, item_id: int) -> UndoResult:
        with self.store.write() as session:
            undone = undo_item(session, item_id, self.clock().now)
        return self._sounds_follow(undone)

    def _sounds_follow(self, result: UndoResult) -> UndoResult:
        """A forgetting undone: its sounds come back out of the trash with their rows; one whose sound the emptied
        trash took is left as it is, and said to be."""
        undone = [item.entry_id for item in result.reverted if item.subject is UndoSubject.RECORDING]
        if not undone:
            return result
        with self.store.write() as session:
            lost = follow_undo(session, self.recordings, undone, self.clock().now)
        items = [
            replace(item, conflict=TRASH_EMPTIED)
            if item.conflict is None and item.item.subject is UndoSubject.RECORDING and item.item.entry_id in lost
            else item
            for item in result.items
        ]
        return replace(result, items=items)

    def follow_the_zone(self) -> ExecutionResult | None:
        """After a move to another time zone, the open habits' dues keep their time of day (one undo batch);
        None when the zone is the last run's (or the database cannot be written: the next start tries again)."""
        zone, before = self.clock().tz, last_zone(self.store.path)
        if before is not None and before.key == zone.key:
            return None
        moved = None
        if before is not None:
            with self.store.read() as session:
                moves = kept_at_their_time(session, before, zone)
            if moves:
                try:
                    habits = f"{len(moves)} habit" + ("s" if len(moves) > 1 else "")
                    moved = self.apply(moves, label=f"{habits} kept at the same time of day in {zone.key}")
                except StoreError as error:
                    log.warning("habits not moved to %s yet: %s", zone.key, error)
                    return None
        try:
            note_zone(self.store.path, zone)
        except OSError as error:  # a folder that cannot be written: the database reads on
            log.warning("cannot keep the time zone beside the database: %s", error)
        return moved
