"""A pid no process has: that of one that ran and ended."""

import subprocess
import sys


def dead_pid() -> int:
    finished = subprocess.Popen([sys.executable, "-c", "pass"])
    finished.wait()
    return finished.pid
