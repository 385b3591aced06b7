"""Speech output fixtures: the private PulseAudio (a speaker to play into), the Whisper test model, a local
server standing in for the Piper voices repository."""

from tests.support.model_server import server  # noqa: F401 (a fixture)
from tests.support.speech import whisper_model  # noqa: F401 (a fixture)
