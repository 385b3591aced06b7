"""The `murmur` command: a thin front end over MurmurService, with --json output for scripts.

Exit status: 0 success, 1 nothing could be applied (or a store/environment error), 2 bad usage.
Errors go to stderr as one line: `murmur: error: ...`.
"""

import argparse
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from app import __version__
from app.agent.commands import add_agent_commands, first_offline_notice
from app.agent.provider import ProviderFlags
from app.assembly import build_service
from app.changes.executor import ExecutionResult
from app.changes.interpretation import RunOptions
from app.domain.actions import ArchiveAction, CompleteAction, SnoozeAction, UpdateAction, parse_update_fields
from app.domain.enums import Category, Status, UtteranceSource
from app.errors import MurmurError, UsageError
from app.logs import setup_logging
from app.render import (
    applied_json,
    applied_line,
    dumps,
    entry_json,
    entry_line,
    failure_json,
    failure_line,
    history_json,
    undo_json,
    utterance_json,
)
from app.service import MurmurService, PipelineResult
from app.speech.commands import add_speech_commands
from app.store.queries import short_ids
from app.ui.commands import add_app_commands, start_app

log = logging.getLogger("murmur.cli")

EXIT_OK, EXIT_NOTHING_APPLIED, EXIT_USAGE = 0, 1, 2
STATUS_CHOICES = [s.value for s in Status] + ["all"]


def make_service(args: argparse.Namespace) -> MurmurService:
    """The service for commands that interpret what was said (add, retry, listen --add)."""
    flags = ProviderFlags(
        base_url=getattr(args, "base_url", None),
        model=getattr(args, "model", None),
        preset=getattr(args, "preset", None),
    )
    return build_service(args.db and Path(args.db), offline=getattr(args, "offline", False), flags=flags)


def _store_service(args: argparse.Namespace) -> MurmurService:
    """The service for reads and direct edits: no interpreter is used, so none is looked up
    (no keyring, no openai import)."""
    return build_service(args.db and Path(args.db), offline=True)


def _run_options(args: argparse.Namespace) -> RunOptions:
    return RunOptions(confirmed=getattr(args, "confirm", False), new_conversation=getattr(args, "new", False))


def _print_json(data: Any) -> None:
    print(dumps(data))


def _read_text(words: Sequence[str]) -> str:
    if list(words) == ["-"]:
        return sys.stdin.read()
    return " ".join(words)


# -- commands -----------------------------------------------------------------------------------


def _report_execution(
    service: MurmurService, result: ExecutionResult | PipelineResult, as_json: bool, extra: dict[str, Any]
) -> int:
    clock = service.clock()
    if as_json:
        _print_json(
            {
                "applied": [applied_json(item, clock.tz) for item in result.applied],
                "failures": [failure_json(f) for f in result.failures],
                "summary": result.summary,
                "undo_id": result.undo_id,
                **extra,
            }
        )
    else:
        for item in result.applied:
            print(applied_line(item, clock.now, clock.tz))
        for failure in result.failures:
            print(f"murmur: error: {failure_line(failure)}", file=sys.stderr)
        print(result.summary + ("  (undo: murmur undo)" if result.undo_id else ""))
    return EXIT_OK if result.applied else EXIT_NOTHING_APPLIED


def _report_pipeline(service: MurmurService, result: PipelineResult, as_json: bool) -> int:
    if not as_json:
        if result.message:
            print(("? " if result.question else "") + result.message)
        if result.interpreter == "offline" and first_offline_notice():
            print(
                "(offline: no LLM is configured, so the built-in rules read this; `murmur config --help` sets one up)"
            )
    usage = result.usage
    extra = {
        "utterance_id": result.utterance_id,
        "interpreter": result.interpreter,
        "message": result.message,
        "question": result.question,
        "turns": result.turns,
        "usage": {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "cost_usd": round(usage.cost_usd, 6),
        },
    }
    return _report_execution(service, result, as_json, extra)


def cmd_add(args: argparse.Namespace) -> int:
    service = make_service(args)
    text = _read_text(args.text)
    return _report_pipeline(
        service, service.submit(text, UtteranceSource(args.source), options=_run_options(args)), args.json
    )


def cmd_retry(args: argparse.Namespace) -> int:
    service = make_service(args)
    return _report_pipeline(service, service.retry(args.utterance_id, options=_run_options(args)), args.json)


