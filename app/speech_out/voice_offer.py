"""The natural voice of the first-run offer: a Piper voice for the dictation language, offered beside the speech
models (`app.speech_in.model_offer`) so the replies need not be spoken by espeak-ng, with its size.

English needs no voice list to be offered (its voice and size are known here); other languages take their voice and
size from the Piper catalogue, and without it (offline) the models are offered alone.
"""

import importlib.util
import logging
from dataclasses import replace

from app.config import Settings, SpeechSettings
from app.errors import ModelError
from app.speech_in.download import ProgressCallback
from app.speech_in.language import base_language
from app.speech_in.model_offer import VOICE, ModelOffer, OfferedVoice, model_offer
from app.speech_in.models import InstalledModel
from app.speech_out.voices import PiperVoice, PiperVoices

log = logging.getLogger("murmur.voice")

PURPOSE = "A natural voice for replies"
# English is offered without the catalogue: its key, and its model's and config's sizes in rhasspy/piper-voices.
ENGLISH_VOICE, ENGLISH_VOICE_SIZE = "en_US-lessac-medium", 63_201_294 + 4_885
# One voice per language (a dictation language, or one with its region), picked among the catalogue's for clear
# speech in medium quality: about 63 MB each, twice as fast to make as "high" on a laptop's CPU. A language not
# named here, or whose voice the catalogue no longer has, is offered the catalogue's first voice in that quality.
RECOMMENDED_VOICES = {
    "en": ENGLISH_VOICE,
    "en-gb": "en_GB-alba-medium",
    "ar": "ar_JO-kareem-medium",
    "ca": "ca_ES-upc_ona-medium",
    "cs": "cs_CZ-jirka-medium",
    "de": "de_DE-thorsten-medium",
    "es": "es_ES-davefx-medium",
    "fa": "fa_IR-gyro-medium",
    "fr": "fr_FR-siwis-medium",
    "it": "it_IT-paola-medium",
    "nl": "nl_NL-pim-medium",
    "pl": "pl_PL-gosia-medium",
    "pt": "pt_BR-faber-medium",
    "pt-pt": "pt_PT-tugão-medium",
    "ru": "ru_RU-irina-medium",
    "sv": "sv_SE-nst-medium",
    "tr": "tr_TR-dfki-medium",
    "uk": "uk_UA-ukrainian_tts-medium",
    "vi": "vi_VN-vais1000-medium",
    "zh": "zh_CN-huayan-medium",
}
PREFERRED_QUALITIES = ("medium", "low", "high", "x_low")  # for a language with no voice named above


def piper_available() -> bool:
    """Can Piper run here (piper-tts installed; a build may leave it out)?"""
    return importlib.util.find_spec("piper") is not None


def recommended_voice_name(language: str) -> str | None:
    """The voice named for `language` ("en-GB", "pt_PT", "de"), by its region first, then its base language."""
    code = language.strip().lower().replace("_", "-") or "en"
    return RECOMMENDED_VOICES.get(code) or RECOMMENDED_VOICES.get(base_language(code))


def pick_voice(language: str, catalogue: list[PiperVoice]) -> PiperVoice | None:
    """The voice to recommend among the catalogue's voices for `language`: the one named, else the first in the
    most preferred quality."""
    named = recommended_voice_name(language)
    found = next((v for v in catalogue if v.name == named), None)
    if found is not None:
        return found
    known = [v for v in catalogue if v.quality in PREFERRED_QUALITIES]
    return min(known, key=lambda v: PREFERRED_QUALITIES.index(v.quality), default=None)


def recommended_voice(speech: SpeechSettings) -> OfferedVoice | None:
    """The voice to offer for the dictation language, ready to fetch; None when the catalogue names none for it or
    cannot be had (the reason is logged). English asks no catalogue until the voice is fetched."""
    language = speech.language or "en"
    voices = PiperVoices.from_settings(speech)
    if recommended_voice_name(language) == ENGLISH_VOICE:
        return _offered(voices, ENGLISH_VOICE, "en_US", ENGLISH_VOICE_SIZE)
    try:
        voice = pick_voice(language, voices.available(language))
    except ModelError as error:
        log.warning("no Piper voice offered for %s: %s", language, error)
        return None
    return None if voice is None else _offered(voices, voice.name, voice.language, voice.size)


def _offered(voices: PiperVoices, name: str, language: str, size: int) -> OfferedVoice:
    def fetch(on_progress: ProgressCallback | None) -> InstalledModel:
        return voices.download(voices.find_available(name), on_progress)  # the catalogue's MD5s check the files

    return OfferedVoice(VOICE, name, language, size, PURPOSE, fetch)


def voice_wanted(speech: SpeechSettings) -> bool:
    """Is a natural voice worth offering: Piper can run, no voice is named, and none is installed for the language?"""
    if speech.voice.strip() or not piper_available():
        return False
    return PiperVoices.from_settings(speech).best_for(speech.language or "en") is None


def first_run_offer(settings: Settings) -> ModelOffer | None:
    """The first-run offer for these settings (`model_offer`), with a natural voice beside the models when one is
    wanted and can be named. Looks at the disk and may fetch lists: never on a GUI thread."""
    offer = model_offer(settings)
    if offer is None or not voice_wanted(settings.speech):
        return offer
    voice = recommended_voice(settings.speech)
    return offer if voice is None else replace(offer, voice=voice)
