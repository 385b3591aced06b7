"""A real Radicale CalDAV server on 127.0.0.1, one per test: its own config file, htpasswd and storage in a temp
dir, so nothing is read from /etc/radicale or ~/.config/radicale and nothing is written outside the test."""

import datetime
import http.client
import ipaddress
import os
import socket
import ssl
import subprocess
import sys
import time
import uuid
from pathlib import Path
from types import TracebackType
from typing import IO, Self

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

USERNAME = "alice"
PASSWORD = "s3cret-pass"
START_TIMEOUT = 10.0  # seconds for the port to answer


def free_port() -> int:
    """A port nobody listens on now (the OS's pick for port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _pem(certificate: x509.Certificate) -> bytes:
    return certificate.public_bytes(serialization.Encoding.PEM)


def make_certificates(directory: Path) -> tuple[Path, Path, Path]:
    """A private certificate authority and a server certificate it signs for 127.0.0.1 and localhost, as PEM
    files: (the CA's certificate, the server's certificate, the server's key). No system store trusts this CA."""
    now = datetime.datetime.now(datetime.UTC)
    # A minute back: a clock a little behind the one that signed must not see a certificate from the future.
    valid_from, valid_until = now - datetime.timedelta(minutes=1), now + datetime.timedelta(days=1)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"Murmur tests CA {uuid.uuid4()}")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(valid_from)
        .not_valid_after(valid_until)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    server_key = ec.generate_private_key(ec.SECP256R1())
    server = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name)
        .public_key(server_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(valid_from)
        .not_valid_after(valid_until)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        # Clients match the address against the SANs only, never the CN: the IP one is what 127.0.0.1 needs.
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.IPv4Address("127.0.0.1")), x509.DNSName("localhost")]
            ),
            critical=False,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    ca_file, certificate_file, key_file = directory / "ca.pem", directory / "server.pem", directory / "server.key"
    ca_file.write_bytes(_pem(ca))
    certificate_file.write_bytes(_pem(server))
    key_file.write_bytes(
        server_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    key_file.chmod(0o600)
    return ca_file, certificate_file, key_file


class RadicaleServer:
    """`python -m radicale` as a subprocess. restart() keeps the port and the storage, as a server rebooted."""

    def __init__(
        self, directory: Path, username: str = USERNAME, password: str = PASSWORD, *, tls: bool = False
    ) -> None:
        self.directory = directory
        self.tls = tls
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
        self._tls_files = make_certificates(directory) if tls else None
        self._write_config()

    @property
    def ca_file(self) -> Path:
        """The private authority's certificate (PEM) that signed this server's: what a client must trust."""
        if self._tls_files is None:
            raise AttributeError("this Radicale server speaks plain HTTP: it has no certificate authority")
        return self._tls_files[0]

    def _tls_config(self) -> str:
        if self._tls_files is None:
            return ""
        _, certificate, key = self._tls_files
        # No certificate_authority: that option would make Radicale demand client certificates.
        return f"ssl = True\ncertificate = {certificate}\nkey = {key}\n"

    def _write_config(self) -> None:
        # plain: bcrypt is not installed, and "autodetect" warns about it at every start.
        # delay = 0: Radicale otherwise sleeps 1 s on every 401, including the client's first, credential-less try.
        self.config_path.write_text(
            f"""\
[server]
hosts = 127.0.0.1:{self.port}
delay_on_error = 0
{self._tls_config()}
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
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}/"

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
        while not self._answers_or_stop():
            if self._process.poll() is not None:
                code = self._process.returncode
                self._reap()
                raise RuntimeError(f"Radicale exited with {code} while starting:\n{self.log()}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"Radicale did not answer on port {self.port} in {START_TIMEOUT} s:\n{self.log()}")
            time.sleep(0.02)

    def _answers_or_stop(self) -> bool:
        try:
            return self._answers()
        except ssl.SSLCertVerificationError as problem:  # our certificates are wrong: waiting will not help
            self.stop()
            raise RuntimeError(f"Radicale's certificate does not verify against its CA: {problem}") from problem

    def _connection(self) -> http.client.HTTPConnection:
        if not self.tls:
            return http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
        # Trusting only the private CA (with the usual host check): a probe that passes proves the certificate is
        # one a client given ca_file accepts.
        context = ssl.create_default_context(cafile=str(self.ca_file))
        return http.client.HTTPSConnection("127.0.0.1", self.port, timeout=1, context=context)

    def _answers(self) -> bool:
        connection = self._connection()
        try:
            connection.request("PROPFIND", "/")  # OPTIONS and GET need no login: no realm
            with connection.getresponse() as response:
                return self.realm in response.getheader("WWW-Authenticate", "")
        except ssl.SSLCertVerificationError:
            raise
        except OSError:  # not listening yet (refused, reset, timed out)
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
