"""Which voice speaks: the one the settings name, else the best Piper voice installed for the language, else
espeak-ng, else the desktop's speech-dispatcher. A named voice that cannot speak is an error; the automatic
choice falls back and says why in the log."""

import logging
import shutil
import threading
from pathlib import Path

from app.config import SpeechSettings
from app.errors import ModelError, Setting, VoiceError, Words, command
from app.speech_in.language import base_language
from app.speech_out.dispatcher import SPD_SAY, DispatcherVoice
from app.speech_out.synthesis import ESPEAK, EspeakSynthesizer, PiperSynthesizer, Synthesizer
from app.speech_out.voices import PiperVoices, voice_files

log = logging.getLogger("murmur.voice")


def espeak_voice(language: str) -> str:
    """espeak-ng's voice for a dictation language: "en" is American English, others as they are ("de", "pt-br")."""
    language = language.strip().lower().replace("_", "-") or "en"
    return "en-us" if language == "en" else language


def choose_voice(settings: SpeechSettings, voice: str | None = None) -> Synthesizer | DispatcherVoice:
    """What speaks `voice` (default: settings.voice): a synthesizer, or the desktop's speech-dispatcher when it is
    named, or when neither a Piper voice nor espeak-ng is there; VoiceError, one line, when nothing can speak."""
    voice = settings.voice if voice is None else voice
    language = base_language(settings.language or "en")
    if voice.strip() == DispatcherVoice.name:
        return DispatcherVoice(language, settings.rate, settings.volume)
    try:
        return choose_synthesizer(settings, voice)
    except VoiceError:
        if voice.strip() or shutil.which(SPD_SAY) is None:
            raise
    return DispatcherVoice(language, settings.rate, settings.volume)


def choose_synthesizer(settings: SpeechSettings, voice: str | None = None) -> Synthesizer:
    """The synthesizer for `voice` (default: settings.voice); VoiceError, one line, when none can speak."""
    voice = settings.voice if voice is None else voice
    name, _, variant = voice.strip().partition(":")
    if name == DispatcherVoice.name:
        raise VoiceError("speech-dispatcher plays speech itself: it cannot write a WAV file")
    if name == ESPEAK:
        return EspeakSynthesizer(variant or espeak_voice(settings.language), settings.rate)
    if name:
        return PiperSynthesizer(_piper_model(settings, voice.strip()), settings.rate)
    best = PiperVoices.from_settings(settings).best_for(settings.language or "en")
    if best is not None:
        try:
            return PiperSynthesizer(voice_files(best.path)[0], settings.rate)
        except VoiceError as error:
            log.warning("%s; espeak-ng speaks instead", error)
    try:
        return EspeakSynthesizer(espeak_voice(settings.language), settings.rate)
    except VoiceError:
        language = base_language(settings.language or "en")
        listed = command(
            "voices",
            "list",
            "--available",
            "--language",
            language,
            instead=Words("install espeak-ng, or a Piper voice in Settings → Voice"),
            phrase="install espeak-ng, or a Piper voice ({})",
            joint=": ",
        )
        raise VoiceError("no voice to speak with", listed) from None


def _piper_model(settings: SpeechSettings, voice: str) -> Path:
    """The .onnx file of a Piper voice named by its name in the models dir, its folder, or the file itself."""
    path = Path(voice).expanduser()
    if path.suffix == ".onnx":
        if not path.is_file():
            raise VoiceError(f"no voice file {path}")
        return path
    voices = PiperVoices.from_settings(settings)
    try:
        return voice_files(voices.resolve(voice))[0]
    except ModelError:
        listed = command("voices", "list", "--available", instead=Setting("speech.voice"), phrase="{} lists them")
        raise VoiceError(
            f"no voice {voice!r}: not a Piper voice in {voices.folder}, espeak-ng[:VOICE] or speech-dispatcher", listed
        ) from None


def preload_voice(settings: SpeechSettings) -> None:
    """Load the voice replies will be spoken in, in the background, so the first reply is not 0.4 s late."""

    def load() -> None:
        try:
            choose_voice(settings)
        except VoiceError as error:  # said when a reply is to be spoken
            log.info("no voice preloaded: %s", error)

    threading.Thread(target=load, name="murmur-voice-load", daemon=True).start()
