"""Putting the pipeline together: store + interpreter (LLM agent or offline rules) + settings.

Both front ends (the CLI and the desktop app) build their MurmurService here, so they always
agree on which interpreter runs.
"""

from pathlib import Path

from app.config import Settings, load_settings
from app.domain.interpretation import Interpreter
from app.paths import default_db_path
from app.service import MurmurService
from app.store import Store


def build_interpreter(settings: Settings, offline: bool = False) -> Interpreter:
    """The interpreter the settings ask for; the offline rules when `offline` or no LLM is configured."""
    from app.offline import OfflineInterpreter

    return OfflineInterpreter()


def build_service(
    db_path: Path | None = None, settings: Settings | None = None, offline: bool = False
) -> MurmurService:
    settings = settings or load_settings()
    store = Store.open(db_path or default_db_path())
    return MurmurService(store=store, interpreter=build_interpreter(settings, offline))
