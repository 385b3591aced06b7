"""Which engines a dictation uses, and the loaded engines, kept for the life of the process.

The live engine streams partials: "auto" means Vosk when a model for the dictation language is installed
(or named), else the bundled pocketsphinx (English only). The final engine reads the utterance again,
stretch by stretch as the user speaks: "auto" means Whisper when a Whisper model is installed (it then gives
the live words too, the live engine standing in when it falls behind), else the live engine's own
full-utterance pass. Loading is done once per engine and model, and
can start early in a background thread (`preload`) so the first dictation does not wait for it.
"""

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from app.config import SpeechSettings
from app.errors import Command, ModelError, MurmurError, UsageError, Words, command
from app.speech_in import engine_threads
from app.speech_in.language import base_language
from app.speech_in.models import ModelManager, model_label
from app.speech_in.speech_models import recommended_whisper
from app.speech_in.transcriber import Engine, StreamingEngine

log = logging.getLogger("murmur.speech")

ENGINES = ("auto", "vosk", "pocketsphinx")
FINAL_ENGINES = ("auto", "whisper", "live", "off")
ROUGH = "the built-in engine is rough on real voices"


def better_accuracy_hint() -> Command:
    """Where to get Whisper (the model that fits this machine), said while the bundled English engine is in use."""
    name = recommended_whisper("en").name
    return command(
        "models",
        "download",
        name,
        instead=Words(f"{ROUGH}: Settings → Speech downloads Whisper ({name}), which gets far more words right"),
        phrase=f"{ROUGH}: {{}} gets Whisper, which gets far more words right",
    )


@dataclass(frozen=True)
class EngineChoice:
    kind: str  # "vosk", "pocketsphinx" or "whisper"
    model_path: Path | None
    language: str
    thorough: bool = False  # Whisper: a beam search and word timings (files), not greedy (dictation)

    @property
    def name(self) -> str:
        """Human text for the UI: which engine, which model."""
        if self.kind == "vosk" and self.model_path is not None:
            return f"Vosk ({model_label(self.model_path)})"
        if self.kind == "whisper" and self.model_path is not None:
            return f"Whisper ({self.model_path.name})"
        return "pocketsphinx (bundled, English only)"

    @property
    def hint(self) -> Command | None:
        """What the user should know about this choice (shown next to the engine's name)."""
        return better_accuracy_hint() if self.kind == "pocketsphinx" else None


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
            bundled = (
                "" if base_language(language) != "en" else " (or use the bundled English engine: --engine pocketsphinx)"
            )
            listed = command(
                "models",
                "list",
                "--available",
                "--language",
                language,
                instead=Words("Settings → Speech downloads Vosk models"),
                phrase="{} shows what can be downloaded" + bundled,
            )
            raise ModelError(f"no Vosk model for language {language!r} in {manager.folder}", listed)
    if base_language(language) != "en":
        raise ModelError(f"the bundled pocketsphinx engine knows English only, not {language!r}; install a Vosk model")
    return EngineChoice("pocketsphinx", None, "en")


def choose_final_engine(
    settings: SpeechSettings, live: EngineChoice, *, final_engine: str = "", thorough: bool = False
) -> EngineChoice | None:
    """The engine for the pass at release (`final_engine` overrides the setting); None when it is off."""
    mode = final_engine or settings.final_engine or "auto"
    if mode not in FINAL_ENGINES:
        raise UsageError(f"unknown final engine {mode!r}; choose one of {', '.join(FINAL_ENGINES)}")
    if mode == "off":
        return None
    if mode in ("auto", "whisper"):
        from app.speech_in.whisper_models import whisper_model_path

        path = whisper_model_path(settings, required=mode == "whisper")
        if path is not None:
            return EngineChoice("whisper", path, settings.language or "en", thorough)
    return live


def bundled_hint(
    settings: SpeechSettings, *, engine: str = "", model: str = "", final_engine: str = ""
) -> Command | None:
    """How to get Whisper, when the bundled engine is all a dictation with these settings (and overrides) uses, live
    and at release; None when a model of ours is used, or when no engine fits (that is told where it fails)."""
    try:
        live = choose_engine(settings, engine=engine, model=model)
        final = choose_final_engine(settings, live, final_engine=final_engine)
    except MurmurError:
        return None
    return live.hint if final in (None, live) else None


def live_words_source(live: EngineChoice, final: EngineChoice | None) -> str:
    """Which engine shows the words while the user speaks, and why, in one line."""
    if final is not None and final.kind == "whisper":
        return f"{final.name}, the final engine; {live.name} while Whisper loads or when it falls behind"
    return f"{live.name}: Whisper does not write the final text" + (" (the final pass is off)" if final is None else "")


def _load(choice: EngineChoice) -> Engine:
    if choice.kind == "vosk":
        from app.speech_in.vosk_engine import VoskEngine

        assert choice.model_path is not None
        return VoskEngine(choice.model_path, choice.language)
    if choice.kind == "whisper":
        from app.speech_in.whisper_engine import WhisperEngine

        assert choice.model_path is not None
        return WhisperEngine(choice.model_path, choice.language, thorough=choice.thorough)
    from app.speech_in.channels import ChannelMemory
    from app.speech_in.sphinx_engine import PocketsphinxEngine

    return PocketsphinxEngine(ChannelMemory())


def as_streaming(engine: Engine) -> StreamingEngine:
    """`engine` as one that streams partials; SpeechError for a final-pass-only engine (Whisper)."""
    if not isinstance(engine, StreamingEngine):
        raise UsageError(f"{engine.name} cannot stream live partials; it writes the final text only")
    return engine


_lock = threading.Lock()
_loaded: dict[tuple[str, Path | None, bool], "Future[Engine]"] = {}


def engine_future(choice: EngineChoice, *, background: bool = True) -> "Future[Engine]":
    """The engine for `choice`, loading it (once per process) in a background thread if not yet loaded.

    A load that failed is forgotten, so the next call tries again (the user may have fixed the model).
    """
    key = (choice.kind, choice.model_path, choice.thorough)
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
        engine_threads.start(load, f"murmur-load-{choice.kind}")
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
