"""docs/commands.md is what app.cli.reference writes from the parser now, and that page names every command."""

import argparse
from pathlib import Path

from app.cli.args import build_parser
from app.cli.reference import commands, reference

DOCS = Path(__file__).resolve().parents[2] / "docs" / "commands.md"


def test_docs_commands_md_is_what_the_parser_says_now() -> None:
    # Regenerate with: python -m app.cli.reference > docs/commands.md
    assert DOCS.read_text(encoding="utf-8") == reference(build_parser())


def test_every_command_and_action_has_its_section() -> None:
    page = reference(build_parser())
    names = [command.name for command in commands(build_parser())]
    assert {"murmur add", "murmur models download", "murmur sync setup", "murmur toggle"} <= set(names)
    for name in names:
        assert f"\n## {name}\n" in page, name


def test_a_section_shows_arguments_defaults_and_choices_but_not_hidden_ones() -> None:
    parser = argparse.ArgumentParser(prog="murmur")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser("demo", help="a demo | with a bar")
    demo.add_argument("words", nargs="+", metavar="WORD", help="what to say")
    demo.add_argument("--limit", type=int, default=20)
    demo.add_argument("--kind", choices=["a", "b"], help="which one")
    demo.add_argument("--quiet", action="store_true", help="say less")
    demo.add_argument("--secret", help=argparse.SUPPRESS)
    page = reference(parser)
    assert "- [`murmur demo`](#murmur-demo): a demo | with a bar" in page
    assert "murmur demo [options] WORD [WORD ...]\n" in page
    assert "| `--limit LIMIT` | default: 20 |" in page
    assert "| `--kind {a,b}` | which one |" in page
    assert "| `--quiet` | say less |" in page
    assert "| `WORD [WORD ...]` | what to say |" in page
    assert "--secret" not in page and "--help" not in page.split("## Commands")[1]
