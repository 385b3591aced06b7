"""The errors Murmur expects, each with a message fit to show the user in one line.

Anything that is not a MurmurError is a bug and is reported as such.
"""


class MurmurError(Exception):
    """A known failure caused by input or environment, not by a bug."""


class UsageError(MurmurError):
    """The user asked for something malformed (empty text, bad option value)."""


class StoreError(MurmurError):
    """The database cannot be opened or written (locked, read-only, not a database)."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer Murmur than this one."""


class EntryNotFoundError(MurmurError):
    """A short ID matches no entry."""


class AmbiguousIdError(MurmurError):
    """A short ID matches more than one entry."""


class InvalidActionError(MurmurError):
    """An action's fields do not validate (unknown status, missing id, bad type)."""


class UndoError(MurmurError):
    """Nothing to undo, or the named undo record does not exist."""
