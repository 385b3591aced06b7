"""The secrets: the LLM API key and the sync server's password, kept in the system keyring and nowhere else.

Never in the settings file, never in a log. Where no keyring backend works (a headless Linux
box without a Secret Service), saving fails with a clear message pointing at the environment
variable instead; a secret is never written to a plain file behind the user's back.
"""

import logging
import os
from dataclasses import dataclass

import keyring
from keyring.backends.fail import Keyring as FailKeyring
from keyring.errors import KeyringError

from app.errors import SecretStoreError

log = logging.getLogger("murmur.secrets")

SERVICE = "murmur-desktop"


@dataclass(frozen=True)
class Secret:
    account: str  # its name in the keyring
    what: str  # in messages: "the API key"
    env: str  # the environment variable that stands in where no keyring works

    @property
    def env_hint(self) -> str:
        return f"set {self.env} in your environment instead"


API_KEY = Secret("llm-api-key", "the API key", "MURMUR_LLM_API_KEY")
SYNC_PASSWORD = Secret("caldav-password", "the sync password", "MURMUR_CALDAV_PASSWORD")
ENV_HINT = API_KEY.env_hint


def keyring_problem(secret: Secret = API_KEY) -> str | None:
    """None when a usable keyring backend exists; otherwise one line saying why not."""
    try:
        backend = keyring.get_keyring()
    except Exception as error:  # keyring reads its own config files; an unreadable home breaks it
        return f"the system keyring could not be loaded ({type(error).__name__}: {error}); {secret.env_hint}"
    if isinstance(backend, FailKeyring) or getattr(backend, "priority", 1) <= 0:
        return f"no system keyring is available (no Secret Service or KWallet is running); {secret.env_hint}"
    return None


def get_secret(secret: Secret) -> str | None:
    """The saved secret, or None (none saved, or no keyring to ask)."""
    if keyring_problem(secret):
        return None
    try:
        return keyring.get_password(SERVICE, secret.account) or None
    except KeyringError as error:
        log.warning("could not read %s from the keyring: %s", secret.what, type(error).__name__)
        return None


def set_secret(secret: Secret, value: str) -> None:
    value = value.strip()
    if not value:
        raise SecretStoreError(f"{secret.what} is empty")
    problem = keyring_problem(secret)
    if problem:
        raise SecretStoreError(f"cannot save {secret.what}: {problem}")
    try:
        keyring.set_password(SERVICE, secret.account, value)
    except KeyringError as error:
        raise SecretStoreError(
            f"the keyring refused {secret.what} ({type(error).__name__}); {secret.env_hint}"
        ) from None


def delete_secret(secret: Secret) -> bool:
    """Forget the saved secret; False when there was none."""
    if keyring_problem(secret):
        return False
    try:
        keyring.delete_password(SERVICE, secret.account)
    except keyring.errors.PasswordDeleteError:
        return False
    except KeyringError as error:
        raise SecretStoreError(f"the keyring refused to delete {secret.what} ({type(error).__name__})") from None
    return True


def get_api_key() -> str | None:
    return get_secret(API_KEY)


def set_api_key(key: str) -> None:
    if any(c.isspace() for c in key.strip()):
        raise SecretStoreError("the API key contains spaces; paste only the key")
    set_secret(API_KEY, key)


def delete_api_key() -> bool:
    return delete_secret(API_KEY)


def sync_password() -> str | None:
    """The environment's (for scripts and machines without a keyring), else the keyring's."""
    return os.environ.get(SYNC_PASSWORD.env) or get_secret(SYNC_PASSWORD)
