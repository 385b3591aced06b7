"""The first-run offer of better speech models: when it is made, what it says, accepting (real downloads from the
local model server) and declining (saved in the real settings file), and `murmur listen` asking on a terminal.

Model folders are model-shaped fakes (tests/support/fake_models.py): the offer only looks at, downloads and names
models; loading real ones is tested elsewhere."""

import os
import pty
import select
import subprocess
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.config import Settings, SpeechSettings, load_settings, save_settings, settings_path
from app.errors import ModelError
from app.speech_in.engines import choose_engine, choose_final_engine
from app.speech_in.model_offer import (
    BUNDLED_WORDS_WRONG,
    WHISPER_BASE_WORDS_WRONG,
    ModelOffer,
    accept,
    decline,
    model_offer,
    put_off_for_now,
)
from app.speech_in.models import models_dir
from app.speech_in.offer_snooze import OFFER_AGAIN_AFTER, snooze_path
from app.speech_in.speech_models import (
    GIB,
    Machine,
    Recommendation,
    recommended_models,
    recommended_whisper,
    whisper_size,
)
from app.speech_in.speech_models import this_machine as real_machine  # before tests/conftest.py puts in a usual one
from tests.support.fake_models import (
    WHISPER_ENGLISH,
    publish_whisper,
    vosk_folder,
    vosk_zip,
    whisper_files,
    whisper_folder,
)
from tests.support.model_server import ModelServer
from tests.support.murmur_cli import ROOT, Murmur
from tests.support.pulse import PulseAudio

PROMPT = "Install it now? [Y/n/never] "
GERMAN_VOSK, FRENCH_VOSK = "vosk-model-small-de-0.15", "vosk-model-small-fr-0.22"


@pytest.fixture
def models(tmp_path: Path) -> Path:
    """The default models dir (<data dir>/models, the data dir in tmp_path)."""
    return models_dir(SpeechSettings())


def offered(settings: Settings | None = None) -> ModelOffer:
    offer = model_offer(settings or load_settings())
    assert offer is not None
    return offer


# -- when there is an offer, and what it says ---------------------------------------------------------------


def test_the_first_run_offers_english_the_whisper_model_with_its_size_and_the_gain(models: Path) -> None:
    offer = offered(Settings())
    assert [(m.kind, m.name) for m in offer.models] == [("whisper", WHISPER_ENGLISH)]  # no Vosk model for English
    assert offer.size == 148_000_000 and offer.size_text == "148 MB"
    assert offer.model_lines() == [f"{WHISPER_ENGLISH} (148 MB): recognises what you say"]
    assert (BUNDLED_WORDS_WRONG, WHISPER_BASE_WORDS_WRONG) == (0.69, 0.12)  # on real voices
    assert offer.accuracy == (
        "On recordings of real voices, the built-in engine gets about 69% of the words wrong; Whisper base about 12%."
    )


@pytest.mark.parametrize(
    ("cores", "gib", "size"),
    [
        (4, 8, "base"),
        (2, 3, "base"),  # the least that runs base well
        (1, 8, "tiny"),  # one core: base would keep the user waiting
        (4, 2.9, "tiny"),  # a 3 GB machine reports less than 3 GiB
        (8, 15.5, "small"),  # a 16 GB machine reports a little less
        (16, 64, "small"),
        (8, 8, "base"),  # cores without the memory
        (6, 32, "base"),  # memory without the cores
        (None, None, "base"),  # nothing known: what most machines get
        (None, 2, "tiny"),
    ],
)
def test_the_whisper_model_fits_the_machine(cores: int | None, gib: float | None, size: str) -> None:
    machine = Machine(cores, None if gib is None else int(gib * GIB))
    assert whisper_size(machine) == size
    assert [m.name for m in recommended_models("en-US", machine)] == [f"whisper-{size}.en"]


def test_the_offer_is_made_for_the_machine_it_runs_on(models: Path) -> None:
    small = offered_on(Machine(12, 32 * GIB))
    assert [m.name for m in small.models] == ["whisper-small.en"] and small.size_text == "487 MB"
    assert [m.name for m in offered_on(Machine(1, 2 * GIB)).models] == ["whisper-tiny.en"]


def test_this_machine_is_read_from_the_system() -> None:
    machine = real_machine()
    assert machine.cores == os.cpu_count()
    meminfo = Path("/proc/meminfo").read_text().split()
    kilobytes = int(meminfo[meminfo.index("MemTotal:") + 1])
    assert machine.memory is not None and abs(machine.memory - kilobytes * 1024) < 64 * 1024**2


def offered_on(machine: Machine, settings: Settings | None = None) -> ModelOffer:
    offer = model_offer(settings or Settings(), machine=machine)
    assert offer is not None
    return offer


