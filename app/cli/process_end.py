"""The end of a `murmur` process. A speech engine's thread may still be in its native code when a command is done
(a final pass cut at its deadline, a model still loading): the interpreter's teardown under it aborts the process
("terminate called without an active exception", status -6) after the command's answer was printed. Such a process
ends without that teardown, its status and its output kept."""

import logging
import os
import sys
from typing import NoReturn


def end_process(status: int) -> NoReturn:
    """Exit with `status`; without the interpreter's teardown while a speech engine's thread still works."""
    # Only a command that used a speech engine has imported the module that counts their threads.
    if "app.speech_in.engine_threads" in sys.modules:
        from app.api.listening import engine_threads

        if engine_threads.running():
            logging.getLogger("murmur.cli").info("a speech engine is still working; the process ends without it")
            logging.shutdown()
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):  # a closed pipe: nothing more can reach it
                    pass
            os._exit(status)
    raise SystemExit(status)
