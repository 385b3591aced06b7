"""The cepstral mean learned per microphone: kept across processes, owner-only, restored at the next start."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from app.speech_in.channels import ChannelMemory
from app.speech_in.sphinx_engine import REPRIME_SECONDS, PocketsphinxEngine
from app.speech_in.wavfile import read_audio

# One utterance on channel "desk-mic" in a process of its own; prints the mean it stored.
LEARN = """
import sys
from pathlib import Path
from app.speech_in.engines import EngineChoice, load_engine
from app.speech_in.wavfile import read_audio
engine = load_engine(EngineChoice("pocketsphinx", None, "en"))
transcriber = engine.start("desk-mic")
transcriber.feed(read_audio(Path(sys.argv[1])).pcm)
print(transcriber.finish().text)
"""
# A new process: what the engine starts the channel from.
RECALL = """
from app.speech_in.engines import EngineChoice, load_engine
engine = load_engine(EngineChoice("pocketsphinx", None, "en"))
print(engine.channel_mean("desk-mic") or "-", engine.initial_mean, sep="|")
"""


def run(script: str, *args: str, data: Path) -> str:
    env = {**os.environ, "MURMUR_DATA_DIR": str(data)}
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120, env=env, check=True
    )
    return done.stdout.strip()


@pytest.mark.slow
def test_the_mean_learned_in_one_process_starts_the_next(
    flite_corpus: dict[str, list[tuple[str, Path]]], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    assert run(RECALL, data=data).split("|")[0] == "-"  # nothing learned yet
    run(LEARN, str(flite_corpus["slt"][0][1]), data=data)
    saved = json.loads((data / "speech-channels.json").read_text())["pocketsphinx"]["desk-mic"]
    learned, initial = run(RECALL, data=data).split("|")
    assert learned == saved and learned != initial
    assert [round(float(x)) for x in learned.split(",")][0] > 30  # c0, the log energy, is near the model's 40
    assert stat.S_IMODE((data / "speech-channels.json").stat().st_mode) == 0o600


def test_a_transcriber_starts_from_the_learned_mean_and_learns_from_speech_only(
    flite_corpus: dict[str, list[tuple[str, Path]]], tmp_path: Path
) -> None:
    memory = ChannelMemory(tmp_path / "channels.json")
    engine = PocketsphinxEngine(memory)
    transcriber = engine.start("usb")
    transcriber.feed(b"\0\0" * 16_000)  # a second of digital silence: nothing to learn from
    transcriber.finish()
    assert memory.get("pocketsphinx", "usb") is None
    transcriber = engine.start("usb")
    transcriber.feed(read_audio(flite_corpus["awb"][2][1]).pcm)
    assert transcriber.finish().text
    assert memory.get("pocketsphinx", "usb") == engine.channel_mean("usb") is not None
    assert engine.channel_mean("another mic") is None and engine.channel_mean("") is None


@pytest.mark.slow
def test_a_cold_channel_is_reprimed_once_and_decodes_at_least_as_well(
    flite_corpus: dict[str, list[tuple[str, Path]]], tmp_path: Path
) -> None:
    from tests.support.speech import corpus_word_error_rate

    pairs_cold, pairs_plain = [], []
    for text, wav in flite_corpus["slt"]:
        pcm = read_audio(wav).pcm
        assert len(pcm) / 32_000 > REPRIME_SECONDS
        engine = PocketsphinxEngine(ChannelMemory(tmp_path / f"{len(pairs_cold)}.json"))
        cold = engine.start("new mic")  # no mean yet: restarts from the speech it has heard
        plain = engine.start()  # no channel: the model's generic start, never restarted
        for i in range(0, len(pcm), 3200):
            cold.feed(pcm[i : i + 3200])
            plain.feed(pcm[i : i + 3200])
        pairs_cold.append((text, cold.finish().text))
        pairs_plain.append((text, plain.finish().text))
    assert corpus_word_error_rate(pairs_cold) <= corpus_word_error_rate(pairs_plain), (pairs_cold, pairs_plain)


@pytest.mark.parametrize("content", ["not json", "[1, 2]", '{"pocketsphinx": "x"}'])
def test_a_damaged_channel_file_counts_as_empty_and_is_rewritten(tmp_path: Path, content: str) -> None:
    path = tmp_path / "channels.json"
    path.write_text(content)
    memory = ChannelMemory(path)
    assert memory.get("pocketsphinx", "mic") is None
    memory.put("pocketsphinx", "mic", "41,2,0")
    assert ChannelMemory(path).get("pocketsphinx", "mic") == "41,2,0"
