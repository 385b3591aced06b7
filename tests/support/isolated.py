"""Murmur's folders and its default database in a test's own folder, so nothing is read from or written to the
user's."""

from pathlib import Path

import pytest


def isolate(env: pytest.MonkeyPatch, folder: Path) -> None:
    """Data, logs, settings and the default database live in `folder`; dates are read in Berlin."""
    env.setenv("MURMUR_DATA_DIR", str(folder / "data"))
    env.setenv("MURMUR_LOG_DIR", str(folder / "logs"))
    env.setenv("MURMUR_CONFIG_DIR", str(folder / "config"))
    env.delenv("MURMUR_DB", raising=False)
    env.setenv("MURMUR_TZ", "Europe/Berlin")
