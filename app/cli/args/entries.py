"""The arguments of entries's commands; what they run is imported from app.cli.entries when one does."""

import argparse
from typing import Any

from app.api.recordings import REHEAR_ENGINES
from app.cli.numbers import LIMIT, ROW_ID
from app.domain.defaults import BY_HAND
from app.domain.enums import Category, Status, UtteranceSource

STATUS_CHOICES = [s.value for s in Status] + ["all"]
ITEM_CHANGES = ("add", "remove", "tick", "untick")


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
    add.set_defaults(func="app.cli.entries:cmd_add")

    lst = sub.add_parser("list", parents=[common, as_json], help="list entries")
    lst.add_argument("--status", choices=STATUS_CHOICES, default="active")
    lst.add_argument("--category", choices=[c.value for c in Category])
    lst.add_argument("--search", metavar="Q", help="only entries whose text contains Q")
    lst.set_defaults(func="app.cli.entries:cmd_list", reads_only=True)

    for name, func, text in (
        ("complete", "app.cli.entries:cmd_complete", "mark entries done"),
        ("archive", "app.cli.entries:cmd_archive", "archive entries"),
    ):
        edit = sub.add_parser(name, parents=[common, as_json, reason], help=text)
        edit.add_argument("ids", nargs="+", metavar="SHORT_ID")
        edit.set_defaults(func=func)

    merge = sub.add_parser(
        "merge", parents=[common, as_json], help="make two entries one: INTO takes NEW's due and priority"
    )
    merge.add_argument("new", metavar="NEW", help="the entry said again (it is archived)")
    merge.add_argument("into", metavar="INTO", help="the entry it is the same as")
    merge.set_defaults(func="app.cli.entries:cmd_merge")

    snooze = sub.add_parser("snooze", parents=[common, as_json, reason], help="hide entries until a time")
    snooze.add_argument("ids", nargs="+", metavar="SHORT_ID")
    snooze.add_argument(
        "--until", default="tomorrow", metavar="WHEN", help="e.g. 'friday', 'in 2 hours' (default: tomorrow)"
    )
    snooze.set_defaults(func="app.cli.entries:cmd_snooze")

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
    edit.set_defaults(func="app.cli.entries:cmd_edit")

    items = sub.add_parser(
        "items", parents=[common, as_json, reason], help="add, remove, tick or untick items of an entry's checklist"
    )
    items.add_argument("ids", nargs=1, metavar="SHORT_ID", help="the list (see `murmur list`)")
    items.add_argument("change", choices=ITEM_CHANGES, help="what to do to the items (each is undoable)")
    items.add_argument(
        "texts", nargs="+", metavar="TEXT", help="one item each (quote one of several words); tick and untick take one"
    )
    items.set_defaults(func="app.cli.entries:cmd_items")

    undo = sub.add_parser(
        "undo", parents=[common, as_json], help="revert the latest batch, an older one, or one action"
    )
    which = undo.add_mutually_exclusive_group()
    which.add_argument(
        "--batch", type=ROW_ID, metavar="N", help="revert what is left of batch N (see `murmur history`)"
    )
    which.add_argument("--action", type=ROW_ID, metavar="N", help="revert only action N (see `murmur history`)")
    undo.set_defaults(func="app.cli.entries:cmd_undo")

    hist = sub.add_parser("history", parents=[common, as_json], help="past batches and their actions")
    hist.add_argument("--limit", type=LIMIT, default=20)
    hist.set_defaults(func="app.cli.entries:cmd_history", reads_only=True)

    inbox = sub.add_parser("inbox", parents=[common, as_json], help="what you said that could not be applied")
    inbox.set_defaults(func="app.cli.entries:cmd_inbox", reads_only=True)

    retry = sub.add_parser("retry", parents=[common, as_json, llm], help="run an inbox utterance again")
    retry.add_argument("utterance_id", type=ROW_ID, metavar="ID")
    retry.add_argument("--confirm", action="store_true", help="apply even more changes than llm.max_mutations")
    retry.add_argument("--new", action="store_true", help=argparse.SUPPRESS)
    words = retry.add_mutually_exclusive_group()
    words.add_argument(
        "--text", metavar="WORDS", help="run these words instead, e.g. what was misheard put right ('-' reads stdin)"
    )
    words.add_argument(
        "--rehear", action="store_true", help="hear its recording again with the best engine installed, run that"
    )
    words.add_argument(
        "--choice", type=int, metavar="K", help="apply reading K of those offered back when Murmur was unsure"
    )
    retry.add_argument(
        "--engine",
        choices=REHEAR_ENGINES,
        help="with --rehear: the engine that hears it (default: Whisper if installed)",
    )
    retry.set_defaults(func="app.cli.entries:cmd_retry")

    dismiss = sub.add_parser(
        "dismiss", parents=[common, as_json], help="take an utterance out of the inbox (kept; undo brings it back)"
    )
    dismiss.add_argument("utterance_id", type=ROW_ID, metavar="ID", help="its number, from `murmur inbox`")
    dismiss.set_defaults(func="app.cli.entries:cmd_dismiss")
