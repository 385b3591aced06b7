"""A real Radicale CalDAV server on 127.0.0.1, one per test: its own config file, htpasswd and storage in a temp
dir, so nothing is read from /etc/radicale or ~/.config/radicale and nothing is written outside the test."""

import http.client
import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from types import TracebackType
from typing import IO, Self

USERNAME = "alice"
PASSWORD = "s3cret-pass"
START_TIMEOUT = 10.0  # seconds for the port to answer


def free_port() -> int:
    """A port nobody listens on now (the OS's pick for port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class RadicaleServer:
    """`python -m radicale` as a subprocess. restart() keeps the port and the storage, as a server rebooted."""

    def __init__(self, directory: Path, username: str = USERNAME, password: str = PASSWORD) -> None:
        self.directory = directory
        self.storage = directory / "collections"
        self.config_path = directory / "radicale.conf"
        self.log_path = directory / "radicale.log"  # its stderr: a file, never a pipe that could fill and block it
        self._username = username
        self._password = password
        self.port = free_port()
        # The realm its 401s name: how start() knows the port answers with this server, not another that took it.
        self.realm = f"Murmur tests {uuid.uuid4()}"
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        directory.mkdir(parents=True, exist_ok=True)
        self.storage.mkdir(exist_ok=True)
        (directory / "users").write_text(f"{username}:{password}\n", encoding="utf-8")
        self._write_config()

    def _write_config(self) -> None:
        # plain: bcrypt is not installed, and "autodetect" warns about it at every start.
        # delay = 0: Radicale otherwise sleeps 1 s on every 401, including the client's first, credential-less try.
        self.config_path.write_text(
            f"""\
[server]
hosts = 127.0.0.1:{self.port}
delay_on_error = 0

[auth]
type = htpasswd
htpasswd_filename = {self.directory / "users"}
htpasswd_encryption = plain
delay = 0
realm = {self.realm}

[rights]
type = owner_only

[storage]
type = multifilesystem
filesystem_folder = {self.storage}

[web]
type = none

[logging]
level = warning
""",
            encoding="utf-8",
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def username(self) -> str:
        return self._username

    @property
    def password(self) -> str:
        return self._password

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def log(self) -> str:
        """What the server said on stderr so far."""
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def start(self) -> None:
        if self.running:
            raise RuntimeError("Radicale is already running")
        # --config alone decides: it replaces the default paths (/etc/radicale/config, ~/.config/radicale/config),
        # and RADICALE_CONFIG is dropped in case the user's environment has one.
        env = {key: value for key, value in os.environ.items() if key != "RADICALE_CONFIG"}
        self._log = self.log_path.open("ab")
        self._process = subprocess.Popen(
            [sys.executable, "-m", "radicale", "--config", str(self.config_path)],
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
            env=env,
            cwd=self.directory,
        )
        deadline = time.monotonic() + START_TIMEOUT
        while not self._answers():
            if self._process.poll() is not None:
                code = self._process.returncode
                self._reap()
                raise RuntimeError(f"Radicale exited with {code} while starting:\n{self.log()}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"Radicale did not answer on port {self.port} in {START_TIMEOUT} s:\n{self.log()}")
            time.sleep(0.02)

    def _answers(self) -> bool:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
        try:
            connection.request("PROPFIND", "/")  # OPTIONS and GET need no login: no realm
            with connection.getresponse() as response:
                return self.realm in response.getheader("WWW-Authenticate", "")
        except OSError:
            return False
        finally:
            connection.close()

    def stop(self) -> None:
        """SIGTERM (Radicale exits cleanly on it), then SIGKILL if it hangs; safe to call twice."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(5)
        self._reap()

    def _reap(self) -> None:
        if self._process is not None:
            self._process.wait()  # sets returncode, so Popen.__del__ has no ResourceWarning to give
            self._process = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def restart(self) -> None:
        """The same port and storage: what a client sees when the server reboots."""
        self.stop()
        self.start()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.stop()
