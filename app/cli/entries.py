"""The list commands: add, list, complete, archive, snooze, merge, edit, items, undo, history, inbox, retry,
dismiss."""

import argparse
from collections.abc import Callable

from app.api.as_json import entry_json, history_json, undo_json, utterance_json
from app.api.edits import ExecutionResult, UndoRecord
from app.api.model import ProviderFlags
from app.api.rows import UndoItem
from app.api.runs import Again, ReplyMode, Run, RunOptions, Stages, drive
from app.api.service import MurmurService, build_service
from app.cli.exits import ExitCode
from app.cli.output import print_json, say
from app.cli.report import read_text, report_execution, report_run
from app.cli.voice import say_reply
from app.domain.enums import Category, Status, UndoSubject, UtteranceSource
from app.errors import UsageError
from app.presentation.entries import entry_line, item_lines
from app.presentation.history import action_state, action_text, batch_title
from app.presentation.recordings import rehear_offer_text
from app.presentation.times import moment_words
from app.presentation.undo import changed_entries, undone_words

EDITABLE_FIELDS = ("content", "summary", "category", "priority", "due_date", "repeat", "status")


def _interpreting_service(args: argparse.Namespace) -> MurmurService:
    """The service for commands that interpret what was said (add, retry), with their LLM options."""
    flags = ProviderFlags(base_url=args.base_url, model=args.model, preset=args.preset)
    return build_service(args.db, offline=args.offline, flags=flags)


def _store_service(args: argparse.Namespace) -> MurmurService:
    """The service for reads and direct edits: no interpreter is used, so none is looked up
    (no keyring, no openai import)."""
    return build_service(args.db, offline=True)


def _run_options(args: argparse.Namespace) -> RunOptions:
    return RunOptions(
        confirmed=getattr(args, "confirm", False), new_conversation=args.new, choice=getattr(args, "choice", None)
    )


# -- what was said --------------------------------------------------------------------------------


def cmd_add(args: argparse.Namespace) -> int:
    reply = ReplyMode.ALWAYS if args.speak else ReplyMode.OFF
    run = Run(UtteranceSource(args.source), text=read_text(args.text), options=_run_options(args), reply_mode=reply)
    service = _interpreting_service(args)
    status = report_run(service, drive(run, Stages(service)), args.json)
    if run.reply is not None:
        say_reply(run.reply)
    return status


def cmd_retry(args: argparse.Namespace) -> int:
    service = _interpreting_service(args)
    if args.engine and not args.rehear:
        raise UsageError("--engine chooses what hears the recording again: add --rehear")
    text = None if args.text is None or args.rehear else read_text([args.text])
    again = Again(args.utterance_id, text, rehear=args.rehear, engine=args.engine or "")
    run = Run(UtteranceSource.CLI, again=again, options=_run_options(args))
    return report_run(service, drive(run, Stages(service)), args.json)


def cmd_dismiss(args: argparse.Namespace) -> int:
    service = _store_service(args)
    dismissal = service.dismiss(args.utterance_id)
    said = dismissal.utterance
    if args.json:
        print_json(
            {
                "change": "dismiss",
                "utterance": utterance_json(said, service.clock().tz),
                "undo_id": dismissal.batch_id,
                "action_id": dismissal.undo_item_id,
            }
        )
    else:
        say(f"Dismissed {said.id}: {said.text[:60]!r}  (undo: murmur undo)")
    return ExitCode.OK


def cmd_inbox(args: argparse.Namespace) -> int:
    service = _store_service(args)
    utterances = service.inbox()
    tz = service.clock().tz
    if args.json:
        print_json([utterance_json(u, tz) for u in utterances])
        return ExitCode.OK
    if not utterances:
        say("Inbox is empty: everything you said was applied.")
    recorded = service.recorded([u.id for u in utterances if u.id is not None])
    for u in utterances:
        how = f"murmur retry {u.id}, or murmur dismiss {u.id}" + (f"; murmur play {u.id}" if u.id in recorded else "")
        say(f"{u.id}  {u.outcome.value:<7}  {u.text[:60]!r}  {u.error or ''}  ({how})")
    if offer := service.rehear_offer():
        say(f"{rehear_offer_text(offer.count, offer.engine)}: murmur retry ID --rehear")
    return ExitCode.OK


# -- the list and edits by hand -------------------------------------------------------------------