@pytest.mark.parametrize(
    "have",
    ["declined", "vosk", "whisper", "multilingual whisper", "a model folder set", "a whisper folder set"],
)
def test_no_offer_once_declined_or_when_a_model_is_there(have: str, models: Path, tmp_path: Path) -> None:
    speech = SpeechSettings()
    if have == "declined":
        speech = replace(speech, offer_models=False)
    elif have == "vosk":
        vosk_folder(models, "vosk-model-small-en-in-0.4")  # any English Vosk model will do
    elif have == "whisper":
        whisper_folder(models, "whisper-tiny.en")
    elif have == "multilingual whisper":
        whisper_folder(models, "whisper-small")
    elif have == "a model folder set":
        speech = replace(speech, model=str(vosk_folder(tmp_path / "elsewhere", "my-model")))
    else:
        speech = replace(speech, whisper_model=str(whisper_folder(tmp_path / "elsewhere", "fine-tuned")))
    assert model_offer(Settings(speech=speech)) is None


def test_models_for_other_languages_do_not_count(server: ModelServer, models: Path) -> None:
    server.listing([server.row("vosk-model-small-de-0.15", b"1", "de")])
    vosk_folder(models, "vosk-model-small-fr-0.22")
    assert model_offer(Settings()) is not None  # a French model does not dictate English
    whisper_folder(models, "whisper-tiny.en")
    assert model_offer(Settings()) is None  # English-only Whisper: enough for English...
    german = offered(Settings(speech=SpeechSettings(language="de")))  # ...not for German
    assert [m.name for m in german.models] == [GERMAN_VOSK, "whisper-base"]