def cmd_list(args: argparse.Namespace) -> int:
    service = _store_service(args)
    statuses = list(Status) if args.status == "all" else [Status(args.status)]
    category = Category(args.category) if args.category else None
    entries = service.entries(statuses, category=category, search=args.search)
    clock = service.clock()
    with service.store.read() as session:
        shorts = short_ids(session)
    if args.json:
        _print_json([entry_json(e, shorts[e.id], clock.tz) for e in entries])
    elif not entries:
        print(f"No {'' if args.status == 'all' else args.status + ' '}entries.")
    else:
        for entry in entries:
            print(entry_line(entry, shorts[entry.id], clock.now, clock.tz))
    return EXIT_OK


def _direct_edit(args: argparse.Namespace, make_action: Callable[[str], Any], label: str) -> int:
    service = _store_service(args)
    result = service.apply([make_action(entry_id) for entry_id in args.ids], label=label)
    return _report_execution(service, result, args.json, {})


def cmd_complete(args: argparse.Namespace) -> int:
    return _direct_edit(args, lambda i: CompleteAction(entry_id=i, reason=args.reason), "completed by hand")


def cmd_archive(args: argparse.Namespace) -> int:
    return _direct_edit(args, lambda i: ArchiveAction(entry_id=i, reason=args.reason), "archived by hand")


def cmd_snooze(args: argparse.Namespace) -> int:
    return _direct_edit(
        args, lambda i: SnoozeAction(entry_id=i, until_text=args.until, reason=args.reason), "snoozed by hand"
    )


def cmd_edit(args: argparse.Namespace) -> int:
    fields: dict[str, Any] = {}
    for name in ("content", "summary", "category", "priority", "due_date", "cadence", "status"):
        value = getattr(args, name)
        if value is not None:
            fields[name] = None if value == "none" else value
    try:
        changes = parse_update_fields(fields)
    except MurmurError as error:
        raise UsageError(str(error)) from None
    return _direct_edit(args, lambda i: UpdateAction(entry_id=i, changes=changes, reason=args.reason), "edited by hand")


def cmd_undo(args: argparse.Namespace) -> int:
    service = _store_service(args)
    result = service.undo_action(args.action) if args.action is not None else service.undo()
    tz = service.clock().tz
    if args.json:
        _print_json(undo_json(result, tz))
    else:
        for item in result.reverted:
            print(f"undone    {item.kind} of {item.entry_id[:6]}")
        for reverted in result.conflicts:
            print(f"conflict  {reverted.item.kind} of {reverted.item.entry_id[:6]}: {reverted.conflict}")
        counts = f"{len(result.reverted)} reverted, {len(result.conflicts)} conflict(s)"
        print(f"Undid batch {result.batch.id} ({result.batch.label}): {counts}")
    return EXIT_OK if result.reverted else EXIT_NOTHING_APPLIED


def cmd_history(args: argparse.Namespace) -> int:
    service = _store_service(args)
    batches = service.history(args.limit)
    clock = service.clock()
    if args.json:
        _print_json(history_json(batches, clock.tz))
        return EXIT_OK
    if not batches:
        print("No history yet.")
    for h in batches:
        state = "undone" if h.batch.undone_at else "applied"
        print(
            f"batch {h.batch.id}  {h.batch.created_at.astimezone(clock.tz):%Y-%m-%d %H:%M}  {h.batch.label}  [{state}]"
        )
        for item in h.items:
            mark = "undone" if item.undone_at else (f"conflict: {item.undo_conflict}" if item.undo_conflict else "")
            print(f"  action {item.id}: {item.kind} {item.entry_id[:6]} {mark}".rstrip())
    return EXIT_OK


def cmd_inbox(args: argparse.Namespace) -> int:
    service = _store_service(args)
    utterances = service.inbox()
    tz = service.clock().tz
    if args.json:
        _print_json([utterance_json(u, tz) for u in utterances])
        return EXIT_OK
    if not utterances:
        print("Inbox is empty: everything you said was applied.")
    for u in utterances:
        print(f"{u.id}  {u.outcome.value:<7}  {u.text[:60]!r}  {u.error or ''}  (murmur retry {u.id})")
    return EXIT_OK


