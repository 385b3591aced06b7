"""The user's words: terms and replacements, and the hints speech engines are biased toward."""

from collections.abc import Sequence
from pathlib import Path

from app.domain.hints import Hints
from app.errors import UsageError
from app.private_files import output_target, write_private_text
from app.service.core import ServiceCore
from app.store.queries import recent_summaries
from app.vocabulary.changes import VocabularyChanges, as_word, keep_words, kept_words, remove_word
from app.vocabulary.text_file import read_words, words_text
from app.vocabulary.words import Word


class VocabularyArea(ServiceCore):
    """The vocabulary kept in the database, each change undoable."""

    def vocabulary(self, limit: int = 60) -> Hints:
        """What the user is likely to say: the terms of their vocabulary (replacements' too), then the summaries
        of their open entries, most recent first.

        Speech engines bias their final text toward them (Whisper's prompt, the bundled engine's domain model).
        """
        with self.store.read() as session:
            terms = tuple(dict.fromkeys(row.term for row in kept_words(session)))
            return Hints(terms, tuple(recent_summaries(session, limit)))

    def words(self) -> list[Word]:
        """The user's vocabulary: terms and replacements, in the order they were given."""
        with self.store.read() as session:
            return [as_word(row) for row in kept_words(session)]

    def keep_words(self, words: Sequence[Word]) -> VocabularyChanges:
        """Add terms or replacements (one already kept is written the new way); one undo takes them back."""
        with self.store.write() as session:
            return keep_words(session, words, self.clock().now)

    def remove_word(self, text: str) -> VocabularyChanges:
        """Take a term, or the replacement of the heard words `text`, out of the vocabulary; undoable."""
        with self.store.write() as session:
            return remove_word(session, text, self.clock().now)

    def import_words(self, path: Path) -> VocabularyChanges:
        """Keep the words of a vocabulary text file (see app/vocabulary/text_file.py); nothing if one line is bad."""
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"cannot read {path}: {error}") from None
        return self.keep_words(read_words(text))

    def words_text(self) -> str:
        """The vocabulary as its text file."""
        return words_text(self.words())

    def export_words(self, path: Path, force: bool = False) -> None:
        """The vocabulary's text file written to `path` whole or not at all, owner-only; a file there is replaced
        only with `force`."""
        target = output_target(path, force)
        try:
            write_private_text(target, self.words_text())
        except OSError as error:
            raise UsageError(f"cannot write {path}: {error.strerror}") from None
