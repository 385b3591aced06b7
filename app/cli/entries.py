"""The list commands: add, list, complete, archive, snooze, merge, edit, undo, history, inbox, retry, dismiss."""

import argparse
from collections.abc import Callable
from typing import Any

from app.agent.provider import ProviderFlags
from app.assembly import build_service
from app.changes.executor import ExecutionResult
from app.changes.interpretation import RunOptions
from app.changes.undo import UndoRecord
from app.cli.exits import ExitCode
from app.cli.numbers import LIMIT, ROW_ID
from app.cli.report import print_json, read_text, report_execution, report_pipeline, say
from app.cli.voice import speak_reply
from app.domain.enums import Category, Status, UndoSubject, UtteranceSource
from app.render import entry_json, entry_line, history_json, item_lines, undo_json, utterance_json
from app.service import BY_HAND, MurmurService
from app.store.models import UndoItem

STATUS_CHOICES = [s.value for s in Status] + ["all"]
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
    return RunOptions(confirmed=getattr(args, "confirm", False), new_conversation=args.new)


# -- what was said --------------------------------------------------------------------------------


def cmd_add(args: argparse.Namespace) -> int:
    service = _interpreting_service(args)
    result = service.submit(read_text(args.text), UtteranceSource(args.source), options=_run_options(args))
    status = report_pipeline(service, result, args.json)
    if args.speak:
        speak_reply(result, service.clock())
    return status


def cmd_retry(args: argparse.Namespace) -> int:
    service = _interpreting_service(args)
    text = None if args.text is None else read_text([args.text])
    result = service.retry(args.utterance_id, options=_run_options(args), text=text)
    return report_pipeline(service, result, args.json)


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
    for u in utterances:
        how = f"murmur retry {u.id}, or murmur dismiss {u.id}"
        say(f"{u.id}  {u.outcome.value:<7}  {u.text[:60]!r}  {u.error or ''}  ({how})")
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
        counts = f"{len(result.reverted)} reverted, {len(result.conflicts)} conflict(s)"
        say(f"Undid batch {result.batch.id} ({result.batch.label}): {counts}")
    return ExitCode.OK if result.reverted else ExitCode.NOTHING_APPLIED


def _changed(item: UndoItem | UndoRecord) -> str:
    """What an action changed: an entry's ID ('3fa1b2'), 'memory 9c0d1e', or 'utterance 7'."""
    if item.subject is UndoSubject.UTTERANCE:
        return f"utterance {item.entry_id}"
    short = item.entry_id[:6]
    return f"memory {short}" if item.subject is UndoSubject.MEMORY else short


def cmd_history(args: argparse.Namespace) -> int:
    service = _store_service(args)
    batches = service.history(args.limit)
    clock = service.clock()
    if args.json:
        print_json(history_json(batches, clock.tz))
        return ExitCode.OK
    if not batches:
        say("No history yet.")
    for h in batches:
        state = "undone" if h.batch.undone_at else "applied"
        say(f"batch {h.batch.id}  {h.batch.created_at.astimezone(clock.tz):%Y-%m-%d %H:%M}  {h.batch.label}  [{state}]")
        for item in h.items:
            mark = "undone" if item.undone_at else (f"conflict: {item.undo_conflict}" if item.undo_conflict else "")
            say(f"  action {item.id}: {item.kind} {_changed(item)} {mark}".rstrip())
    return ExitCode.OK


# -- the parser -----------------------------------------------------------------------------------


