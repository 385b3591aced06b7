"""An entry or an utterance named in the window's words: “Buy milk”, cut short so a line stays a line."""

from app.terminal import terminal_safe

NAME_CHARS = 48


def quoted(name: str) -> str:
    """“Buy milk”, on one line, at most NAME_CHARS characters inside the quotes."""
    name = terminal_safe(name, multiline=False).strip()
    return f"“{name[: NAME_CHARS - 1]}…”" if len(name) > NAME_CHARS else f"“{name}”"
