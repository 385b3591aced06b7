"""The command reference (docs/commands.md), written from murmur's own parser: `python -m app.cli.reference`."""

import argparse
from collections.abc import Iterator
from dataclasses import dataclass

from app.cli.args import build_parser
from app.cli.exits import MEANINGS

HEADER = """\
# Command reference

Every `murmur` command with its arguments, as the parser defines them. This page is generated:
`python -m app.cli.reference > docs/commands.md` writes it, and a test fails while it differs from
what the parser says. The [user guide](user-guide.md) shows the commands by task.

Every command also takes `-h`/`--help`. `murmur` with no command starts the desktop app;
`murmur --version` prints the version.
"""


@dataclass(frozen=True)
class Command:
    """One command or action: its words after `murmur`, its one-line help and its parser."""

    words: tuple[str, ...]
    help: str
    parser: argparse.ArgumentParser

    @property
    def name(self) -> str:
        return " ".join(("murmur", *self.words))


def commands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> Iterator[Command]:
    """Every command under `parser`, depth first, in the order they were registered."""
    for action in parser._actions:  # argparse lists subcommands nowhere public
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                command = Command((*words, name), helps.get(name, ""), sub)
                yield command
                yield from commands(sub, command.words)


def reference(parser: argparse.ArgumentParser) -> str:
    """The whole page: the index, then a section per command."""
    found = list(commands(parser))
    index = [f"- [`{c.name}`](#{_anchor(c.name)}): {c.help}" for c in found]
    sections = [_section(c) for c in found]
    statuses = ["## Exit status", "", "| status | meaning |", "|---|---|"]
    statuses += [f"| {int(code)} | {meaning} |" for code, meaning in MEANINGS.items()]
    return "\n".join([HEADER, "## Commands", "", *index, "", *sections, *statuses]).rstrip("\n") + "\n"


def _section(command: Command) -> str:
    lines = [f"## {command.name}", "", command.help, "", "```text", _usage(command), "```", ""]
    shown = [action for action in _arguments(command.parser) if not _is_subcommand(action)]
    if shown:
        lines += ["| argument | meaning |", "|---|---|"]
        lines += [f"| `{_signature(action)}` | {_meaning(action)} |" for action in shown]
    return "\n".join(lines).rstrip("\n") + "\n"


def _usage(command: Command) -> str:
    """The command's shape: its words, [options] when it has any, then its positionals or its actions."""
    parts = [command.name]
    arguments = list(_arguments(command.parser))
    if any(action.option_strings for action in arguments):
        parts.append("[options]")
    parts += [_signature(action) for action in arguments if not action.option_strings]
    return " ".join(parts)


def _arguments(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """The arguments a user may give: not -h (every command has it), not the ones hidden from help."""
    for action in parser._actions:
        if not isinstance(action, argparse._HelpAction) and action.help != argparse.SUPPRESS:
            yield action


def _is_subcommand(action: argparse.Action) -> bool:
    return isinstance(action, argparse._SubParsersAction)


def _signature(action: argparse.Action) -> str:
    if _is_subcommand(action):
        shape = (action.metavar if isinstance(action.metavar, str) else "ACTION") + " ..."
        return shape if action.required else f"[{shape}]"
    value = _value(action)
    if not action.option_strings:
        return value
    names = ", ".join(action.option_strings)
    return f"{names} {value}" if value else names


def _value(action: argparse.Action) -> str:
    """What follows the option (nothing for a flag), or the positional itself, as argparse's usage writes it."""
    if action.nargs == 0:
        return ""
    if isinstance(action.metavar, str):
        name = action.metavar
    elif action.choices is not None:
        name = "{" + ",".join(str(choice) for choice in action.choices) + "}"
    else:
        name = action.dest.upper() if action.option_strings else action.dest
    if action.nargs == "+":
        return f"{name} [{name} ...]"
    if action.nargs == "*":
        return f"[{name} ...]"
    if action.nargs == "?":
        return f"[{name}]"
    return name


def _meaning(action: argparse.Action) -> str:
    text = (action.help or "").replace("|", "\\|")
    default = action.default
    if action.nargs != 0 and default not in (None, argparse.SUPPRESS) and "default" not in text:
        text = f"{text} (default: {default})" if text else f"default: {default}"
    return text


def _anchor(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, spaces as hyphens."""
    return title.lower().replace(" ", "-")


def main() -> None:
    print(reference(build_parser()), end="")


if __name__ == "__main__":
    main()
