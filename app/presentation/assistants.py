"""What Murmur says to another assistant over MCP: its results, its refusals, and what the user can do about them
(the assistant relays it, so a remedy names both the window and the command)."""

from collections.abc import Sequence

from app.errors import Command, Remedy, Setting, Words, typed

READ_ONLY = "Murmur lets assistants read the list only (mcp.read_only is on); nothing was changed"
# The settings file cannot be read (or says something unusable in [mcp]): assistants read only until it is fixed.
READ_ONLY_CLOSED = "Murmur lets assistants read the list only until its settings file is fixed; nothing was changed"
READ_ONLY_CLOSED_FIX = "the user fixes the line of Murmur's settings file named here"
READ_ONLY_OFF = "the user can turn mcp.read_only off in Murmur's settings file to let assistants change the list"


def asked_words(origin: str, verb: str, ids: Sequence[str]) -> str:
    """A request held for the user's yes, as its inbox item says it: 'Claude Desktop asked to archive 7 entries:
    3fa1b2, 4bc123, ...'."""
    return f"{origin} asked to {verb} {len(ids)} entries: {', '.join(ids)}"


def batch_words(summary: str, batch: int | None) -> str:
    """A change's result: '2 created (batch 14; the undo tool takes it back)'."""
    return f"{summary} (batch {batch}; the undo tool takes it back)" if batch is not None else summary


def assistant_remedy(remedy: Remedy) -> str:
    """What the user can do, for the assistant to tell them: in the window, or with the command."""
    match remedy:
        case Command(instead=instead):
            return f"{assistant_remedy(instead)} in Murmur's window, or {typed(remedy)}"
        case Setting(key=key):
            return f"the user can change {key} in Murmur's settings"
        case Words(text=text):
            return text


def unsure_words(utterance_id: int, choices: Sequence[str]) -> str:
    """The readings offered back, as an assistant relays them to its user."""
    listed = "; ".join(f"{number}. {label}" for number, label in enumerate(choices, start=1))
    return (
        f"Murmur was not sure what was meant and changed nothing; ask the user which they meant, then call "
        f"choose_reading with utterance {utterance_id} and its number: {listed}"
    )
