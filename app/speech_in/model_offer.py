"""The first-run offer of better speech models: the bundled pocketsphinx engine is the floor, not the
recommendation. While no model of ours is installed, both front ends (`murmur listen` on a terminal, the desktop
app in a dialog) offer what is recommended for the dictation language in one step: the Whisper model that fits
this machine (for other languages than English, a Vosk model for the live words before it), with their sizes and
the accuracy they gain; beside them, a natural voice for the spoken replies (named and fetched by
`app.speech_out.voice_offer`), which the user may leave out.

Accepting downloads them and saves the settings that use them (the voice becomes `speech.voice`); declining keeps
the bundled engine and saves `speech.offer_models = false`, so nobody is asked again (the model manager is still
there: `murmur models`, Settings → Speech). "Not now" puts the offer off (app/speech_in/offer_snooze.py): not at
the next start, but after a month, or at once for another language.
"""

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from app.config import Settings, SpeechSettings, save_settings
from app.speech_in.download import ProgressCallback
from app.speech_in.language import base_language
from app.speech_in.models import InstalledModel, size_text
from app.speech_in.offer_snooze import is_put_off, put_off
from app.speech_in.speech_models import Machine, Recommendation, SpeechModels, recommended_models

log = logging.getLogger("murmur.speech")

# Share of words wrong on recordings of real human voices (52 clips, 266 s, bench/real_voices), measured by
# bench/real_voice_bench.py: the bundled pocketsphinx engine reading them as files, and Whisper base as a
# dictation's release reads them. Synthetic voices flattered the bundled engine (12% wrong), so the offer quotes
# real ones. Measured figures, not promises: re-measure them with that bench when the engines change.
BUNDLED_WORDS_WRONG = 0.69
WHISPER_BASE_WORDS_WRONG = 0.12
MEASURED_ON = "recordings of real voices"
VOICE = "piper"  # the kind of an offered voice, and of the voice installed


@dataclass(frozen=True)
class OfferedVoice(Recommendation):
    """A voice for the spoken replies (kind "piper"), and how to fetch it: voices belong to the speech output, above
    this layer, so the offer is handed the download rather than knowing how it is done."""

    fetch: Callable[[ProgressCallback | None], InstalledModel] = field(compare=False, repr=False)


@dataclass(frozen=True)
class ModelOffer:
    """What to offer: the models accepting downloads, and the lines that say why."""

    language: str
    models: tuple[Recommendation, ...]  # the Whisper model; for other languages than English a Vosk one first
    accuracy: str  # one line: what the models gain over the bundled engine
    voice: OfferedVoice | None = None  # a natural voice for the replies, beside the models

    @property
    def downloads(self) -> tuple[Recommendation, ...]:
        """What accepting fetches, in order: the models, then the voice."""
        return (*self.models, *([self.voice] if self.voice else []))

    @property
    def size(self) -> int | None:
        """Bytes to download in all (None if a size is unknown)."""
        sizes = [m.size for m in self.downloads]
        return None if None in sizes else sum(s for s in sizes if s is not None)

    @property
    def size_text(self) -> str:
        return size_text(self.size)

    def model_lines(self) -> list[str]:
        """One line per model: "whisper-base.en (148 MB): recognises what you say"."""
        return [f"{m.name} ({m.size_text}): {m.purpose}" for m in self.models]

    def voice_line(self) -> str:
        """ "A natural voice for replies, 63 MB (en_US-lessac-medium)"; empty when no voice is offered."""
        return f"{self.voice.purpose}, {self.voice.size_text} ({self.voice.name})" if self.voice else ""

    def without_voice(self) -> "ModelOffer":
        """The same offer with the voice left out (espeak-ng goes on speaking the replies)."""
        return replace(self, voice=None)


def model_offer(settings: Settings, now: datetime | None = None, machine: Machine | None = None) -> ModelOffer | None:
    """The offer for these settings on `machine` (default: this one); None when the user declined it, or put it off
    for this language lately (as of `now`, default the present), or already has a model of ours for the language
    (or named one in the settings), or when another language than English gets no Vosk model named (without one
    nothing can dictate in it; the Vosk list names it: offline, the next start asks again).

    Looks at the models dir; for a language other than English it fetches the Vosk model list. So: never on a
    GUI thread."""
    speech = settings.speech
    if not speech.offer_models or speech.model or speech.whisper_model:
        return None
    language = speech.language or "en"
    if is_put_off(language, now or datetime.now(UTC)):
        return None
    if SpeechModels.from_settings(speech).installed(language):
        return None
    models = tuple(recommended_models(language, machine))
    if base_language(language) != "en" and not any(m.kind == "vosk" for m in models):
        return None
    return ModelOffer(language, models, accuracy_text(language))


