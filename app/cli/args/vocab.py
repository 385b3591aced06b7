"""The arguments of the vocab commands; what they run is imported from app.cli.vocab when one does."""

import argparse
from typing import Any


def add_commands(
    sub: "argparse._SubParsersAction[Any]",
    common: argparse.ArgumentParser,
    as_json: argparse.ArgumentParser,
) -> None:
    """Register `vocab` and its actions (`common`: --db; `as_json`: --json)."""
    vocab = sub.add_parser(
        "vocab", parents=[common], help="your words: names and terms speech should expect, and replacements"
    )
    actions = vocab.add_subparsers(dest="vocab_command", metavar="ACTION", required=True)

    lst = actions.add_parser("list", parents=[common, as_json], help="the terms and replacements, as given")
    lst.set_defaults(func="app.cli.vocab:cmd_vocab_list", reads_only=True)

    add = actions.add_parser("add", parents=[common], help="terms speech should expect, e.g. Siobhan Kubernetes")
    add.add_argument("terms", metavar="TERM", nargs="+", help="a name or a term (quote one of several words)")
    add.set_defaults(func="app.cli.vocab:cmd_vocab_add")

    remove = actions.add_parser("remove", parents=[common], help="take a term or a replacement out (undo: back)")
    remove.add_argument("term", metavar="TERM", help="the term, or a replacement's heard words or term")
    remove.set_defaults(func="app.cli.vocab:cmd_vocab_remove")

    replace = actions.add_parser("replace", parents=[common], help="write B wherever dictation heard A")
    replace.add_argument("heard", metavar="A", help="the words as heard, e.g. 'jay son'")
    replace.add_argument("term", metavar="B", help="what to write instead, e.g. JSON")
    replace.set_defaults(func="app.cli.vocab:cmd_vocab_replace")

    imported = actions.add_parser("import", parents=[common], help="add the words of a text file")
    imported.add_argument("file", metavar="FILE", help="one term per line, 'A -> B' for a replacement, # comments")
    imported.set_defaults(func="app.cli.vocab:cmd_vocab_import")

    export = actions.add_parser("export", parents=[common], help="write the words as a text file `import` reads")
    export.add_argument("file", metavar="FILE", nargs="?", help="write to FILE (owner-only) instead of standard output")
    export.add_argument("--force", action="store_true", help="replace FILE if it exists")
    export.set_defaults(func="app.cli.vocab:cmd_vocab_export", reads_only=True)