def add_commands(
    sub: "argparse._SubParsersAction[Any]",
    common: argparse.ArgumentParser,
    as_json: argparse.ArgumentParser,
) -> None:
    """Register the list commands (`common`: --db; `as_json`: --json)."""
    reason = argparse.ArgumentParser(add_help=False)
    reason.add_argument("--reason", default=BY_HAND, help="why (kept in the history)")
    llm = argparse.ArgumentParser(add_help=False)
    llm.add_argument("--offline", action="store_true", help="use the offline rule-based interpreter, not the LLM")
    llm.add_argument("--preset", help="LLM preset (openai, ollama, llamacpp, lmstudio, openrouter)")
    llm.add_argument("--base-url", metavar="URL", help="an OpenAI-compatible server, e.g. http://localhost:11434/v1")
    llm.add_argument("--model", help="the model name on that server")

    add = sub.add_parser("add", parents=[common, as_json, llm], help="run text through the pipeline")
    add.add_argument("text", nargs="+", help="what you would say ('-' reads standard input)")
    add.add_argument("--new", action="store_true", help="start a new conversation (do not answer an open question)")
    add.add_argument("--speak", action="store_true", help="also say the reply (or what changed) aloud")
    add.add_argument("--source", choices=[s.value for s in UtteranceSource], default="cli", help=argparse.SUPPRESS)
    add.set_defaults(func=cmd_add)

    lst = sub.add_parser("list", parents=[common, as_json], help="list entries")
    lst.add_argument("--status", choices=STATUS_CHOICES, default="active")
    lst.add_argument("--category", choices=[c.value for c in Category])
    lst.add_argument("--search", metavar="Q", help="only entries whose text contains Q")
    lst.set_defaults(func=cmd_list, reads_only=True)

    for name, func, text in (
        ("complete", cmd_complete, "mark entries done"),
        ("archive", cmd_archive, "archive entries"),
    ):
        edit = sub.add_parser(name, parents=[common, as_json, reason], help=text)
        edit.add_argument("ids", nargs="+", metavar="SHORT_ID")
        edit.set_defaults(func=func)

    merge = sub.add_parser(
        "merge", parents=[common, as_json], help="make two entries one: INTO takes NEW's due and priority"
    )
    merge.add_argument("new", metavar="NEW", help="the entry said again (it is archived)")
    merge.add_argument("into", metavar="INTO", help="the entry it is the same as")
    merge.set_defaults(func=cmd_merge)

    snooze = sub.add_parser("snooze", parents=[common, as_json, reason], help="hide entries until a time")
    snooze.add_argument("ids", nargs="+", metavar="SHORT_ID")
    snooze.add_argument(
        "--until", default="tomorrow", metavar="WHEN", help="e.g. 'friday', 'in 2 hours' (default: tomorrow)"
    )
    snooze.set_defaults(func=cmd_snooze)

    edit = sub.add_parser(
        "edit", parents=[common, as_json, reason], help="change an entry's fields ('none' clears one)"
    )
    edit.add_argument("ids", nargs=1, metavar="SHORT_ID")
    edit.add_argument("--content")
    edit.add_argument("--summary")
    edit.add_argument("--category", choices=[c.value for c in Category])
    edit.add_argument("--priority", metavar="1-5|none")
    edit.add_argument("--due", dest="due_date", metavar="WHEN|none")
    edit.add_argument(
        "--repeat",
        "--cadence",  # its name before habits took repeat rules
        metavar="RULE|none",
        help="e.g. 'every other monday', 'on the 15th of every month', 'FREQ=WEEKLY;BYDAY=MO,TH'",
    )
    edit.add_argument("--status", choices=[s.value for s in Status])
    edit.set_defaults(func=cmd_edit)

    undo = sub.add_parser(
        "undo", parents=[common, as_json], help="revert the latest batch, an older one, or one action"
    )
    which = undo.add_mutually_exclusive_group()
    which.add_argument(
        "--batch", type=ROW_ID, metavar="N", help="revert what is left of batch N (see `murmur history`)"
    )
    which.add_argument("--action", type=ROW_ID, metavar="N", help="revert only action N (see `murmur history`)")
    undo.set_defaults(func=cmd_undo)

    hist = sub.add_parser("history", parents=[common, as_json], help="past batches and their actions")
    hist.add_argument("--limit", type=LIMIT, default=20)
    hist.set_defaults(func=cmd_history, reads_only=True)

    inbox = sub.add_parser("inbox", parents=[common, as_json], help="what you said that could not be applied")
    inbox.set_defaults(func=cmd_inbox, reads_only=True)

    retry = sub.add_parser("retry", parents=[common, as_json, llm], help="run an inbox utterance again")
    retry.add_argument("utterance_id", type=ROW_ID, metavar="ID")
    retry.add_argument("--confirm", action="store_true", help="apply even more changes than llm.max_mutations")
    retry.add_argument("--new", action="store_true", help=argparse.SUPPRESS)
    retry.add_argument(
        "--text", metavar="WORDS", help="run these words instead, e.g. what was misheard put right ('-' reads stdin)"
    )
    retry.set_defaults(func=cmd_retry)

    dismiss = sub.add_parser(
        "dismiss", parents=[common, as_json], help="take an utterance out of the inbox (kept; undo brings it back)"
    )
    dismiss.add_argument("utterance_id", type=ROW_ID, metavar="ID", help="its number, from `murmur inbox`")
    dismiss.set_defaults(func=cmd_dismiss)