def cmd_list(args: argparse.Namespace) -> int:
    service = _store_service(args)
    statuses = list(Status) if args.status == "all" else [Status(args.status)]
    category = Category(args.category) if args.category else None
    entries = service.entries(statuses, category=category, search=args.search)
    clock, shorts = service.clock(), service.short_ids()
    if args.json:
        print_json([entry_json(e, shorts[e.id], clock.tz) for e in entries])
    elif not entries:
        say(f"No {'' if args.status == 'all' else args.status + ' '}entries.")
    else:
        for entry in entries:
            say(entry_line(entry, shorts[entry.id], clock.now, clock.tz))
            for line in item_lines(entry):
                say(line)
    return ExitCode.OK


def _by_hand(args: argparse.Namespace, edit: Callable[[MurmurService], ExecutionResult]) -> int:
    service = _store_service(args)
    return report_execution(service, edit(service), args.json)


def cmd_complete(args: argparse.Namespace) -> int:
    return _by_hand(args, lambda service: service.complete(args.ids, args.reason))


def cmd_archive(args: argparse.Namespace) -> int:
    return _by_hand(args, lambda service: service.archive(args.ids, args.reason))


def cmd_snooze(args: argparse.Namespace) -> int:
    return _by_hand(args, lambda service: service.snooze(args.ids, args.until, args.reason))


def cmd_edit(args: argparse.Namespace) -> int:
    fields = {
        name: None if value == "none" else value
        for name in EDITABLE_FIELDS
        if (value := getattr(args, name)) is not None  # options not given leave their field alone
    }
    return _by_hand(args, lambda service: service.edit(args.ids, fields, args.reason))


def cmd_items(args: argparse.Namespace) -> int:
    [entry_id], texts = args.ids, [text for text in (t.strip() for t in args.texts) if text]
    if args.change in ("tick", "untick") and len(texts) != 1:
        raise UsageError(f"{args.change} takes one item at a time (quote an item of several words)")
    changes: dict[str, Callable[[MurmurService], ExecutionResult]] = {
        "add": lambda service: service.add_items(entry_id, texts, args.reason),
        "remove": lambda service: service.remove_items(entry_id, texts, args.reason),
        "tick": lambda service: service.tick_item(entry_id, texts[0], args.reason),
        "untick": lambda service: service.untick_item(entry_id, texts[0], args.reason),
    }
    return _by_hand(args, changes[args.change])


def cmd_merge(args: argparse.Namespace) -> int:
    return _by_hand(args, lambda service: service.merge(args.new, args.into))


# -- undo and history -----------------------------------------------------------------------------


def cmd_undo(args: argparse.Namespace) -> int:
    service = _store_service(args)
    if args.batch is not None:
        result = service.undo_batch(args.batch)
    elif args.action is not None:
        result = service.undo_action(args.action)
    else:
        result = service.undo()
    if args.json:
        print_json(undo_json(result, service.clock().tz))
    else:
        for item in result.reverted:
            say(f"undone    {item.kind} of {_changed(item)}")
        for reverted in result.conflicts:
            say(f"conflict  {reverted.item.kind} of {_changed(reverted.item)}: {reverted.conflict}")
        names = service.names_now(changed_entries(result))
        say(f"Undid batch {result.batch.id} ({result.batch.label}): {undone_words(result, names)}")
    return ExitCode.OK if result.reverted else ExitCode.NOTHING_APPLIED


def _changed(item: UndoItem | UndoRecord) -> str:
    """What an action changed: an entry's ID ('3fa1b2'), 'memory 9c0d1e', 'word 5e6f7a', 'utterance 7' or
    'recording 4'."""
    if item.subject in (UndoSubject.UTTERANCE, UndoSubject.RECORDING):
        return f"{item.subject.value} {item.entry_id}"
    short = item.entry_id[:6]
    return short if item.subject is UndoSubject.ENTRY else f"{item.subject} {short}"


def cmd_history(args: argparse.Namespace) -> int:
    service = _store_service(args)
    batches = service.history(args.limit)
    clock = service.clock()
    if args.json:
        print_json(history_json(batches, clock.tz))
        return ExitCode.OK
    if not batches:
        say("No history yet.")
    names = service.names_now({item.entry_id for h in batches for item in h.items if item.subject is UndoSubject.ENTRY})
    for h in batches:
        state = "undone" if h.batch.undone_at else "applied"
        made = moment_words(h.batch.created_at, clock.now, clock.tz)
        say(f"batch {h.batch.id}  {made}  {batch_title(h.batch.label, h.said, h.batch.origin)}  [{state}]")
        for item in h.items:
            mark, what = action_state(item), action_text(item, names, clock.now, clock.tz)
            say(f"  action {item.id}: {what} ({_changed(item)})" + (f"  [{mark}]" if mark else ""))
    return ExitCode.OK


# -- the parser -----------------------------------------------------------------------------------
