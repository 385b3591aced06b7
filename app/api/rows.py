"""The rows as stored: entries, utterances, memories, sessions, undo items, the requests to the model."""

from app.store.models import Entry, LlmRequest, Memory, TalkSession, UndoItem, Utterance

__all__ = ["Entry", "LlmRequest", "Memory", "TalkSession", "UndoItem", "Utterance"]
