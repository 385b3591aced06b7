"""The exit status of every `murmur` command."""

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    NOTHING_APPLIED = 1  # also a store or environment error: what was asked for did not happen
    USAGE = 2
    INTERRUPTED = 130  # Ctrl-C, the status shells give a process ended by SIGINT
    BROKEN_PIPE = 141  # the reader of the output went away (`| head`): what shells give a death by SIGPIPE