def test_another_language_is_offered_what_the_vosk_list_names(
    server: ModelServer, models: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.listing([server.row("vosk-model-small-fr-0.22", b"1", "fr"), server.row("vosk-model-small-de-0.15", b"2")])
    french = Settings(speech=SpeechSettings(language="fr"))
    offer = offered(french)
    assert [(m.kind, m.name) for m in offer.models] == [
        ("vosk", "vosk-model-small-fr-0.22"),
        ("whisper", "whisper-base"),
    ]
    assert offer.model_lines() == [
        f"{FRENCH_VOSK} (0 MB): streams the words live while you speak",
        "whisper-base (148 MB): writes the final text when you let go",
    ]
    assert offer.accuracy == "The built-in engine knows English only; with these models you can dictate in 'fr'."
    assert [m.name for m in offered_on(Machine(1, 8 * GIB), french).models][1:] == ["whisper-tiny"]  # same size
    monkeypatch.setenv("MURMUR_VOSK_MODEL_LIST", "http://127.0.0.1:9/model-list.json")  # offline
    assert model_offer(french) is None  # the live words need a Vosk model there: Whisper alone can't dictate


# -- putting off, declining and accepting -------------------------------------------------------------------


def test_put_off_it_stays_away_a_month_and_comes_back_at_once_for_another_language(
    server: ModelServer, models: Path
) -> None:
    server.listing([server.row("vosk-model-small-de-0.15", b"1", "de")])
    now = datetime(2026, 11, 26, 18, 0, tzinfo=UTC)
    put_off_for_now(offered(Settings()), now)
    assert model_offer(Settings(), now + timedelta(days=1)) is None  # the next start
    assert model_offer(Settings(), now + OFFER_AGAIN_AFTER - timedelta(minutes=1)) is None
    assert model_offer(Settings(), now + OFFER_AGAIN_AFTER) is not None  # a month on
    assert model_offer(Settings(speech=SpeechSettings(language="de")), now + timedelta(days=1)) is not None
    assert not settings_path().exists()  # a fact about this machine, not one of the user's settings


def test_a_put_off_that_cannot_be_read_asks_again(models: Path) -> None:
    snooze_path().parent.mkdir(parents=True, exist_ok=True)
    for text in ("not json", '{"language": "en"}', '{"language": "en", "put_off_at": "tuesday"}', "[]"):
        snooze_path().write_text(text)
        assert model_offer(Settings()) is not None, text


def test_declining_is_saved_and_kept(models: Path) -> None:
    mine = Settings(ui=replace(Settings().ui, hotkey="<ctrl>+<shift>+d"))
    save_settings(mine)
    assert decline(load_settings()).speech.offer_models is False
    again = load_settings()
    assert again.speech.offer_models is False and again.ui.hotkey == "<ctrl>+<shift>+d"
    assert model_offer(again) is None
    assert again == replace(mine, speech=replace(mine.speech, offer_models=False))  # nothing else changed


def test_accepting_installs_whisper_and_saves_the_settings_that_use_it(server: ModelServer, models: Path) -> None:
    publish_whisper(server)
    save_settings(Settings(ui=replace(Settings().ui, audio_cues=False)))
    progress: list[tuple[int, int | None]] = []
    chosen = accept(offered(), load_settings(), lambda done, total: progress.append((done, total)))
    assert sorted(p.name for p in models.iterdir()) == [".partial", WHISPER_ENGLISH]
    speech = load_settings().speech
    assert (speech.model, speech.engine, speech.whisper_model, speech.final_engine, speech.offer_models) == (
        "",
        "auto",
        WHISPER_ENGLISH,
        "auto",
        False,
    )
    assert load_settings() == chosen and chosen.ui.audio_cues is False
    # The progress: the bytes only grow, and it ends with all of them done.
    fetched = sum(len(data) for data in whisper_files().values())
    assert progress[-1] == (fetched, fetched)
    assert [done for done, _ in progress] == sorted(done for done, _ in progress)
    # The next dictation uses it, and nobody is asked again.
    live = choose_engine(speech)
    final = choose_final_engine(speech, live)
    assert final is not None and (final.kind, final.model_path) == ("whisper", models / WHISPER_ENGLISH)
    assert model_offer(load_settings()) is None


def test_accepting_installs_both_models_for_another_language_as_one_progress(server: ModelServer, models: Path) -> None:
    server.listing([server.row(GERMAN_VOSK, vosk_zip(GERMAN_VOSK), "de")])
    publish_whisper(server, "whisper-base")
    progress: list[tuple[int, int | None]] = []
    german = Settings(speech=SpeechSettings(language="de"))
    accept(offered(german), german, lambda done, total: progress.append((done, total)))
    speech = load_settings().speech
    assert (speech.model, speech.whisper_model, speech.offer_models) == (GERMAN_VOSK, "whisper-base", False)
    fetched = len(vosk_zip(GERMAN_VOSK)) + sum(len(data) for data in whisper_files().values())
    assert progress[-1] == (fetched, fetched)
    assert [done for done, _ in progress] == sorted(done for done, _ in progress)
    live = choose_engine(speech)
    assert (live.kind, live.model_path) == ("vosk", models / GERMAN_VOSK)
    final = choose_final_engine(speech, live)
    assert final is not None and (final.kind, final.model_path) == ("whisper", models / "whisper-base")


def test_a_failed_download_is_one_line_and_leaves_the_settings_alone(server: ModelServer, models: Path) -> None:
    server.listing([server.row(GERMAN_VOSK, vosk_zip(GERMAN_VOSK), "de")])  # the hub has no whisper-base: HTTP 404
    save_settings(Settings(speech=SpeechSettings(language="de")))
    before = load_settings()
    offer = offered()
    with pytest.raises(ModelError, match="whisper-base") as error:
        accept(offer, before)
    assert "\n" not in str(error.value)
    assert load_settings() == before
    publish_whisper(
        server, "whisper-base"
    )  # the hub is back: trying again (as the dialog does) fetches only what is missing
    accept(offer, load_settings())
    assert [r["path"] for r in server.requests].count(f"/models/{GERMAN_VOSK}.zip") == 1
    assert load_settings().speech.whisper_model == "whisper-base"


# -- the command line ---------------------------------------------------------------------------------------


def test_murmur_models_recommended(server: ModelServer, models: Path, tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path)
    rows = murmur.json("models", "recommended")
    assert [(r["kind"], r["name"], r["size_text"], r["installed"]) for r in rows] == [
        ("whisper", WHISPER_ENGLISH, "148 MB", False),
    ]
    assert rows[0]["language"] == "en" and rows[0]["size"] == 148_000_000 and rows[0]["purpose"]
    whisper_folder(models, WHISPER_ENGLISH)
    assert [r["installed"] for r in murmur.json("models", "recommended")] == [True]
    server.listing([server.row(GERMAN_VOSK, b"1", "de")])
    german = murmur.json("models", "recommended", "--language", "de")
    assert [r["name"] for r in german] == [GERMAN_VOSK, "whisper-base"]
    text = murmur.run("models", "recommended")
    assert text.returncode == 0 and WHISPER_ENGLISH in text.stdout and "murmur models download NAME" in text.stdout
    assert not (tmp_path / "config" / "settings.toml").exists()  # looking never touches the settings


class Terminal:
    """`murmur` at a terminal: stdin and stderr on a pseudo-terminal (so both are ttys), stdout a pipe."""

    def __init__(self, *args: str) -> None:
        self.master, terminal = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app", *args], stdin=terminal, stderr=terminal, stdout=subprocess.PIPE, cwd=ROOT
        )
        os.close(terminal)
        assert self.process.stdout is not None
        self._open = [self.master, self.process.stdout.fileno()]
        self.screen, self.out = b"", b""

    @property
    def text(self) -> str:
        return self.screen.decode(errors="replace").replace("\r\n", "\n")

    def _pump(self, deadline: float) -> None:
        """Read what is ready on the terminal and on stdout; an output that ended is no longer read."""
        ready, _, _ = select.select(self._open, [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            pytest.fail(f"murmur did not get on in time; the terminal shows: {self.text!r}")
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the program closed its end of the terminal
                chunk = b""
            if not chunk:
                self._open.remove(fd)
            elif fd == self.master:
                self.screen += chunk
            else:
                self.out += chunk

    def wait_for(self, text: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.text:
            if not self._open:
                pytest.fail(f"murmur ended without showing {text!r}: {self.text!r}")
            self._pump(deadline)

    def answer(self, line: str) -> None:
        os.write(self.master, f"{line}\n".encode())

    def finish(self, timeout: float = 60) -> int:
        """Read both outputs to their end; the exit code."""
        deadline = time.monotonic() + timeout
        while self._open:
            self._pump(deadline)
        os.close(self.master)
        assert self.process.stdout is not None
        self.process.stdout.close()
        return self.process.wait(max(1.0, deadline - time.monotonic()))


LISTEN = ("listen", "--seconds", "0.5", "--engine", "pocketsphinx", "--final-engine", "live", "--device", "pulse")


def offered_here() -> Recommendation:
    """The Whisper model a `murmur` process offers for English: the one that fits this machine."""
    return recommended_whisper("en", real_machine())


@pytest.mark.slow
@pytest.mark.pulse
def test_listen_at_a_terminal_answered_never_saves_the_decline_and_records(
    pulse_audio: PulseAudio, models: Path
) -> None:
    here = offered_here()
    terminal = Terminal(*LISTEN)
    terminal.wait_for(PROMPT)
    assert f"{here.name} ({here.size_text}): recognises what you say" in terminal.text
    assert f"({here.size_text} in all)" in terminal.text
    assert "the built-in engine gets about 69% of the words wrong; Whisper base about 12%." in terminal.text
    terminal.answer("never")
    terminal.wait_for("listening for 0.5 s")
    assert terminal.finish() in (0, 1), terminal.text  # 1: nothing was said, which is right here
    first = next(line for line in terminal.text.splitlines() if line.startswith("engine: "))
    assert first == (
        "engine: pocketsphinx (bundled, English only) (the built-in engine is rough on real voices: "
        f"`murmur models download {here.name}` gets Whisper, which gets far more words right)"
    )
    assert not models.exists()
    assert load_settings().speech.offer_models is False
    again = Terminal(*LISTEN)
    again.wait_for("listening for 0.5 s")
    again.finish()
    assert "Install" not in again.text


@pytest.mark.slow
@pytest.mark.pulse
def test_listen_at_a_terminal_asks_until_answered_and_installs_on_enter(
    pulse_audio: PulseAudio, server: ModelServer, models: Path
) -> None:
    here = offered_here()
    publish_whisper(server, here.name)
    terminal = Terminal(*LISTEN)
    terminal.wait_for(PROMPT)
    terminal.answer("maybe")
    terminal.wait_for("Please answer y (install), n (not now) or never.")
    terminal.answer("n")  # not now: nothing saved, asked again next time
    terminal.wait_for("listening for 0.5 s")
    terminal.finish()
    assert not models.exists() and load_settings().speech.offer_models is True
    terminal = Terminal(*LISTEN)
    terminal.wait_for(PROMPT)
    terminal.answer("")  # Enter: yes
    terminal.wait_for(f"installed {here.name}; listening with it")
    terminal.wait_for("listening for 0.5 s")
    terminal.finish()
    assert "downloading" in terminal.text
    speech = load_settings().speech
    assert (speech.model, speech.whisper_model, speech.offer_models) == ("", here.name, False)


@pytest.mark.pulse
def test_listen_in_a_script_never_asks(pulse_audio: PulseAudio, models: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app", *LISTEN], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60
    )
    assert done.returncode in (0, 1), done.stderr
    assert done.stderr.startswith("engine: pocketsphinx") and "Install" not in done.stderr
    assert "listening for 0.5 s" in done.stderr
    terminal = Terminal(*LISTEN, "--json")  # at a terminal, but asked for JSON: a script's output stays as it was
    assert terminal.finish() in (0, 1)
    assert "Install" not in terminal.text and terminal.out.startswith(b"{")
    assert not (Path(os.environ["MURMUR_CONFIG_DIR"]) / "settings.toml").exists()
