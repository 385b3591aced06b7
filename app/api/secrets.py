"""The passwords and keys the settings name, in the keyring or a file of their own."""

from app.secrets import (
    API_KEY,
    SYNC_PASSWORD,
    Secret,
    credentials_path,
    delete_api_key,
    delete_secret,
    get_api_key,
    in_file,
    keyring_problem,
    set_api_key,
    set_secret,
    shown_path,
    sync_password,
)

__all__ = [
    "API_KEY",
    "SYNC_PASSWORD",
    "Secret",
    "credentials_path",
    "delete_api_key",
    "delete_secret",
    "get_api_key",
    "in_file",
    "keyring_problem",
    "set_api_key",
    "set_secret",
    "shown_path",
    "sync_password",
]
