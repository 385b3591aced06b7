"""The language model: providers and their presets, the models tested, the flags that override the settings."""

from app.agent.model_presets import MEASURED, SUGGESTED, TESTED_MODELS
from app.agent.provider import PRESETS, ProviderFlags, resolve_provider

__all__ = ["MEASURED", "PRESETS", "ProviderFlags", "SUGGESTED", "TESTED_MODELS", "resolve_provider"]
