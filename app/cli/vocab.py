"""The vocab commands: the user's words (vocab list, add, remove, replace, import, export)."""

import argparse
import sys
from pathlib import Path

from app.api.service import MurmurService, build_service
from app.api.vocabulary import VocabularyChanges, replacement, term
from app.cli.exits import ExitCode
from app.cli.output import print_json, say
from app.presentation.vocabulary import change_lines


def _service(args: argparse.Namespace) -> MurmurService:
    """The vocabulary is read and changed by hand: no interpreter is used, so none is looked up."""
    return build_service(args.db, offline=True)


def _report(done: VocabularyChanges) -> int:
    for line in change_lines(done):
        say(line)
    if done.changes:
        say("(undo: murmur undo)")
    return ExitCode.OK


def cmd_vocab_list(args: argparse.Namespace) -> int:
    words = _service(args).words()
    if args.json:
        print_json([{"term": word.term, "heard": word.heard} for word in words])
    elif not words:
        say("No words yet: murmur vocab add NAME, or murmur vocab replace 'jay son' JSON")
    else:
        for word in words:
            say(word.text)
    return ExitCode.OK


def cmd_vocab_add(args: argparse.Namespace) -> int:
    return _report(_service(args).keep_words([term(text) for text in args.terms]))


def cmd_vocab_replace(args: argparse.Namespace) -> int:
    return _report(_service(args).keep_words([replacement(args.heard, args.term)]))


def cmd_vocab_remove(args: argparse.Namespace) -> int:
    return _report(_service(args).remove_word(args.term))


def cmd_vocab_import(args: argparse.Namespace) -> int:
    return _report(_service(args).import_words(Path(args.file).expanduser()))


def cmd_vocab_export(args: argparse.Namespace) -> int:
    service = _service(args)
    if args.file is None:
        sys.stdout.write(service.words_text())
        return ExitCode.OK
    output = Path(args.file).expanduser()
    service.export_words(output, args.force)
    say(f"Exported to {output}")
    return ExitCode.OK
