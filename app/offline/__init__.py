"""The offline, rule-based interpreter: Murmur's embedded default when no LLM is configured."""

from app.offline.interpreter import OfflineInterpreter

__all__ = ["OfflineInterpreter"]
