"""Whether a process of this machine still runs, by its pid."""

import os


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process is there
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True