# -- the parser ---------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line on stderr, like every other error (subcommands inherit this class)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"murmur: error: {message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument(
        "--db", metavar="PATH", default=argparse.SUPPRESS, help="database file (default: $MURMUR_DB or the data dir)"
    )
    as_json = _Parser(add_help=False)
    as_json.add_argument("--json", action="store_true", help="print JSON")
    reason = _Parser(add_help=False)
    reason.add_argument("--reason", default="Done by hand", help="why (kept in the history)")

    parser = _Parser(
        prog="murmur",
        parents=[common],
        description="Murmur Desktop: turn what you say into a kept list of todos, reminders and notes.",
    )
    parser.add_argument("--version", action="version", version=f"murmur {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    llm = _Parser(add_help=False)
    llm.add_argument("--offline", action="store_true", help="use the offline rule-based interpreter, not the LLM")
    llm.add_argument("--preset", help="LLM preset (openai, ollama, llamacpp, lmstudio, openrouter)")
    llm.add_argument("--base-url", metavar="URL", help="an OpenAI-compatible server, e.g. http://localhost:11434/v1")
    llm.add_argument("--model", help="the model name on that server")

    add = sub.add_parser("add", parents=[common, as_json, llm], help="run text through the pipeline")
    add.add_argument("text", nargs="+", help="what you would say ('-' reads standard input)")
    add.add_argument("--new", action="store_true", help="start a new conversation (do not answer an open question)")
    add.add_argument("--source", choices=[s.value for s in UtteranceSource], default="cli", help=argparse.SUPPRESS)
    add.set_defaults(func=cmd_add)

    lst = sub.add_parser("list", parents=[common, as_json], help="list entries")
    lst.add_argument("--status", choices=STATUS_CHOICES, default="active")
    lst.add_argument("--category", choices=[c.value for c in Category])
    lst.add_argument("--search", metavar="Q", help="only entries whose text contains Q")
    lst.set_defaults(func=cmd_list)

    for name, func, text in (
        ("complete", cmd_complete, "mark entries done"),
        ("archive", cmd_archive, "archive entries"),
    ):
        edit = sub.add_parser(name, parents=[common, as_json, reason], help=text)
        edit.add_argument("ids", nargs="+", metavar="SHORT_ID")
        edit.set_defaults(func=func)

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
    edit.add_argument("--cadence", metavar="daily|weekdays|weekly|monthly|none")
    edit.add_argument("--status", choices=[s.value for s in Status])
    edit.set_defaults(func=cmd_edit)

    undo = sub.add_parser("undo", parents=[common, as_json], help="revert the latest batch, or one action")
    undo.add_argument("--action", type=int, metavar="N", help="revert only action N (see `murmur history`)")
    undo.set_defaults(func=cmd_undo)

    hist = sub.add_parser("history", parents=[common, as_json], help="past batches and their actions")
    hist.add_argument("--limit", type=int, default=20)
    hist.set_defaults(func=cmd_history)

    inbox = sub.add_parser("inbox", parents=[common, as_json], help="what you said that could not be applied")
    inbox.set_defaults(func=cmd_inbox)

    retry = sub.add_parser("retry", parents=[common, as_json, llm], help="run an inbox utterance again")
    retry.add_argument("utterance_id", type=int, metavar="ID")
    retry.add_argument("--confirm", action="store_true", help="apply even more changes than llm.max_mutations")
    retry.add_argument("--new", action="store_true", help=argparse.SUPPRESS)
    retry.set_defaults(func=cmd_retry)

    add_speech_commands(sub, [common, as_json])
    add_agent_commands(sub, [common, as_json])
    add_app_commands(sub, [common])
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "db"):
        args.db = None
    if args.command is None:
        return start_app(args)
    log_path = setup_logging()
    try:
        return int(args.func(args))
    except UsageError as error:
        print(f"murmur: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except MurmurError as error:
        print(f"murmur: error: {error}", file=sys.stderr)
        return EXIT_NOTHING_APPLIED
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # a bug: one line here, the traceback in the log
        log.exception("unexpected error in %s", args.command)
        where = f"; details in {log_path}" if log_path else ""
        print(f"murmur: internal error: {error!r} (this is a bug{where})", file=sys.stderr)
        return EXIT_NOTHING_APPLIED
