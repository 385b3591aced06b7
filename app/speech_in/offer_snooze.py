"""An offer of speech models put off ("Not now", or its window closed) stays away for a while, as software
centres do with their suggestions: it comes back after OFFER_AGAIN_AFTER, or at once for another dictation
language (the models offered are the language's). Kept in the data folder: a fact about this machine, not a
setting the user chose."""

import json
import logging
from datetime import datetime, timedelta
from pathlib import Path

from app.paths import data_dir
from app.private_files import PRIVATE_DIR, write_private_text

log = logging.getLogger("murmur.speech")

OFFER_AGAIN_AFTER = timedelta(days=30)


def snooze_path() -> Path:
    return data_dir() / "model-offer.json"


def put_off(language: str, now: datetime) -> None:
    """The offer for `language` was put off at `now` (an aware time)."""
    path = snooze_path()
    try:
        path.parent.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
        write_private_text(path, json.dumps({"language": language, "put_off_at": now.isoformat()}))
    except OSError as error:  # then the next start asks again: a nuisance, never a failure
        log.warning("cannot keep the offer of speech models put off: %s", error)


def is_put_off(language: str, now: datetime) -> bool:
    """The offer for `language` was put off less than OFFER_AGAIN_AFTER before `now`."""
    try:
        kept = json.loads(snooze_path().read_text(encoding="utf-8"))
        put_off_at = datetime.fromisoformat(kept["put_off_at"])
        same_language = kept["language"] == language
    except (OSError, ValueError, KeyError, TypeError):  # none kept, or a file we did not write: ask
        return False
    return same_language and put_off_at <= now < put_off_at + OFFER_AGAIN_AFTER
