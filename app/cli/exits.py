"""The exit status of every `murmur` command: one per kind of failure, so a script can tell them apart."""

from enum import IntEnum

from app.errors import (
    AmbiguousIdError,
    ConfirmationNeeded,
    EntryNotFoundError,
    LlmError,
    MemoryNotFoundError,
    MurmurError,
    NoRecordingError,
    RecordingGoneError,
    SecretStoreError,
    SpeechError,
    StoreError,
    UsageError,
)


class ExitCode(IntEnum):
    """What each means is in MEANINGS."""

    OK = 0
    NOTHING_APPLIED = 1
    USAGE = 2
    NOT_FOUND = 3
    STORE = 4
    MODEL = 5
    SPEECH = 6
    WAITS_FOR_YES = 7
    INTERNAL = 70
    INTERRUPTED = 130
    BROKEN_PIPE = 141


# What each status means, as the command reference says it.
MEANINGS = {
    ExitCode.OK: "done",
    ExitCode.NOTHING_APPLIED: "the command ran and changed or found nothing (nothing matched, nothing to undo)",
    ExitCode.USAGE: "what was asked cannot be done as asked (a bad option, an empty text, an ambiguous ID)",
    ExitCode.NOT_FOUND: "no such entry, memory or recording",
    ExitCode.STORE: "the database or the keyring cannot be used (held by another program, read-only, too new)",
    ExitCode.MODEL: "the model server cannot be used (unreachable, refused the key, set aside, the budget spent)",
    ExitCode.SPEECH: "no microphone, no speech model, or an audio file that cannot be read",
    ExitCode.WAITS_FOR_YES: (
        "more changes at once than are let through unasked, or words heard only faintly: nothing done until confirmed"
    ),
    ExitCode.INTERNAL: "a bug; the log has the details",
    ExitCode.INTERRUPTED: "stopped with Ctrl-C",
    ExitCode.BROKEN_PIPE: "the reader of the output went away (a pipe into `head`)",
}

_BY_KIND: tuple[tuple[type[MurmurError] | tuple[type[MurmurError], ...], ExitCode], ...] = (
    (ConfirmationNeeded, ExitCode.WAITS_FOR_YES),
    ((EntryNotFoundError, MemoryNotFoundError, NoRecordingError, RecordingGoneError), ExitCode.NOT_FOUND),
    ((UsageError, AmbiguousIdError), ExitCode.USAGE),
    ((StoreError, SecretStoreError), ExitCode.STORE),
    (LlmError, ExitCode.MODEL),
    (SpeechError, ExitCode.SPEECH),
)


def exit_code_of(error: MurmurError) -> ExitCode:
    """The status a command that failed with `error` exits with."""
    for kinds, code in _BY_KIND:
        if isinstance(error, kinds):
            return code
    return ExitCode.NOTHING_APPLIED
