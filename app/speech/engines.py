"""Which engine a dictation uses, and the loaded engines, kept for the life of the process.

"auto" means Vosk when a model for the dictation language is installed (or named), else the bundled
pocketsphinx (English only). Loading is done once per engine and model, and can start early in a
background thread (`preload`) so the first dictation does not wait for it.
"""

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from app.config import SpeechSettings
from app.errors import ModelError, UsageError
from app.speech.language import base_language
from app.speech.models import ModelManager, model_label
from app.speech.transcriber import Engine

log = logging.getLogger("murmur.speech")

ENGINES = ("auto", "vosk", "pocketsphinx")
BETTER_ACCURACY_HINT = (
    "for better accuracy install a Vosk model: `murmur models list --available`, then `murmur models download NAME`"
)


@dataclass(frozen=True)
class EngineChoice:
    kind: str  # "vosk" or "pocketsphinx"
    model_path: Path | None
    language: str

    @property
    def name(self) -> str:
        """Human text for the UI: which engine, which model."""
        if self.kind == "vosk" and self.model_path is not None:
            return f"Vosk ({model_label(self.model_path)})"
        return "pocketsphinx (bundled, English only)"

    @property
    def hint(self) -> str | None:
        """What the user should know about this choice (shown next to the engine's name)."""
        return BETTER_ACCURACY_HINT if self.kind == "pocketsphinx" else None


def choose_engine(settings: SpeechSettings, *, engine: str = "", model: str = "") -> EngineChoice:
    """The engine for these settings (flags `engine` and `model` override them); ModelError if none fits."""
    kind = engine or settings.engine or "auto"
    model = model or settings.model
    if kind not in ENGINES:
        raise UsageError(f"unknown speech engine {kind!r}; choose one of {', '.join(ENGINES)}")
    language = settings.language or "en"
    manager = ModelManager.from_settings(settings)
    if kind in ("auto", "vosk"):
        if model:
            return EngineChoice("vosk", manager.resolve(model), language)
        best = manager.best_for(language)
        if best is not None:
            return EngineChoice("vosk", best.path, language)
        if kind == "vosk" or base_language(language) != "en":
            raise ModelError(
                f"no Vosk model for language {language!r} in {manager.folder}; "
                f"`murmur models list --available --language {language}` shows what can be downloaded"
                + (
                    ""
                    if base_language(language) != "en"
                    else " (or use the bundled English engine: --engine pocketsphinx)"
                )
            )
    if base_language(language) != "en":
        raise ModelError(f"the bundled pocketsphinx engine knows English only, not {language!r}; install a Vosk model")
    return EngineChoice("pocketsphinx", None, "en")


def _load(choice: EngineChoice) -> Engine:
    if choice.kind == "vosk":
        from app.speech.vosk_engine import VoskEngine

        assert choice.model_path is not None
        return VoskEngine(choice.model_path, choice.language)
    from app.speech.sphinx_engine import PocketsphinxEngine

    return PocketsphinxEngine()


_lock = threading.Lock()
_loaded: dict[tuple[str, Path | None], "Future[Engine]"] = {}


def engine_future(choice: EngineChoice, *, background: bool = True) -> "Future[Engine]":
    """The engine for `choice`, loading it (once per process) in a background thread if not yet loaded.

    A load that failed is forgotten, so the next call tries again (the user may have fixed the model).
    """
    key = (choice.kind, choice.model_path)
    with _lock:
        future = _loaded.get(key)
        if future is not None and not (future.done() and future.exception() is not None):
            return future
        future = Future()
        _loaded[key] = future

    def load() -> None:
        try:
            future.set_result(_load(choice))
        except BaseException as error:  # handed to whoever waits on the future
            log.warning("cannot load the %s engine: %s", choice.kind, error)
            future.set_exception(error)

    if background:
        threading.Thread(target=load, name=f"murmur-load-{choice.kind}", daemon=True).start()
    else:
        load()
    return future


def load_engine(choice: EngineChoice) -> Engine:
    """The loaded engine, waiting for it (raises what loading raised)."""
    return engine_future(choice, background=False).result()


def preload(settings: SpeechSettings, on_error: Callable[[str], None] | None = None) -> None:
    """Start loading the engine these settings choose, in the background, so the first dictation is fast."""
    try:
        future = engine_future(choose_engine(settings))
    except (ModelError, UsageError) as error:
        log.warning("not preloading a speech engine: %s", error)
        if on_error is not None:
            on_error(str(error))
        return
    if on_error is not None:
        callback = on_error
        future.add_done_callback(lambda f: None if f.exception() is None else callback(str(f.exception())))
