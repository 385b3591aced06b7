"""The kept sound of what was said: its rate, and the engines that can hear it again."""

from app.recordings.hearing import REHEAR_ENGINES
from app.recordings.sound import RATE

__all__ = ["RATE", "REHEAR_ENGINES"]
