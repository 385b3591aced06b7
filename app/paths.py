"""Where Murmur keeps its files, per platform (platformdirs), with environment overrides for tests."""

import os
from pathlib import Path

from platformdirs import PlatformDirs

_dirs = PlatformDirs(appname="murmur", appauthor=False)


def data_dir() -> Path:
    return Path(os.environ.get("MURMUR_DATA_DIR") or _dirs.user_data_path)


def default_db_path() -> Path:
    """MURMUR_DB if set, else murmur.db in the data dir."""
    explicit = os.environ.get("MURMUR_DB")
    return Path(explicit).expanduser() if explicit else data_dir() / "murmur.db"
