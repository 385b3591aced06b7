"""The errors Murmur expects, each with a message fit to show the user in one line.

Anything that is not a MurmurError is a bug and is reported as such.
"""


class MurmurError(Exception):
    """A known failure caused by input or environment, not by a bug."""

    # Set when the failure ended a run of a saved utterance: the one to retry (it waits in the inbox).
    utterance_id: int | None = None


class UsageError(MurmurError):
    """The user asked for something malformed (empty text, bad option value)."""


class OutputPathError(UsageError):
    """A file the user named cannot be written there: not a regular file, already there without --force, or
    in a folder that does not exist."""


class StoreError(MurmurError):
    """The database cannot be opened or written (locked, read-only, not a database)."""


class DatabaseBusyError(StoreError):
    """Another program held the database's write lock for longer than Murmur waits."""


class UtteranceKeptError(DatabaseBusyError):
    """The database stayed busy: what was said is kept in the spool and filed in the inbox at the next chance."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer Murmur than this one."""


class RunInProgressError(MurmurError):
    """Another live process (or thread) is running this utterance; running it again would apply it twice."""


class EntryNotFoundError(MurmurError):
    """A short ID matches no entry."""


class AmbiguousIdError(MurmurError):
    """A short ID matches more than one entry (or memory)."""


class MemoryNotFoundError(MurmurError):
    """A short ID matches none of the user's memories (forgotten ones included: they are gone)."""


class InvalidActionError(MurmurError):
    """An action's fields do not validate (unknown status, missing id, bad type)."""


class UndoError(MurmurError):
    """Nothing to undo, or the named undo record does not exist."""


class SpeechError(MurmurError):
    """Speech input failed: no microphone, PortAudio missing, a busy device, no usable model."""


class AudioDeviceError(SpeechError):
    """The microphone cannot be opened or stopped delivering audio (missing, busy, unplugged)."""


class AudioFileError(SpeechError):
    """A file given to transcribe is not audio Murmur can read."""


class ModelError(SpeechError):
    """A speech model is missing, broken, or cannot be downloaded."""


class VoiceError(MurmurError):
    """A reply cannot be spoken: no voice, a damaged voice file, no speaker; the reply is still shown as text."""


class SecretStoreError(MurmurError):
    """The API key cannot be saved or read (no keyring backend, keyring locked)."""


class ConfirmationNeeded(MurmurError):
    """More changes from one utterance than the user lets through unasked: nothing is applied until they confirm."""


class LlmError(MurmurError):
    """The model server could not be used: unreachable, refused the key, unknown model, cut the answer."""


class ModelFault(LlmError):
    """The server answered, but the model's work cannot be used: not done in time, nothing done though something
    was asked, words that are neither a question nor a true answer. Failures in a row set the model aside."""


class ModelSetAside(LlmError):
    """The model failed too often, or its test showed it cannot call tools: the rules stand in until it is tested."""


class BudgetExceededError(LlmError):
    """The monthly budget is spent; no request is sent."""
