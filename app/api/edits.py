"""What edits and undo hand back, and the caps on the changes another program asks for."""

from app.changes.executor import AppliedAction, ExecutionResult
from app.changes.held import Caps
from app.changes.undo import HistoryBatch, UndoRecord, UndoResult

__all__ = ["AppliedAction", "Caps", "ExecutionResult", "HistoryBatch", "UndoRecord", "UndoResult"]
