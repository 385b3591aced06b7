"""Start a built bundle as a user would, on Xvfb with a system tray (trayer), in a fresh home, and check it:
the tray icon shows, `murmur toggle` reaches the running app over its socket, and an entry said by `murmur add`
is kept. Prints each step with its time; exits 1 at the first that fails.

    .venv/bin/python packaging/appimage/try_bundle.py build/appimage/Murmur.AppDir/AppRun [SCREENSHOT.png]
"""

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def wait_for(what: str, condition: Callable[[], bool], timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.2)
    sys.exit(f"FAILED: {what} within {timeout:.0f} s")


def _tray_icon(tree: str) -> bool:
    """A window of Murmur's nested in trayer's (xwininfo indents children under their parent)."""
    lines = tree.splitlines()
    for number, line in enumerate(lines):
        if "trayer" in line.lower():
            depth = len(line) - len(line.lstrip())
            for child in lines[number + 1 :]:
                if len(child) - len(child.lstrip()) <= depth:
                    break
                if "murmur" in child.lower():
                    return True
    return False


def main() -> None:
    bundle = Path(sys.argv[1]).resolve()
    home = Path(tempfile.mkdtemp(prefix="murmur-bundle-"))
    read_end, write_end = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp"], pass_fds=[write_end])
    os.close(write_end)
    with os.fdopen(read_end) as announced:
        display = f":{announced.readline().strip()}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MURMUR_", "QT_", "XDG_", "PYTHON"))}
    env |= {"DISPLAY": display, "HOME": str(home), "XDG_SESSION_TYPE": "x11"}
    started = time.monotonic()
    processes = [xvfb, subprocess.Popen(["trayer", "--edge", "top"], env=env, stderr=subprocess.DEVNULL)]
    try:

        def murmur(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([str(bundle), *args], env=env, capture_output=True, text=True, timeout=60)

        def windows() -> str:
            return subprocess.run(["xwininfo", "-root", "-tree"], env=env, capture_output=True, text=True).stdout

        wait_for("the tray", lambda: "trayer" in windows().lower() or "panel" in windows().lower(), 20)
        processes.append(subprocess.Popen([str(bundle)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
        wait_for("the app to answer `murmur show` over its socket", lambda: murmur("show").returncode == 0, 60)
        print(f"started, answering on its socket: {time.monotonic() - started:.1f} s")
        wait_for("the tray icon", lambda: _tray_icon(windows()), 20)
        print("tray icon shown")
        toggled = murmur("toggle")
        if toggled.returncode != 0 and "microphone" not in toggled.stderr:
            sys.exit(f"FAILED: murmur toggle: {toggled.stderr.strip()}")
        print(f"murmur toggle reached the app (exit {toggled.returncode}) {toggled.stderr.strip()}")
        murmur("cancel")
        added = murmur("add", "remind me to call the dentist Thursday at 3pm")
        listed = murmur("list").stdout
        if added.returncode != 0 or "Call the dentist" not in listed:
            sys.exit(f"FAILED: the entry was not kept: {added.stderr.strip()}")
        print(f"entry added and listed: {listed.strip()}")
        if len(sys.argv) > 2:
            time.sleep(1)  # the window follows the database within a second
            subprocess.run(["import", "-window", "root", sys.argv[2]], env=env, check=True)
            print(f"screenshot: {sys.argv[2]}")
    finally:
        for process in reversed(processes):
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    main()
