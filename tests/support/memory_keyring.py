"""A keyring that forgets everything when the test ends: tests never touch the user's real one
(and no Secret Service runs here). Installed by the `memory_keyring` fixture; `no_keyring` stands for a machine
without any, as this one really is."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends.fail import Keyring as FailKeyring
from keyring.errors import PasswordDeleteError

Backend = TypeVar("Backend", bound=KeyringBackend)


class MemoryKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.secrets: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.secrets.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.secrets[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.secrets.pop((service, username), None) is None:
            raise PasswordDeleteError("no such password")  # as real backends do


@contextmanager
def keyring_in_use(backend: Backend) -> Iterator[Backend]:
    """`backend` is the keyring while the block runs; the one before it comes back after."""
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    with keyring_in_use(MemoryKeyring()) as backend:
        yield backend


@pytest.fixture
def no_keyring() -> Iterator[None]:
    with keyring_in_use(FailKeyring()):
        yield
