"""Where Murmur keeps its files, per platform (platformdirs): data, settings, logs and the default database.

The one place that resolves them; each has an environment override (tests and second profiles use them).
"""

import os
from pathlib import Path

from platformdirs import PlatformDirs

_dirs = PlatformDirs(appname="murmur", appauthor=False)


def data_dir() -> Path:
    return Path(os.environ.get("MURMUR_DATA_DIR") or _dirs.user_data_path)


def config_dir() -> Path:
    return Path(os.environ.get("MURMUR_CONFIG_DIR") or _dirs.user_config_path)


def log_dir() -> Path:
    return Path(os.environ.get("MURMUR_LOG_DIR") or _dirs.user_log_path)


def default_db_path() -> Path:
    """MURMUR_DB if set, else murmur.db in the data dir."""
    explicit = os.environ.get("MURMUR_DB")
    return Path(explicit).expanduser() if explicit else data_dir() / "murmur.db"
