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
from app.speech_in.speech_models import VOSK_ENGLISH, WHISPER_ENGLISH
from tests.support.fake_models import publish_english_pair, vosk_folder, vosk_zip, whisper_files, whisper_folder
from tests.support.model_server import ModelServer
from tests.support.murmur_cli import ROOT, Murmur
from tests.support.pulse import PulseAudio

PROMPT = "Install them now? [Y/n/never] "


@pytest.fixture
def models(tmp_path: Path) -> Path:
    """The default models dir (<data dir>/models, the data dir in tmp_path)."""
    return models_dir(SpeechSettings())


def offered(settings: Settings | None = None) -> ModelOffer:
    offer = model_offer(settings or load_settings())
    assert offer is not None
    return offer


# -- when there is an offer, and what it says ---------------------------------------------------------------


def test_the_first_run_offers_the_english_pair_with_sizes_and_the_gain(models: Path) -> None:
    offer = offered(Settings())
    assert [(m.kind, m.name) for m in offer.models] == [("vosk", VOSK_ENGLISH), ("whisper", WHISPER_ENGLISH)]
    assert offer.size == 41_205_931 + 148_000_000 and offer.size_text == "189 MB"
    assert offer.model_lines() == [
        f"{VOSK_ENGLISH} (41 MB): streams the words live while you speak",
        f"{WHISPER_ENGLISH} (148 MB): writes the final text when you let go",
    ]
    assert (BUNDLED_WORDS_WRONG, WHISPER_BASE_WORDS_WRONG) == (0.12, 0.05)
    assert "about 12% with the bundled engine" in offer.accuracy and "about 5% with Whisper" in offer.accuracy
    assert "\n" not in offer.accuracy and offer.missing_extra == ""


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
    assert [m.name for m in german.models] == ["vosk-model-small-de-0.15", "whisper-base"]


def test_another_language_is_offered_what_the_vosk_list_names(
    server: ModelServer, models: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.listing([server.row("vosk-model-small-fr-0.22", b"1", "fr"), server.row("vosk-model-small-de-0.15", b"2")])
    offer = offered(Settings(speech=SpeechSettings(language="fr")))
    assert [m.name for m in offer.models] == ["vosk-model-small-fr-0.22", "whisper-base"]
    assert offer.accuracy == "The bundled engine knows English only; with these models you can dictate in 'fr'."
    monkeypatch.setenv("MURMUR_VOSK_MODEL_LIST", "http://127.0.0.1:9/model-list.json")  # offline
    assert model_offer(Settings(speech=SpeechSettings(language="fr"))) is None  # Whisper alone can't dictate


def test_without_faster_whisper_only_the_vosk_model_is_offered(models: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "faster_whisper", None)  # as if the extra were not installed: import fails
    offer = offered(Settings())
    assert [m.name for m in offer.models] == [VOSK_ENGLISH] and offer.size_text == "41 MB"
    assert "pip install 'murmur-desktop[whisper]'" in offer.missing_extra and "\n" not in offer.missing_extra


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


def test_accepting_installs_both_and_saves_the_settings_that_use_them(server: ModelServer, models: Path) -> None:
    publish_english_pair(server)
    save_settings(Settings(ui=replace(Settings().ui, audio_cues=False)))
    progress: list[tuple[int, int | None]] = []
    chosen = accept(offered(), load_settings(), lambda done, total: progress.append((done, total)))
    assert sorted(p.name for p in models.iterdir()) == [".partial", VOSK_ENGLISH, WHISPER_ENGLISH]
    speech = load_settings().speech
    assert (speech.model, speech.engine, speech.whisper_model, speech.final_engine, speech.offer_models) == (
        VOSK_ENGLISH,
        "auto",
        WHISPER_ENGLISH,
        "auto",
        False,
    )
    assert load_settings() == chosen and chosen.ui.audio_cues is False
    # One progress across both downloads: the bytes only grow, and it ends with all of them done.
    fetched = len(vosk_zip(VOSK_ENGLISH)) + sum(len(data) for data in whisper_files().values())
    assert progress[-1] == (fetched, fetched)
    assert [done for done, _ in progress] == sorted(done for done, _ in progress)
    # The next dictation uses them, and nobody is asked again.
    live = choose_engine(speech)
    assert (live.kind, live.model_path) == ("vosk", models / VOSK_ENGLISH)
    final = choose_final_engine(speech, live)
    assert final is not None and (final.kind, final.model_path) == ("whisper", models / WHISPER_ENGLISH)
    assert model_offer(load_settings()) is None


def test_a_failed_download_is_one_line_and_leaves_the_settings_alone(server: ModelServer, models: Path) -> None:
    publish_english_pair(server, whisper=False)  # the hub has no whisper-base.en: HTTP 404
    save_settings(Settings())
    before = load_settings()
    offer = offered()
    with pytest.raises(ModelError, match="whisper-base.en") as error:
        accept(offer, before)
    assert "\n" not in str(error.value)
    assert load_settings() == before
    publish_english_pair(server)  # the hub is back: trying again (as the dialog does) fetches only what is missing
    accept(offer, load_settings())
    assert [r["path"] for r in server.requests].count(f"/models/{VOSK_ENGLISH}.zip") == 1
    assert load_settings().speech.whisper_model == WHISPER_ENGLISH


# -- the command line ---------------------------------------------------------------------------------------


def test_murmur_models_recommended(server: ModelServer, models: Path, tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path)
    rows = murmur.json("models", "recommended")
    assert [(r["kind"], r["name"], r["size_text"], r["installed"]) for r in rows] == [
        ("vosk", VOSK_ENGLISH, "41 MB", False),
        ("whisper", WHISPER_ENGLISH, "148 MB", False),
    ]
    assert rows[0]["language"] == "en-us" and rows[0]["size"] == 41_205_931 and rows[1]["purpose"]
    vosk_folder(models, VOSK_ENGLISH)
    assert [r["installed"] for r in murmur.json("models", "recommended")] == [True, False]
    server.listing([server.row("vosk-model-small-de-0.15", b"1", "de")])
    german = murmur.json("models", "recommended", "--language", "de")
    assert [r["name"] for r in german] == ["vosk-model-small-de-0.15", "whisper-base"]
    text = murmur.run("models", "recommended")
    assert text.returncode == 0 and VOSK_ENGLISH in text.stdout and "murmur models download NAME" in text.stdout
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


@pytest.mark.slow
@pytest.mark.pulse
def test_listen_at_a_terminal_answered_never_saves_the_decline_and_records(
    pulse_audio: PulseAudio, models: Path
) -> None:
    terminal = Terminal(*LISTEN)
    terminal.wait_for(PROMPT)
    assert f"{VOSK_ENGLISH} (41 MB): streams the words live" in terminal.text and "189 MB in all" in terminal.text
    assert "about 12% with the bundled engine, about 5% with Whisper" in terminal.text
    terminal.answer("never")
    terminal.wait_for("listening for 0.5 s")
    assert terminal.finish() in (0, 1), terminal.text  # 1: nothing was said, which is right here
    assert "engine: pocketsphinx" in terminal.text and not models.exists()
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
    publish_english_pair(server)
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
    terminal.wait_for(f"installed {VOSK_ENGLISH}, {WHISPER_ENGLISH}; listening with them")
    terminal.wait_for("listening for 0.5 s")
    terminal.finish()
    assert "downloading" in terminal.text
    speech = load_settings().speech
    assert (speech.model, speech.whisper_model, speech.offer_models) == (VOSK_ENGLISH, WHISPER_ENGLISH, False)


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
