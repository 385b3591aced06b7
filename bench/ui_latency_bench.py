"""Desktop app latency: hotkey release -> the new entry in the window's list.

The real app objects (`Murmur`: voice input, bridge, pipeline worker, entry model and its filter)
run offscreen. The speech is real: flite says a sentence into a private PulseAudio null sink that
the real `Dictation` records from (pocketsphinx), while the hotkey is held. The service's
interpreter is the LLM agent talking to the local test server, which answers instantly: a
create_entries call, then closing words. Each run emits the hotkey's `pressed`, plays the
sentence, emits `released` (what pynput's listener emits: the same path a real release takes),
and stops the clock when the entry model is reset with the new entry visible in the filtered list.

Printed: release -> final transcript (the end of speech decoding), final transcript -> entry shown
(queue, pipeline with two requests, list reload), and release -> entry shown; median and p90.
`--final-engine live` (the default) is the bundled engine's own full pass, what ships without a Whisper model;
`whisper` is the pass with Whisper base (the test model), what ships once the first run installed one.

Run: .venv/bin/python bench/ui_latency_bench.py [--final-engine live|whisper]
     (needs flite, pulseaudio, the ALSA pulse plugin)
"""

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ["QT_QPA_PLATFORM"] = "offscreen"

from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.agent.loop import LlmAgent  # noqa: E402
from app.config import PrivacySettings, Settings, SpeechSettings  # noqa: E402
from app.domain.clock import Clock  # noqa: E402
from app.domain.events import FinalTranscript, PipelineEvent  # noqa: E402
from app.service import MurmurService  # noqa: E402
from app.store import Store  # noqa: E402
from app.ui.application import Murmur  # noqa: E402
from app.ui.icons import AppState  # noqa: E402
from tests.support.llm_server import FakeLlmServer, Reply, call, provider_for  # noqa: E402
from tests.support.pulse import PulseAudio, missing, private_pulseaudio  # noqa: E402
from tests.support.speech import flite_wav, whisper_base_model  # noqa: E402

RUNS = 20
SENTENCE = "remind me to call the dentist on thursday"
TIMEOUT_SECONDS = 60.0
CACHE = Path.home() / ".cache" / "murmur-bench"


class Script:
    """The test server's answers: run N creates "Call the dentist N", then says it is done."""

    def __init__(self) -> None:
        self.run = 0

    def __call__(self, body: dict[str, Any]) -> Reply:
        if body["messages"][-1]["role"] == "tool":
            return Reply("Added it.")
        entry = {"content": f"Call the dentist {self.run}", "category": "reminder", "due": "thursday 9:00"}
        return Reply(tool_calls=[call("create_entries", {"entries": [entry]})])


def shown(murmur: Murmur, summary: str) -> bool:
    model = murmur.model
    return any((row := model.row_of(entry_id)) is not None and row.summary == summary for entry_id in model.entry_ids())


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Watch:
    """Runs the event loop until a condition holds, checked whenever the app reports something.

    Connected once for the whole run: PySide6 6.12's `disconnect()` drops a reference to `True`
    each time, and enough of them crash the interpreter at exit.
    """

    def __init__(self, murmur: Murmur) -> None:
        self.murmur = murmur
        self.summary = ""  # the entry the current run waits for
        self.marks: dict[str, float] = {}  # when the final transcript and the entry arrived
        self._loop: QEventLoop | None = None
        self._done: Callable[[], bool] = bool
        murmur.voice.started.connect(self._check)
        murmur.state_changed.connect(self._check)
        murmur.bridge.progressed.connect(self._on_event)
        murmur.model.modelReset.connect(self._on_model_reset)

    def _on_event(self, event: PipelineEvent) -> None:
        if isinstance(event, FinalTranscript):
            self.marks.setdefault("transcript", time.perf_counter())
            self._check()

    def _on_model_reset(self) -> None:
        if "entry" not in self.marks and shown(self.murmur, self.summary):
            self.marks["entry"] = time.perf_counter()
        self._check()

    def _check(self, *_: object) -> None:
        if self._loop is not None and self._done():
            self._loop.quit()

    def wait(self, done: Callable[[], bool], what: str) -> None:
        if done():
            return
        self._loop, self._done = QEventLoop(), done
        QTimer.singleShot(int(TIMEOUT_SECONDS * 1000), self._loop, self._loop.quit)
        self._loop.exec()
        self._loop = None
        if not done():
            raise SystemExit(f"timed out waiting for {what}")

    def measure(self, pulse: PulseAudio, wav: Path, summary: str) -> tuple[float, float, float]:
        """One utterance: ms from release to the final transcript, from there to the entry shown, in all."""
        murmur, marks = self.murmur, self.marks
        self.summary = summary
        marks.clear()
        murmur.hotkey.pressed.emit()
        self.wait(murmur.voice.is_recording, "recording to start")
        pulse.play(wav)
        released = time.perf_counter()
        murmur.hotkey.released.emit()
        self.wait(lambda: "entry" in marks, summary)
        self.wait(lambda: murmur.state() in (AppState.IDLE, AppState.ERROR), "the app to be idle")
        transcript, entry = marks["transcript"], marks["entry"]
        return (transcript - released) * 1000, (entry - transcript) * 1000, (entry - released) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--final-engine", choices=("live", "whisper"), default="live")
    final_engine = parser.parse_args().final_engine
    if problem := missing():
        raise SystemExit(f"cannot run: {problem}")
    whisper = str(whisper_base_model(CACHE / "whisper-base")) if final_engine == "whisper" else ""
    app = QApplication([])
    with tempfile.TemporaryDirectory() as folder, FakeLlmServer(script := Script()) as server:
        work = Path(folder)
        for name in ("data", "config", "logs"):
            os.environ[f"MURMUR_{name.upper()}_DIR"] = str(work / name)
        wav = flite_wav(SENTENCE, work / "speech.wav")
        with private_pulseaudio(work / "pulse") as pulse:
            os.environ.update(pulse.env)
            settings = Settings()
            settings = replace(
                settings,
                speech=SpeechSettings(
                    engine="pocketsphinx", device=pulse.device, final_engine=final_engine, whisper_model=whisper
                ),
                ui=replace(settings.ui, audio_cues=False),
            )
            agent = LlmAgent(provider_for(server.base_url, follow_up_seconds=0), PrivacySettings())
            service = MurmurService(store=Store.open(work / "murmur.db"), interpreter=agent, clock=Clock.system)
            murmur = Murmur(service, settings, use_tray=False)
            murmur.start(listen_for_hotkey=False, preload_speech=True, check_setup=False)
            watch = Watch(murmur)
            results = []
            for run in range(-1, RUNS):  # run -1 warms up (the engine loads), not counted
                script.run = run
                result = watch.measure(pulse, wav, f"Call the dentist {run}")
                results += [result] if run >= 0 else []
            murmur.worker.close(10)
            service.store.close()
            del murmur, watch
            gc.collect()  # the app's objects go before the QApplication, on this thread
    app.shutdown()
    to_transcript, to_entry, total = (list(column) for column in zip(*results, strict=True))
    print(
        f"hotkey release -> entry in the list, {RUNS} runs, real speech (pocketsphinx, final pass: {final_engine}),"
        f" test LLM server instant; load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'stage':<34} {'median ms':>10} {'p90 ms':>8}")
    for name, values in (
        ("release -> final transcript", to_transcript),
        ("final transcript -> entry shown", to_entry),
        ("release -> entry shown", total),
    ):
        print(f"{name:<34} {statistics.median(values):>10.1f} {percentile(values, 0.9):>8.1f}")


if __name__ == "__main__":
    main()