def accuracy_text(language: str) -> str:
    if base_language(language) != "en":
        return f"The built-in engine knows English only; with these models you can dictate in {language!r}."
    return (
        f"On {MEASURED_ON}, the built-in engine gets about {_percent(BUNDLED_WORDS_WRONG)} of the words wrong; "
        f"Whisper base about {_percent(WHISPER_BASE_WORDS_WRONG)}."
    )


def _percent(share: float) -> str:
    """0.065 -> "6.5%", 0.64 -> "64%"."""
    return f"{round(share * 100, 1):g}%"


def install(
    offer: ModelOffer, speech: SpeechSettings, on_progress: ProgressCallback | None = None
) -> list[InstalledModel]:
    """Download the offered models, then the voice, one after the other, as one progress (bytes done, bytes in
    all); one already installed is not fetched again. ModelError (one line) if one fails; what was fetched is
    kept."""
    models = SpeechModels.from_settings(speech)
    progress = _Progress(on_progress, [m.size for m in offer.downloads])
    installed = []
    for index, model in enumerate(offer.models):
        installed.append(models.download(model.name, progress.part(index)))
        progress.finished(index)
    if offer.voice is not None:
        installed.append(offer.voice.fetch(progress.part(len(offer.models))))
        progress.finished(len(offer.models))
    return installed


def using(settings: Settings, installed: Sequence[InstalledModel]) -> Settings:
    """`settings` set to use these models (as `murmur models use` sets them) and a voice among them for the replies
    (as `murmur voices use` does), and never to offer models again."""
    models = SpeechModels.from_settings(settings.speech)
    speech = settings.speech
    for model in installed:
        speech = replace(speech, voice=model.name) if model.kind == VOICE else models.use(speech, model.name).speech
    return replace(settings, speech=replace(speech, offer_models=False))


def without_offer(settings: Settings) -> Settings:
    return replace(settings, speech=replace(settings.speech, offer_models=False))


def accept(offer: ModelOffer, settings: Settings, on_progress: ProgressCallback | None = None) -> Settings:
    """Download the offered models and save settings that use them; ModelError (one line) if a download fails,
    and then the settings file is left as it was. Returns the settings saved."""
    chosen = using(settings, install(offer, settings.speech, on_progress))
    save_settings(chosen)
    log.info("installed the offered models %s", ", ".join(m.name for m in offer.downloads))
    return chosen


def put_off_for_now(offer: ModelOffer, now: datetime | None = None) -> None:
    """ "Not now": the offer stays away a while (app/speech_in/offer_snooze.py); nothing is saved in the settings."""
    put_off(offer.language, now or datetime.now(UTC))
    log.info("the offer of speech models was put off")


def decline(settings: Settings) -> Settings:
    """Keep the bundled engine and stop offering; saved. Returns the settings saved."""
    declined = without_offer(settings)
    save_settings(declined)
    log.info("the offer of speech models was declined")
    return declined


class _Progress:
    """Several downloads reported as one: bytes done across all, and bytes in all as far as known (what the
    finished downloads fetched, the running one's own total, the offer's sizes for those still to come)."""

    def __init__(self, on_progress: ProgressCallback | None, sizes: list[int | None]) -> None:
        self.on_progress = on_progress
        self.sizes = sizes
        self.fetched = [0] * len(sizes)  # bytes of each download so far (none for a model installed already)
        self.done = 0  # bytes of the downloads finished

    def part(self, index: int) -> ProgressCallback | None:
        if self.on_progress is None:
            return None

        def progress(done: int, total: int | None) -> None:
            self.sizes[index], self.fetched[index] = total, done
            self._report(self.done + done, index)

        return progress

    def finished(self, index: int) -> None:
        self.done += self.fetched[index]
        self._report(self.done, index + 1)

    def _report(self, done: int, running: int) -> None:
        """Tell `done` bytes; the total counts the downloads finished and those from `running` on."""
        if self.on_progress is None:
            return
        rest = self.sizes[running:]
        total = None if None in rest else self.done + sum(s for s in rest if s is not None)
        self.on_progress(done, total)
