"""Whole-file advisory locks that go with a file descriptor (a process that dies frees them): flock on POSIX,
msvcrt on Windows."""

import sys


def lock(descriptor: int, *, wait: bool) -> None:
    """Hold the descriptor's file exclusively until it is closed; without `wait`, BlockingIOError when another
    holds it."""
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(descriptor, msvcrt.LK_LOCK if wait else msvcrt.LK_NBLCK, 1)  # byte 0 stands for the file
        except OSError as error:
            if wait:
                raise
            raise BlockingIOError(str(error)) from None
    else:
        import fcntl

        fcntl.flock(descriptor, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
