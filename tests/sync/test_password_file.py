"""Secrets where no keyring works (this machine's real state; keyring's fail backend makes it so everywhere):
refused unless the user asks for the credentials file, then kept there owner-only, read back, never in the
settings file or a log, and gone from it when removed. Through the functions, and through the commands."""

import stat
from pathlib import Path

import keyring
import pytest

from app.errors import SecretStoreError
from app.paths import data_dir
from app.secrets import (
    API_KEY,
    SYNC_PASSWORD,
    credentials_path,
    delete_secret,
    get_api_key,
    get_secret,
    in_file,
    set_secret,
    sync_password,
)
from tests.support.memory_keyring import MemoryKeyring
from tests.support.murmur_cli import Murmur
from tests.sync.phone import Phone
from tests.sync.radicale_server import RadicaleServer

NO_KEYRING = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}


def test_without_a_keyring_a_secret_is_refused_unless_the_file_is_asked_for(
    no_keyring: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SYNC_PASSWORD.env, raising=False)
    with pytest.raises(SecretStoreError, match="cannot save the sync password: no system keyring"):
        set_secret(SYNC_PASSWORD, "s3cret pass")
    assert not credentials_path().exists()

    kept = set_secret(SYNC_PASSWORD, "s3cret pass", to_file=True)
    set_secret(API_KEY, "sk-kept", to_file=True)

    assert kept == credentials_path() == data_dir() / "credentials"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    assert sync_password() == get_secret(SYNC_PASSWORD) == "s3cret pass" and get_api_key() == "sk-kept"
    assert in_file(SYNC_PASSWORD)
    monkeypatch.setenv(SYNC_PASSWORD.env, "from-the-environment")
    assert get_secret(SYNC_PASSWORD) == "from-the-environment"  # the environment comes before the file

    assert delete_secret(SYNC_PASSWORD) and not in_file(SYNC_PASSWORD) and "s3cret" not in kept.read_text()
    assert delete_secret(API_KEY) and not kept.exists()  # nothing left: no file either
    assert not delete_secret(API_KEY)


def test_a_file_loosened_by_hand_is_tightened_when_read(no_keyring: None) -> None:
    kept = set_secret(API_KEY, "sk-kept", to_file=True)
    assert kept is not None
    kept.chmod(0o644)
    assert get_api_key() == "sk-kept" and stat.S_IMODE(kept.stat().st_mode) == 0o600


def test_a_keyring_that_works_takes_the_secret_out_of_the_file(no_keyring: None) -> None:
    set_secret(API_KEY, "sk-kept", to_file=True)
    memory = MemoryKeyring()
    keyring.set_keyring(memory)
    assert set_secret(API_KEY, "sk-new", to_file=True) is None  # a keyring works: the file is not used
    assert memory.secrets == {("murmur-desktop", "llm-api-key"): "sk-new"} and not credentials_path().exists()


def test_sync_setup_and_set_key_keep_the_secrets_in_the_file_when_asked(
    radicale: RadicaleServer, phone: Phone, tmp_path: Path
) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path, **NO_KEYRING)
    murmur.run("add", "buy oat milk")
    setup = murmur.run(
        "sync", "setup", "--url", radicale.url, "--username", radicale.username, "--calendar", "Murmur",
        "--password-stdin", "--keep-in-file", stdin=radicale.password + "\n",
    )  # fmt: skip
    assert setup.returncode == 0, setup.stderr
    assert "the password is in " in setup.stdout and "credentials, readable by you alone" in setup.stdout
    done = murmur.run("sync")  # no MURMUR_CALDAV_PASSWORD: the file has it
    assert done.returncode == 0, done.stderr
    assert [str(todo["SUMMARY"]) for todo in phone.todos().values()] == ["Buy oat milk"]

    refused = murmur.run("config", "set-key", stdin="sk-test-123456\n")
    assert refused.returncode != 0 and "no system keyring" in refused.stderr
    kept = murmur.run("config", "set-key", "--keep-in-file", stdin="sk-test-123456\n")
    assert kept.returncode == 0 and "readable by you alone" in kept.stdout

    written = credentials_path().read_text()
    assert radicale.password in written and "sk-test-123456" in written
    settings = (tmp_path / "config" / "settings.toml").read_text()
    logged = "".join(path.read_text() for path in (tmp_path / "logs").glob("*"))
    for secret in (radicale.password, "sk-test-123456"):
        assert secret not in settings + logged
    removed = murmur.run("config", "delete-key")
    assert removed.stdout == "The API key was removed from the credentials file.\n"
    assert "sk-test-123456" not in credentials_path().read_text()
