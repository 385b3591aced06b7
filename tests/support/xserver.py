"""A private X server for the desktop tests: Xvfb (it picks a free display number itself) with a
system tray (trayer), xdotool to drive it, and the helpers to wait on and end outside processes."""

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

POLL_SECONDS = 0.2


def wait_for(what: str, condition: Callable[[], bool], timeout: float) -> None:
    """Poll `condition` until it holds; fail with `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(POLL_SECONDS)  # polling an outside process: there is no signal to wait on


def end(process: "subprocess.Popen[bytes]") -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@pytest.fixture
def display(tmp_path: Path) -> Iterator[str]:
    """A private X server (Xvfb picks a free display number itself) with a system tray."""
    for program in ("Xvfb", "trayer", "xdotool", "import"):
        if shutil.which(program) is None:
            pytest.fail(f"{program} is not installed (Debian: xvfb, trayer, xdotool, imagemagick)")
    read_end, write_end = os.pipe()
    with (tmp_path / "xvfb.log").open("wb") as log:
        xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
            pass_fds=[write_end],
            stderr=log,
        )
    os.close(write_end)
    started: list[subprocess.Popen[bytes]] = [xvfb]
    try:
        with os.fdopen(read_end) as announced:
            number = announced.readline().strip()
        assert number, "Xvfb did not start"
        name = f":{number}"
        env = {**os.environ, "DISPLAY": name}
        with (tmp_path / "trayer.log").open("wb") as log:
            trayer = ["trayer", "--edge", "top", "--align", "right"]
            started.append(subprocess.Popen(trayer, env=env, stdout=log, stderr=log))
        wait_for("the tray", lambda: xdotool(name, "search", "--class", "trayer").returncode == 0, 20)
        yield name
    finally:
        for process in reversed(started):
            end(process)


def xdotool(display: str, *args: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": display}, capture_output=True, text=True)
