"""A real HTTP server on 127.0.0.1 for the model managers: the Vosk model list and its zips, and a fake Hugging
Face hub (a repo's file list at /api/models/REPO/tree/main, its files at /REPO/resolve/main/PATH, the big ones
sent on to a "CDN" path with a redirect as the real hub does). Ranges, cut connections and a server that
ignores ranges can be asked for."""

import hashlib
import http.server
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest


@dataclass
class ModelServer:
    url: str
    files: dict[str, bytes]
    requests: list[dict[str, str]] = field(default_factory=list)
    cut_after: int | None = None  # drop the connection after this many bytes of a file ending in `cut_suffix` (once)
    cut_suffix: str = ".zip"
    ignore_range: bool = False
    redirects: dict[str, str] = field(default_factory=dict)  # path -> the path a 302 sends the client on to

    # -- the Vosk model list ----------------------------------------------------------------------

    def listing(self, rows: list[dict[str, object]]) -> None:
        self.files["/model-list.json"] = json.dumps(rows).encode()

    def row(self, name: str, data: bytes, lang: str = "xx", md5: str | None = None) -> dict[str, object]:
        self.files[f"/models/{name}.zip"] = data
        return {
            "name": name,
            "lang": lang,
            "lang_text": lang,
            "url": f"{self.url}/models/{name}.zip",
            "size": len(data),
            "md5": md5 or hashlib.md5(data).hexdigest(),
            "type": "small",
            "obsolete": "false",
            "version": "0.1",
        }

    # -- the Hugging Face hub ---------------------------------------------------------------------

    def hub_repo(
        self, repo: str, files: dict[str, bytes], lfs: tuple[str, ...] = ("model.bin",)
    ) -> list[dict[str, object]]:
        """Publish `files` as `repo` (those in `lfs` as LFS files, sent on to the CDN); returns the file list."""
        rows: list[dict[str, object]] = [{"type": "directory", "oid": "0" * 40, "size": 0, "path": "onnx"}]
        for path, data in files.items():
            resolve = f"/{repo}/resolve/main/{path}"
            if path in lfs:
                sha256 = hashlib.sha256(data).hexdigest()
                pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{sha256}\nsize {len(data)}\n"
                cdn = f"/cdn/{sha256}"
                self.files[cdn] = data
                self.redirects[resolve] = cdn
                lfs_row = {"oid": sha256, "size": len(data), "pointerSize": len(pointer)}
                rows.append({"type": "file", "oid": git_blob_sha1(pointer.encode()), "size": len(data), "lfs": lfs_row})
            else:
                self.files[resolve] = data
                rows.append({"type": "file", "oid": git_blob_sha1(data), "size": len(data)})
            rows[-1]["path"] = path
        self.hub_tree(repo, rows)
        return rows

    def hub_tree(self, repo: str, rows: list[dict[str, object]]) -> None:
        self.files[f"/api/models/{repo}/tree/main"] = json.dumps(rows).encode()

    def hub_file(self, repo: str, path: str) -> str:
        """The server path a repo's file is finally served from (the CDN one for an LFS file)."""
        resolve = f"/{repo}/resolve/main/{path}"
        return self.redirects.get(resolve, resolve)

    # -- Piper's voice repository (rhasspy/piper-voices) ------------------------------------------

    def piper_voices(self, voices: dict[str, tuple[bytes, bytes]], md5s: dict[str, str] | None = None) -> None:
        """Publish voices.json and each voice's model and config: {key: (onnx, onnx.json)}; `md5s` overrides
        a file's listed MD5 by its name (a catalogue that does not match the file)."""
        catalogue = {}
        for key, (model, config) in voices.items():
            code = key.split("-")[0]
            family, _, region = code.partition("_")
            folder = f"{family}/{code}/{key.split('-')[1]}/{key.split('-')[2]}"
            files = {}
            for name, data in ((f"{key}.onnx", model), (f"{key}.onnx.json", config), ("MODEL_CARD", b"card")):
                self.files[f"/rhasspy/piper-voices/resolve/main/{folder}/{name}"] = data
                md5 = (md5s or {}).get(name) or hashlib.md5(data).hexdigest()
                files[f"{folder}/{name}"] = {"size_bytes": len(data), "md5_digest": md5}
            catalogue[key] = {
                "key": key,
                "name": key.split("-")[1],
                "language": {
                    "code": code,
                    "family": family,
                    "region": region,
                    "name_english": family,
                    "country_english": region,
                },
                "quality": key.split("-")[2],
                "num_speakers": 1,
                "speaker_id_map": {},
                "files": files,
                "aliases": [],
            }
        self.files["/rhasspy/piper-voices/resolve/main/voices.json"] = json.dumps(catalogue).encode()


def git_blob_sha1(data: bytes) -> str:
    """git's object id for a file: what the hub lists as the oid of a small file."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModelServer]:
    """The server, with MURMUR_VOSK_MODEL_LIST, MURMUR_WHISPER_HUB and MURMUR_PIPER_HUB pointing at it."""
    state = ModelServer(url="", files={})

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            state.requests.append({"path": self.path, "range": self.headers.get("Range", "")})
            if self.path in state.redirects:
                self.send_response(302)
                self.send_header("Location", f"{state.url}{state.redirects[self.path]}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            data = state.files.get(self.path)
            if data is None:
                self.send_error(404)
                return
            start = 0
            ranged = self.headers.get("Range", "")
            if ranged and not state.ignore_range:
                start = int(ranged.removeprefix("bytes=").split("-")[0])
                if start >= len(data):
                    self.send_error(416)
                    return
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
            else:
                self.send_response(200)
            body = data[start:]
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if state.cut_after is not None and self.path.endswith(state.cut_suffix):
                self.wfile.write(body[: state.cut_after])
                state.cut_after = None
                self.close_connection = True
                return
            self.wfile.write(body)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True)  # 0.02 s: quick to stop
    thread.start()
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    monkeypatch.setenv("MURMUR_VOSK_MODEL_LIST", f"{state.url}/model-list.json")
    monkeypatch.setenv("MURMUR_WHISPER_HUB", state.url)
    monkeypatch.setenv("MURMUR_PIPER_HUB", state.url)
    yield state
    httpd.shutdown()
    httpd.server_close()
    thread.join()
