"""What Murmur offers to install: a better speech model, a natural voice (import it where it is used)."""

from app.speech_in.model_offer import (
    ModelOffer,
    accept,
    decline,
    install,
    model_offer,
    put_off_for_now,
    using,
    without_offer,
)
from app.speech_out.voice_offer import first_run_offer, pick_voice, recommended_voice, recommended_voice_name

__all__ = [
    "ModelOffer",
    "accept",
    "decline",
    "first_run_offer",
    "install",
    "model_offer",
    "pick_voice",
    "put_off_for_now",
    "recommended_voice",
    "recommended_voice_name",
    "using",
    "without_offer",
]
