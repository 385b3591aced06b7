"""The errors Murmur expects, each with a code, a message fit to show the user in one line, and what to do.

The message reads right on its own, in any front end. What to do is a `Remedy`, said by each front end in its
own terms: the command line names a `murmur` command, the window its own control or settings page.
Anything that is not a MurmurError is a bug and is reported as such.
"""

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar


class ErrorCode(StrEnum):
    """Why something failed, for a front end that reacts to the kind of failure rather than to its words."""

    USAGE = "usage"  # the input or the request cannot be carried out as asked
    STORE = "store"  # the database cannot be used
    LLM = "llm"  # the model server cannot be used (unreachable, refused the key, no key)
    BUDGET = "budget"  # the monthly budget is spent
    SPEECH = "speech"  # speech input failed
    INTERNAL = "internal"  # a bug


@dataclass(frozen=True)
class Setting:
    """Change a setting, named by its key in the settings file (`llm.model`); a window opens its field."""

    key: str


@dataclass(frozen=True)
class Words:
    """What to do, in plain words that read right in every front end."""

    text: str


Argv = tuple[str, ...]  # a `murmur` command's words after `murmur`: ("retry", "12", "--confirm")


@dataclass(frozen=True)
class Command:
    """`murmur` commands that do it, with what they do for a front end that has no command line."""

    commands: tuple[Argv, ...]
    instead: Setting | Words  # the same remedy without a command line
    phrase: str = "{}"  # the command line's words, one {} per command in order: "confirm with {}"
    joint: str = "; "  # between the message and the phrase, where the message comes first


Remedy = Command | Setting | Words


def command(*argv: str, instead: Setting | Words, phrase: str = "{}", joint: str = "; ") -> Command:
    """A remedy that is one `murmur` command."""
    return Command((argv,), instead, phrase, joint)


def typed(remedy: Command) -> str:
    """`remedy`'s commands as the user types them, each quoted as a shell reads it (a file's name may hold a
    space), in its phrase: "confirm with `murmur retry 12 --confirm`"."""
    return remedy.phrase.format(*(f"`{shlex.join(('murmur', *argv))}`" for argv in remedy.commands))


class MurmurError(Exception):
    """A known failure caused by input or environment, not by a bug."""

    code: ClassVar[ErrorCode] = ErrorCode.USAGE
    # Set when the failure ended a run of a saved utterance: the one to retry (it waits in the inbox).
    utterance_id: int | None = None

    def __init__(self, message: str, remedy: Remedy | None = None) -> None:
        super().__init__(message)
        self.remedy = remedy


def with_remedy(message: str, remedy: Remedy | None, said: Callable[[Remedy], str]) -> str:
    """`message`, then `remedy` as a front end words it (`said`)."""
    if remedy is None:
        return message
    joint = remedy.joint if isinstance(remedy, Command) else "; "
    return f"{message}{joint}{said(remedy)}"


def error_code(error: BaseException) -> ErrorCode:
    """The code of `error`: its MurmurError class's; anything else is a bug."""
    return error.code if isinstance(error, MurmurError) else ErrorCode.INTERNAL


class UsageError(MurmurError):
    """The user asked for something malformed (empty text, bad option value)."""


class OutputPathError(UsageError):
    """A file the user named cannot be written there: not a regular file, already there without --force, or
    in a folder that does not exist."""


class StoreError(MurmurError):
    """The database cannot be opened or written (locked, read-only, not a database)."""

    code = ErrorCode.STORE


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

    code = ErrorCode.SPEECH


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

    code = ErrorCode.LLM  # the model server's key cannot be read


class ConfirmationNeeded(MurmurError):
    """More changes from one utterance than the user lets through unasked: nothing is applied until they confirm."""


def waits_for_yes(utterance_id: int, why: str) -> ConfirmationNeeded:
    """The changes of utterance `utterance_id` wait for the user's yes, for the reason `why`."""
    return ConfirmationNeeded(f"{why}; nothing was changed", yes_to(utterance_id))


def yes_to(utterance_id: int) -> Command:
    """How the user says yes to utterance `utterance_id`, which waits for it."""
    return command(
        "retry",
        str(utterance_id),
        "--confirm",
        instead=Words("confirm it, and it runs again with the changes let through"),
        phrase="confirm with {}",
        joint=": ",
    )


class ImportWaitsForYes(ConfirmationNeeded):
    """A file would add more entries at once than Murmur adds unasked: nothing is imported until the user says yes
    (the window asks; the command line takes --confirm)."""

    def __init__(self, message: str, remedy: Remedy, added: int) -> None:
        super().__init__(message, remedy)
        self.added = added  # the entries it would add, for the window's question


class LlmError(MurmurError):
    """The model server could not be used: unreachable, refused the key, unknown model, cut the answer."""

    code = ErrorCode.LLM


class ModelFault(LlmError):
    """The server answered, but the model's work cannot be used: not done in time, nothing done though something
    was asked, words that are neither a question nor a true answer. Failures in a row set the model aside."""


class ModelSetAside(LlmError):
    """The model failed too often, or its test showed it cannot call tools: the rules stand in until it is tested."""


class BudgetExceededError(LlmError):
    """The monthly budget is spent; no request is sent."""

    code = ErrorCode.BUDGET


class NoRecordingError(UsageError):
    """The utterance has no recording: it was typed, or said while recordings.keep was off."""


class RecordingGoneError(UsageError):
    """The utterance's recording was removed: by retention (recordings.max_days, recordings.max_mb) or forgotten."""
