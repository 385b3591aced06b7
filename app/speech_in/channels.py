"""What an engine learned about the sound of each input device, kept across runs (one small JSON file).

pocketsphinx normalises every frame by the cepstral mean of the channel (microphone, room, voice). A cold
decoder starts from a generic guess and spends the first seconds of the first utterance decoding against
the wrong mean; keeping the mean of the last utterance per device and restoring it at start makes the
first sentence of a fresh process as good as the tenth. Writes are atomic and owner-only.
"""

import json
import logging
import threading
from pathlib import Path

from app.paths import data_dir
from app.private_files import write_private_text

log = logging.getLogger("murmur.speech")

FILE_NAME = "speech-channels.json"


def default_path() -> Path:
    return data_dir() / FILE_NAME


class ChannelMemory:
    """{engine kind: {channel: value}} in a JSON file; unreadable or foreign content counts as empty."""

    def __init__(self, path: Path | None = None) -> None:
        self._path = path
        self._lock = threading.Lock()

    @property
    def path(self) -> Path:
        """The file; without an explicit one, looked up at each use (the data dir can move, as in tests)."""
        return self._path or default_path()

    def _read(self) -> dict[str, dict[str, str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            log.warning("ignoring the speech channel file %s: %s", self.path, error)
            return {}
        if not isinstance(data, dict):
            return {}
        rows = {kind: channels for kind, channels in data.items() if isinstance(channels, dict)}
        return {str(kind): {str(k): str(v) for k, v in channels.items()} for kind, channels in rows.items()}

    def get(self, kind: str, channel: str) -> str | None:
        with self._lock:
            return self._read().get(kind, {}).get(channel)

    def put(self, kind: str, channel: str, value: str) -> None:
        """Remember `value`; a failure to write is logged, never raised (the next run merely starts cold)."""
        with self._lock:
            data = self._read()
            if data.get(kind, {}).get(channel) == value:
                return
            data.setdefault(kind, {})[channel] = value
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                write_private_text(self.path, json.dumps(data, indent=1, sort_keys=True))
            except OSError as error:
                log.warning("cannot save the speech channel file %s: %s", self.path, error)
