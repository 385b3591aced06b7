"""The LLM API key, kept in the system keyring and nowhere else.

Never in the settings file, never in a log. Where no keyring backend works (a headless Linux
box without a Secret Service), saving fails with a clear message pointing at the environment
variable instead; the key is never written to a plain file behind the user's back.
"""

import logging

import keyring
from keyring.backends.fail import Keyring as FailKeyring
from keyring.errors import KeyringError

from app.errors import SecretStoreError

log = logging.getLogger("murmur.secrets")

SERVICE = "murmur-desktop"
ACCOUNT = "llm-api-key"
ENV_HINT = "set MURMUR_LLM_API_KEY in your environment instead"


def keyring_problem() -> str | None:
    """None when a usable keyring backend exists; otherwise one line saying why not."""
    try:
        backend = keyring.get_keyring()
    except Exception as error:  # keyring reads its own config files; an unreadable home breaks it
        return f"the system keyring could not be loaded ({type(error).__name__}: {error}); {ENV_HINT}"
    if isinstance(backend, FailKeyring) or getattr(backend, "priority", 1) <= 0:
        return f"no system keyring is available (no Secret Service or KWallet is running); {ENV_HINT}"
    return None


def get_api_key() -> str | None:
    """The saved key, or None (no key saved, or no keyring to ask)."""
    if keyring_problem():
        return None
    try:
        return keyring.get_password(SERVICE, ACCOUNT) or None
    except KeyringError as error:
        log.warning("could not read the API key from the keyring: %s", type(error).__name__)
        return None


def set_api_key(key: str) -> None:
    key = key.strip()
    if not key:
        raise SecretStoreError("the API key is empty")
    if any(c.isspace() for c in key):
        raise SecretStoreError("the API key contains spaces; paste only the key")
    problem = keyring_problem()
    if problem:
        raise SecretStoreError(f"cannot save the API key: {problem}")
    try:
        keyring.set_password(SERVICE, ACCOUNT, key)
    except KeyringError as error:
        raise SecretStoreError(f"the keyring refused the API key ({type(error).__name__}); {ENV_HINT}") from None


def delete_api_key() -> bool:
    """Forget the saved key; False when there was none."""
    if keyring_problem():
        return False
    try:
        keyring.delete_password(SERVICE, ACCOUNT)
    except keyring.errors.PasswordDeleteError:
        return False
    except KeyringError as error:
        raise SecretStoreError(f"the keyring refused to delete the API key ({type(error).__name__})") from None
    return True
