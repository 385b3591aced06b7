"""The secrets: the LLM API key and the sync server's password, kept in the system keyring.

Never in the settings file, never in a log. Where no keyring backend works (a headless Linux box without a
Secret Service), saving fails with a clear message pointing at the environment variable, unless the user asks
for a file: then the secret goes to the credentials file, readable by the user alone (0600), as git's
credential store keeps passwords. A secret is never written to a plain file behind the user's back.
"""

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

import keyring
from keyring.backends.fail import Keyring as FailKeyring
from keyring.errors import KeyringError

from app.errors import SecretStoreError
from app.paths import data_dir
from app.private_files import ensure_private_dir, ensure_private_file, write_private_text

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


def credentials_path() -> Path:
    """The file secrets are kept in where no keyring works and the user asked for it."""
    return data_dir() / "credentials"


def shown_path(path: Path) -> str:
    """`path` as the user reads it: '~/.local/share/murmur/credentials'."""
    home = Path.home()
    return f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path)


def _kept_in_file() -> dict[str, str]:
    path = credentials_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        log.warning("cannot read %s: %s", path, error.strerror)
        return {}
    ensure_private_file(path)  # loosened by hand or by a copy: the user's alone again
    try:
        kept = json.loads(text)
    except ValueError:  # never the text in the log: it holds secrets
        log.warning("%s is not in Murmur's format; the secrets in it are not used", path)
        return {}
    return {str(name): str(value) for name, value in kept.items()} if isinstance(kept, dict) else {}


def _keep_in_file(kept: dict[str, str]) -> None:
    path = credentials_path()
    if not kept:
        path.unlink(missing_ok=True)
        return
    ensure_private_dir(path.parent)
    try:
        write_private_text(path, json.dumps(kept, indent=2) + "\n")
    except OSError as error:
        raise SecretStoreError(f"cannot write {path}: {error.strerror}") from None


def _from_keyring(secret: Secret) -> str | None:
    if keyring_problem(secret):
        return None
    try:
        return keyring.get_password(SERVICE, secret.account) or None
    except KeyringError as error:
        log.warning("could not read %s from the keyring: %s", secret.what, type(error).__name__)
        return None


def in_file(secret: Secret) -> bool:
    """Whether `secret` is kept in the credentials file."""
    return secret.account in _kept_in_file()


def saved_secret(secret: Secret) -> str | None:
    """The secret the user saved: in the keyring, else in the credentials file; None when neither has it."""
    return _from_keyring(secret) or _kept_in_file().get(secret.account) or None


def get_secret(secret: Secret) -> str | None:
    """The secret from the keyring, else the environment, else the credentials file; None when none has it."""
    return _from_keyring(secret) or os.environ.get(secret.env) or _kept_in_file().get(secret.account) or None


def set_secret(secret: Secret, value: str, to_file: bool = False) -> Path | None:
    """Keep `value` in the keyring; where none works and `to_file`, in the credentials file (returned)."""
    value = value.strip()
    if not value:
        raise SecretStoreError(f"{secret.what} is empty")
    problem = keyring_problem(secret)
    if problem and to_file:
        _keep_in_file({**_kept_in_file(), secret.account: value})
        return credentials_path()
    if problem:
        raise SecretStoreError(f"cannot save {secret.what}: {problem}")
    try:
        keyring.set_password(SERVICE, secret.account, value)
    except KeyringError as error:
        raise SecretStoreError(
            f"the keyring refused {secret.what} ({type(error).__name__}); {secret.env_hint}"
        ) from None
    _forget_in_file(secret)  # in the keyring now: one place only
    return None


def _forget_in_file(secret: Secret) -> bool:
    kept = _kept_in_file()
    if kept.pop(secret.account, None) is None:
        return False
    _keep_in_file(kept)
    return True


def delete_secret(secret: Secret) -> bool:
    """Forget the saved secret, in the keyring and in the credentials file; False when there was none."""
    in_keyring = False
    if not keyring_problem(secret):
        try:
            keyring.delete_password(SERVICE, secret.account)
            in_keyring = True
        except keyring.errors.PasswordDeleteError:
            pass
        except KeyringError as error:
            raise SecretStoreError(f"the keyring refused to delete {secret.what} ({type(error).__name__})") from None
    return _forget_in_file(secret) or in_keyring


def get_api_key() -> str | None:
    """The saved key (the environment's is read before it, by the provider)."""
    return saved_secret(API_KEY)


def set_api_key(key: str, to_file: bool = False) -> Path | None:
    if any(c.isspace() for c in key.strip()):
        raise SecretStoreError("the API key contains spaces; paste only the key")
    return set_secret(API_KEY, key, to_file)


def delete_api_key() -> bool:
    return delete_secret(API_KEY)


def sync_password() -> str | None:
    """The environment's (for scripts and machines without a keyring), else the one saved."""
    return os.environ.get(SYNC_PASSWORD.env) or saved_secret(SYNC_PASSWORD)
