"""A failed sync's remedy kept beside its message in the sync state, as JSON, so a later `murmur sync status`
or the window says what to do as the sync that failed knew it."""

import json
from typing import Any

from app.errors import Command, Remedy, Setting, Words


def _plain(remedy: Setting | Words) -> dict[str, str]:
    return {"setting": remedy.key} if isinstance(remedy, Setting) else {"words": remedy.text}


def remedy_json(remedy: Remedy | None) -> str | None:
    """`remedy` as one line of JSON; None for none."""
    if remedy is None:
        return None
    if isinstance(remedy, Command):
        kept: dict[str, Any] = {
            "commands": [list(argv) for argv in remedy.commands],
            "instead": _plain(remedy.instead),
            "phrase": remedy.phrase,
            "joint": remedy.joint,
        }
        return json.dumps(kept)
    return json.dumps(_plain(remedy))


def _read_plain(kept: dict[str, Any]) -> Setting | Words:
    return Setting(str(kept["setting"])) if "setting" in kept else Words(str(kept["words"]))


def remedy_from_json(text: str | None) -> Remedy | None:
    """The remedy `remedy_json` kept; None for none, or for one this version cannot read."""
    if not text:
        return None
    try:
        kept = json.loads(text)
        if "commands" not in kept:
            return _read_plain(kept)
        commands = tuple(tuple(str(word) for word in argv) for argv in kept["commands"])
        return Command(commands, _read_plain(kept["instead"]), str(kept["phrase"]), str(kept["joint"]))
    except (ValueError, KeyError, TypeError):  # written by another version: the message stands alone
        return None
