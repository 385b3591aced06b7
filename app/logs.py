"""Logging to a rotating file in the platform log dir (owner-only: it quotes what the user said); the terminal only
gets one-line messages."""

import logging
from logging.handlers import RotatingFileHandler
from pathlib import Path

from app.paths import log_dir
from app.private_files import ensure_private_dir


def setup_logging(level: int = logging.INFO) -> Path | None:
    """Log to murmur.log (1 MB x 3 files); returns its path, or None when it cannot be written."""
    root = logging.getLogger("murmur")
    root.setLevel(level)
    if root.handlers:
        return Path(getattr(root.handlers[0], "baseFilename", "")) or None
    path = log_dir() / "murmur.log"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    except OSError:
        root.addHandler(logging.NullHandler())
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    # Once logging works, so that what it tightens is logged: the folder, this log and the rotated ones.
    ensure_private_dir(path.parent)
    return path


def log_library(name: str, level: int = logging.WARNING) -> None:
    """Send library `name`'s log records at `level` and above to Murmur's log too (setup_logging() first)."""
    library = logging.getLogger(name)
    library.setLevel(level)
    for handler in logging.getLogger("murmur").handlers:
        library.addHandler(handler)
    library.propagate = False  # never to the terminal: a protocol may own it
