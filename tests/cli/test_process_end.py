"""A `murmur` process whose speech engine still works when the command is done (a final pass cut at its deadline, a
model still loading) ends with the command's status and output, without the interpreter's teardown: under
CTranslate2's threads that teardown aborts the process ("terminate called without an active exception")."""

import subprocess
import sys

import pytest

# A stand-in for an engine's native work: it cannot run CTranslate2 to the abort on demand (that takes the exit to
# fall inside the library's own threads' teardown, about one run in five), so what is checked is the teardown itself.
PROCESS = """
import atexit, sys, threading, time
from app.speech_in import engine_threads
atexit.register(lambda: print("teardown ran", flush=True))
if sys.argv[1] == "working":
    engine_threads.start(lambda: time.sleep(30), "murmur-final-pass")
print("heard: buy milk")  # the command's answer, not yet flushed
from app.cli.process_end import end_process
end_process(7)
"""


@pytest.mark.parametrize(("engine", "teardown"), [("working", False), ("done", True)])
def test_the_process_ends_with_its_status_and_output_and_skips_teardown_only_under_a_working_engine(
    engine: str, teardown: bool
) -> None:
    ended = subprocess.run([sys.executable, "-c", PROCESS, engine], capture_output=True, text=True, timeout=20)
    assert ended.returncode == 7, ended.stderr
    assert ended.stdout.startswith("heard: buy milk\n")
    assert ("teardown ran" in ended.stdout) is teardown, ended.stdout
