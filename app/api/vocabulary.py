"""The user's words: terms and replacements, and what a change to them did."""

from app.vocabulary.changes import VocabularyChanges
from app.vocabulary.words import Word, replacement, term

__all__ = ["VocabularyChanges", "Word", "replacement", "term"]
