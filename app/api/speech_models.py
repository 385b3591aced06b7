"""The speech models: those installed, those recommended and their download."""

from app.speech_in.download import DownloadError
from app.speech_in.models import InstalledModel, ModelManager
from app.speech_in.speech_models import SpeechModels, recommended_models
from app.speech_in.whisper_models import WhisperModelManager

__all__ = [
    "DownloadError",
    "InstalledModel",
    "ModelManager",
    "SpeechModels",
    "WhisperModelManager",
    "recommended_models",
]
