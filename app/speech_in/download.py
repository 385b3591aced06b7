"""Resumable, verified downloads of model files: HTTP GET with Range resume into a staging file, then a size and
digest check. One copy of this logic serves the Vosk zips and the Whisper files from Hugging Face.

Every failure is a ModelError with one line fit to show the user: no internet, an HTTP code, a cut connection
(with how much is kept for the next run), a wrong size or checksum (the bad file is deleted first). One on the
way to the server is a DownloadError, which also says the host, what was fetched and whether the machine seems
offline, for a window to word it as a sentence of its own (app/presentation/downloads.py).
"""

import hashlib
import http.client
import json
import logging
import socket
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from app.errors import ModelError

log = logging.getLogger("murmur.speech")

CHUNK = 256 * 1024
TIMEOUT_SECONDS = 30.0

ProgressCallback = Callable[[int, int | None], None]  # bytes done, bytes in all (None: unknown)
NO_NAME = "no internet connection (the name could not be resolved)"


class DownloadError(ModelError):
    """`what` could not be had from the server at `url`: `problem` in words, `offline` when no network seems up."""

    def __init__(self, verb: str, what: str, url: str, problem: str, *, offline: bool = False) -> None:
        super().__init__(f"cannot {verb} {what} from {url}: {problem}")
        self.what, self.problem, self.offline = what, problem, offline
        self.host = urlsplit(url).hostname or url


class DigestKind(StrEnum):
    MD5 = "md5"  # the Vosk model list
    SHA256 = "sha256"  # Hugging Face LFS files (the big ones: model.bin)
    GIT_BLOB_SHA1 = "git-blob-sha1"  # small files in a Hugging Face repo: git's object id of the content

    @property
    def label(self) -> str:
        return {"md5": "MD5", "sha256": "SHA-256", "git-blob-sha1": "SHA-1"}[self.value]


@dataclass(frozen=True)
class Digest:
    kind: DigestKind
    value: str  # lowercase hex

    def matches(self, path: Path) -> bool:
        return file_digest(path, self.kind) == self.value.lower()


@dataclass(frozen=True)
class RemoteFile:
    """One file to download: where from, the name messages use, and what it must be (size, digest)."""

    url: str
    label: str  # "vosk-model-small-en-us-0.15", "whisper-base.en (model.bin)"
    size: int | None = None
    digest: Digest | None = None


def file_digest(path: Path, kind: DigestKind) -> str:
    """The hex digest of a file read in blocks (model files are up to a few GB)."""
    if kind is DigestKind.MD5:
        digest = hashlib.md5(usedforsecurity=False)
    elif kind is DigestKind.SHA256:
        digest = hashlib.sha256()
    else:
        digest = hashlib.sha1(usedforsecurity=False)
        digest.update(b"blob %d\0" % path.stat().st_size)  # git hashes a header, then the content
    with path.open("rb") as data:
        while block := data.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def download_all(files: Sequence[tuple[RemoteFile, Path]], on_progress: ProgressCallback | None = None) -> None:
    """The files of one model, one after the other, each to its target; progress counts through them all."""
    total = sum(remote.size or 0 for remote, _ in files)
    done = 0
    for remote, target in files:
        progress = None if on_progress is None else _through(on_progress, done, total)
        download(remote, target, progress)
        done += remote.size or 0
        if on_progress is not None:
            on_progress(done, total)  # also for a file complete from an earlier run


def _through(on_progress: ProgressCallback, before: int, total: int) -> ProgressCallback:
    """One file's progress as progress through all the files (`before` bytes of them done)."""
    return lambda done, _: on_progress(before + done, total)


def download(remote: RemoteFile, target: Path, on_progress: ProgressCallback | None = None) -> None:
    """Fetch `remote` into `target`, resuming what an earlier run left there, and check it; ModelError if not."""
    fetch(remote, target, on_progress)
    verify(remote, target)


def fetch(remote: RemoteFile, target: Path, on_progress: ProgressCallback | None = None) -> None:
    """Download into `target`, asking only for the bytes it lacks (HTTP Range); what arrived is kept on failure."""
    have = target.stat().st_size if target.exists() else 0
    if remote.size is not None and have > remote.size:
        target.unlink()  # longer than the file can be: not a prefix of it
        have = 0
    if remote.size is not None and have == remote.size:
        return  # complete from an earlier run; verified next
    request = urllib.request.Request(remote.url, headers={"Range": f"bytes={have}-"} if have else {})
    done = have
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            if have and response.status != 206:
                done = 0  # the server ignored the Range: start again from the beginning
            elif have:
                log.info("resuming the download of %s at %d bytes", remote.label, have)
            length = response.headers.get("Content-Length")
            expected_end = done + int(length) if length and length.isdigit() else None
            total = remote.size or expected_end
            with target.open("ab" if done else "wb") as out:
                while chunk := response.read(CHUNK):
                    out.write(chunk)
                    done += len(chunk)
                    if on_progress is not None:
                        on_progress(done, total)
            if expected_end is not None and done < expected_end:
                # http.client ends a body cut short quietly; say so now rather than as a size mismatch later
                raise ConnectionError("the connection was cut")
    except urllib.error.HTTPError as error:
        error.close()  # it holds the response and its socket
        if error.code == 416 and have:  # nothing left to send: what we have is all there is
            return
        raise DownloadError("download", remote.label, remote.url, f"HTTP {error.code} {error.reason}") from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
        kept = f"; {done / 1_000_000:.1f} MB kept, run the same command to resume" if done else ""
        problem = f"{reason(error)}{kept}"
        raise DownloadError("download", remote.label, remote.url, problem, offline=is_offline(error)) from None


def verify(remote: RemoteFile, target: Path) -> None:
    """Check the size and the digest; a file that cannot become right by resuming is deleted."""
    size = target.stat().st_size
    if remote.size is not None and size != remote.size:
        if size > remote.size:
            target.unlink()
        raise ModelError(
            f"the download of {remote.label} is incomplete ({size} of {remote.size} bytes); "
            "run the same command to resume"
        )
    if remote.digest is not None and not remote.digest.matches(target):
        target.unlink()
        raise ModelError(
            f"the download of {remote.label} is corrupt ({remote.digest.kind.label} mismatch); "
            "it was deleted, try again"
        )


def fetch_json(url: str, what: str) -> Any:
    """A small JSON document (a model list, a repo's file list); ModelError naming `what` if it can't be had."""
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_SECONDS) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        error.close()  # it holds the response and its socket
        raise DownloadError("fetch", what, url, f"HTTP {error.code} {error.reason}") from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
        raise DownloadError("fetch", what, url, reason(error), offline=is_offline(error)) from None
    except ValueError:
        raise ModelError(f"{what} at {url} is not valid JSON") from None


def reason(error: BaseException) -> str:
    """Why a connection failed, in words for the user."""
    cause = getattr(error, "reason", None) or error
    if is_offline(error):
        return NO_NAME
    if isinstance(cause, ConnectionRefusedError):
        return "the connection was refused (no internet, or the server is down)"
    if isinstance(cause, TimeoutError):
        return f"no answer within {TIMEOUT_SECONDS:g} s"
    return str(cause) or type(cause).__name__


def is_offline(error: BaseException) -> bool:
    """The failure looks like no network at all: the server's name could not be resolved."""
    cause = getattr(error, "reason", None) or error
    text = str(cause)
    return isinstance(cause, socket.gaierror) or any(
        words in text for words in ("Name or service not known", "Temporary failure in name resolution")
    )
