"""What an undo did, in one line: 'Undone: 2 reverted, 1 left as it is (the entry was changed again since; ...)'."""

from app.changes.undo import UndoResult


def undo_text(result: UndoResult) -> str:
    text = f"Undone: {len(result.reverted)} reverted"
    if conflicts := result.conflicts:
        text += f", {len(conflicts)} left as it is ({conflicts[0].conflict})"
    return text
