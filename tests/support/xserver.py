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
ATTEMPTS = 3
TRAY_SECONDS = 20


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
    for attempt in range(ATTEMPTS):
        started = _x_server_with_tray(tmp_path / f"x{attempt}")
        try:
            if started is not None:
                yield started[0]
                return
        finally:
            for process in reversed(started[1] if started else []):
                end(process)
    pytest.fail(f"no X server with a tray came up in {ATTEMPTS} tries (see xvfb.log and trayer.log in {tmp_path})")


def _x_server_with_tray(folder: Path) -> tuple[str, list["subprocess.Popen[bytes]"]] | None:
    """Xvfb and trayer on it, and the display's name; None (both ended) when the tray did not show in time: now and
    then two servers started at once by two test workers race for one display number, and the tray finds none."""
    folder.mkdir()
    read_end, write_end = os.pipe()
    with (folder / "xvfb.log").open("wb") as log:
        xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
            pass_fds=[write_end],
            stderr=log,
        )
    os.close(write_end)
    started: list[subprocess.Popen[bytes]] = [xvfb]
    with os.fdopen(read_end) as announced:
        number = announced.readline().strip()
    name = f":{number}"
    env = {**os.environ, "DISPLAY": name}
    with (folder / "trayer.log").open("wb") as log:
        trayer = ["trayer", "--edge", "top", "--align", "right"]
        started.append(subprocess.Popen(trayer, env=env, stdout=log, stderr=log))
    if number and _tray_shows(name, started[-1]):
        return name, started
    for process in reversed(started):
        end(process)
    return None


def _tray_shows(name: str, trayer: "subprocess.Popen[bytes]") -> bool:
    deadline = time.monotonic() + TRAY_SECONDS
    while trayer.poll() is None and time.monotonic() < deadline:
        if xdotool(name, "search", "--class", "trayer").returncode == 0:
            return True
        time.sleep(POLL_SECONDS)  # polling an outside process: there is no signal to wait on
    return False


def xdotool(display: str, *args: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": display}, capture_output=True, text=True)
