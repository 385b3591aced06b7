"""The Whisper model manager against a real HTTP server on 127.0.0.1 playing the Hugging Face hub.

The repos hold small fake files with the real names (model.bin, config.json, tokenizer.json, vocabulary.txt):
the manager only downloads and checks files, and loading a real Whisper model is tested elsewhere.
"""

import json
import os
from pathlib import Path

import pytest

from app.cli.output import cli_line
from app.config import SpeechSettings, load_settings
from app.errors import ModelError
from app.speech_in.download import DigestKind, file_digest
from app.speech_in.models import ModelManager
from app.speech_in.speech_models import SpeechModels, recommended_models
from app.speech_in.whisper_models import (
    CATALOGUE,
    WhisperModelManager,
    find_whisper_model,
    is_whisper_model_dir,
    whisper_model_path,
)
from tests.support.model_server import ModelServer
from tests.support.murmur_cli import Murmur, assert_one_line_error

NAME, REPO = "whisper-base.en", "Systran/faster-whisper-base.en"
NEEDED = ["config.json", "model.bin", "tokenizer.json", "vocabulary.txt"]


def repo_files(tag: bytes = b"") -> dict[str, bytes]:
    return {
        ".gitattributes": b"*.bin filter=lfs diff=lfs merge=lfs -text\n",
        "README.md": b"# faster-whisper base.en\n",
        "config.json": b'{"alignment_heads": [[3, 1]], "suppress_ids": [1, 2]}' + tag,
        "model.bin": bytes(range(256)) * 2000 + tag,  # ~500 KB: several chunks
        "tokenizer.json": b'{"model": {"type": "BPE"}}' + tag,
        "vocabulary.txt": b'!\n"\n#\n' + tag,
    }


@pytest.fixture
def manager(tmp_path: Path) -> WhisperModelManager:
    return WhisperModelManager(tmp_path / "models")


@pytest.fixture
def published(server: ModelServer) -> dict[str, bytes]:
    files = repo_files()
    server.hub_repo(REPO, files)
    return files


def fetched(requests: list[dict[str, str]]) -> list[str]:
    """The files the client asked the hub for (not the file list)."""
    return [r["path"] for r in requests if "/resolve/" in r["path"] or r["path"].startswith("/cdn/")]


def test_the_catalogue_names_the_official_repos() -> None:
    names = {m.name: m for m in CATALOGUE}
    assert names["whisper-base.en"].repo == "Systran/faster-whisper-base.en"
    assert names["whisper-distil-small.en"].repo == "Systran/faster-distil-whisper-small.en"
    assert names["whisper-large-v3-turbo"].repo == "mobiuslabsgmbh/faster-whisper-large-v3-turbo"
    assert names["whisper-large-v3"].repo == "Systran/faster-whisper-large-v3"
    assert {m.language for m in CATALOGUE if m.name.endswith(".en")} == {"en"}
    assert {m.language for m in CATALOGUE if not m.name.endswith(".en")} == {"multi"}
    assert len(names) == 11 and all(m.description and m.size > 50_000_000 for m in CATALOGUE)


def test_download_installs_the_folder_in_one_piece_with_a_manifest(
    server: ModelServer, manager: WhisperModelManager, published: dict[str, bytes]
) -> None:
    target = manager.folder / NAME
    progress: list[tuple[int, int | None]] = []
    seen_target: list[bool] = []

    def on_progress(done: int, total: int | None) -> None:
        progress.append((done, total))
        seen_target.append(target.exists())

    installed = manager.download(find_whisper_model(NAME), on_progress)
    assert (installed.name, installed.path, installed.kind, installed.language) == (NAME, target, "whisper", "en")
    assert sorted(p.name for p in target.iterdir()) == sorted([*NEEDED, "murmur-model.json"])
    assert all((target / name).read_bytes() == published[name] for name in NEEDED)
    assert is_whisper_model_dir(target) and not any(seen_target)  # never there half-made
    total = sum(len(published[name]) for name in NEEDED)
    assert progress[-1] == (total, total) and [d for d, _ in progress] == sorted(d for d, _ in progress)
    manifest = json.loads((target / "murmur-model.json").read_text())
    assert (manifest["name"], manifest["repo"], manifest["language"]) == (NAME, REPO, "en")
    assert manifest["files"]["model.bin"]["sha256"] == file_digest(target / "model.bin", DigestKind.SHA256)
    assert manifest["files"]["config.json"]["sha256"] == file_digest(target / "config.json", DigestKind.SHA256)
    assert not list((manager.folder / ".partial").iterdir())
    assert "/Systran/faster-whisper-base.en/resolve/main/README.md" not in fetched(server.requests)
    assert [m.name for m in manager.installed()] == [NAME]
    asked = len(server.requests)
    assert manager.download(find_whisper_model(NAME)).path == target and len(server.requests) == asked


def test_a_cut_connection_resumes_where_it_stopped(
    server: ModelServer, manager: WhisperModelManager, published: dict[str, bytes]
) -> None:
    server.cut_suffix = server.hub_file(REPO, "model.bin")  # the CDN path the hub redirects to
    server.cut_after = 100_000
    with pytest.raises(ModelError, match=r"model\.bin.*0\.1 MB kept, run the same command to resume") as error:
        manager.download(find_whisper_model(NAME))
    assert "\n" not in str(error.value)
    assert manager.installed() == [] and not (manager.folder / NAME).exists()
    assert (manager.folder / ".partial" / NAME / "model.bin").stat().st_size == 100_000
    before = len(server.requests)
    manager.download(find_whisper_model(NAME))
    model_bin = [f"/{REPO}/resolve/main/model.bin", server.hub_file(REPO, "model.bin")]
    assert fetched(server.requests[before:]) == model_bin  # the small files were kept
    assert server.requests[-1]["range"] == "bytes=100000-"  # sent on through the redirect
    assert (manager.folder / NAME / "model.bin").read_bytes() == published["model.bin"]


@pytest.mark.parametrize(("path", "check"), [("model.bin", "SHA-256"), ("config.json", "SHA-1")])
def test_a_file_that_fails_its_checksum_is_deleted(
    path: str, check: str, server: ModelServer, manager: WhisperModelManager, published: dict[str, bytes]
) -> None:
    served = server.hub_file(REPO, path)
    good = server.files[served]
    server.files[served] = good[:-1] + bytes([good[-1] ^ 1])  # same size, one bit off
    with pytest.raises(ModelError, match=rf"{NAME} \({path}\) is corrupt \({check} mismatch\); it was deleted"):
        manager.download(find_whisper_model(NAME))
    assert not (manager.folder / ".partial" / NAME / path).exists() and manager.installed() == []
    server.files[served] = good
    assert manager.download(find_whisper_model(NAME)).name == NAME  # the next run fetches it again


def test_the_large_v3_shape_brings_its_preprocessor_config(server: ModelServer, manager: WhisperModelManager) -> None:
    files = repo_files()
    files["vocabulary.json"] = json.dumps(["!", '"', "#"]).encode()
    files["preprocessor_config.json"] = b'{"feature_size": 128}'  # 128 mel bins: wrong without it
    del files["vocabulary.txt"]
    server.hub_repo("mobiuslabsgmbh/faster-whisper-large-v3-turbo", files)
    installed = manager.download(find_whisper_model("whisper-large-v3-turbo"))
    assert installed.language == "multi" and (installed.path / "preprocessor_config.json").is_file()
    assert sorted(p.name for p in installed.path.iterdir()) == [
        "config.json",
        "model.bin",
        "murmur-model.json",
        "preprocessor_config.json",
        "tokenizer.json",
        "vocabulary.json",
    ]


def test_a_repo_without_a_needed_file_is_refused(server: ModelServer, manager: WhisperModelManager) -> None:
    files = repo_files()
    del files["tokenizer.json"], files["vocabulary.txt"]
    server.hub_repo(REPO, files)
    with pytest.raises(ModelError, match=r"has no tokenizer\.json, vocabulary\.txt or vocabulary\.json"):
        manager.download(find_whisper_model(NAME))
    assert fetched(server.requests) == [] and manager.installed() == []


def test_a_listed_file_the_hub_does_not_serve_is_one_line(
    server: ModelServer, manager: WhisperModelManager, published: dict[str, bytes]
) -> None:
    del server.files[server.hub_file(REPO, "tokenizer.json")]
    with pytest.raises(ModelError, match=r"cannot download whisper-base\.en \(tokenizer\.json\).*HTTP 404"):
        manager.download(find_whisper_model(NAME))
    assert manager.installed() == []


def test_no_network_is_one_line(manager: WhisperModelManager, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MURMUR_WHISPER_HUB", "http://127.0.0.1:9")  # the discard port: closed
    with pytest.raises(ModelError, match=r"cannot fetch the file list of Systran/faster-whisper-base\.en") as error:
        manager.download(find_whisper_model(NAME))
    assert "connection was refused" in str(error.value) and "\n" not in str(error.value)
    with pytest.raises(ModelError, match="no Whisper model named 'whisper-huge'"):
        find_whisper_model("whisper-huge")


def test_remove_renames_first_and_leaves_nothing(
    server: ModelServer, manager: WhisperModelManager, published: dict[str, bytes]
) -> None:
    path = manager.download(find_whisper_model(NAME)).path
    assert manager.remove(NAME) == path
    assert not path.exists() and sorted(p.name for p in manager.folder.iterdir()) == [".partial"]
    with pytest.raises(ModelError, match="no installed model"):
        manager.remove(NAME)


def whisper_folder(folder: Path, language: str | None = None) -> Path:
    """A Whisper-shaped folder made by hand (as a user would copy one in); a manifest if `language` is given."""
    folder.mkdir(parents=True)
    for name, data in repo_files().items():
        (folder / name).write_bytes(data)
    if language is not None:
        (folder / "murmur-model.json").write_text(json.dumps({"language": language}))
    return folder


def test_resolve_by_name_and_by_folder(tmp_path: Path, manager: WhisperModelManager) -> None:
    installed = whisper_folder(manager.folder / "whisper-small")
    elsewhere = whisper_folder(tmp_path / "my models" / "fine-tuned")
    assert manager.resolve("whisper-small") == installed
    assert manager.resolve(str(elsewhere)) == elsewhere
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelError, match="is not a Whisper model folder"):
        manager.resolve(str(tmp_path / "empty"))
    with pytest.raises(ModelError, match="no Whisper model 'whisper-tiny'"):
        manager.resolve("whisper-tiny")
    settings = SpeechSettings(models_dir=str(manager.folder))
    assert whisper_model_path(SpeechSettings(models_dir=str(manager.folder), whisper_model=str(elsewhere))) == elsewhere
    assert whisper_model_path(settings) == installed  # nothing named: the best installed
    with pytest.raises(ModelError, match="no Whisper model 'gone'"):
        whisper_model_path(SpeechSettings(models_dir=str(manager.folder), whisper_model="gone"))


def test_best_for_prefers_english_only_for_english_and_the_newest(tmp_path: Path, manager: WhisperModelManager) -> None:
    assert manager.best_for("en") is None
    settings = SpeechSettings(models_dir=str(manager.folder), language="de")
    assert whisper_model_path(settings) is None
    with pytest.raises(ModelError) as raised:
        whisper_model_path(settings, required=True)
    assert "murmur models download whisper-base`" in cli_line(raised.value)
    # Seconds old: the English-only models are the older ones, so "English only first" is what picks them.
    ages = {"whisper-base.en": 300, "copied-in": 250, "whisper-tiny": 200, "whisper-small": 100}
    for name, age in ages.items():
        # "copied-in" has no ".en" in its name, but its manifest says English only
        path = whisper_folder(manager.folder / name, language="en" if name == "copied-in" else None)
        os.utime(path, (path.stat().st_atime, path.stat().st_mtime - age))
    (manager.folder / "vosk-model-small-de-0.1" / "conf").mkdir(parents=True)
    (manager.folder / "vosk-model-small-de-0.1" / "conf" / "model.conf").write_text("--sample-frequency=16000\n")
    assert [m.name for m in manager.installed()] == ["whisper-small", "whisper-tiny", "copied-in", "whisper-base.en"]
    assert [m.name for m in manager.installed("de")] == ["whisper-small", "whisper-tiny"]
    best_en, best_de = manager.best_for("en-US"), manager.best_for("de")
    assert best_en is not None and best_en.name == "copied-in"  # the newest English-only one
    assert best_de is not None and best_de.name == "whisper-small"  # multilingual and newest
    assert whisper_model_path(settings) == manager.folder / "whisper-small"
    assert [m.name for m in ModelManager(manager.folder).installed()] == ["vosk-model-small-de-0.1"]


def test_recommended_models(server: ModelServer, monkeypatch: pytest.MonkeyPatch) -> None:
    server.listing(
        [
            server.row("vosk-model-small-de-0.15", b"1", "de"),
            {**server.row("vosk-model-de-0.21", b"22", "de"), "type": "big"},
        ]
    )
    english = recommended_models("en")  # Whisper alone: the live words need no Vosk model in English
    assert [(r.kind, r.name) for r in english] == [("whisper", NAME)]
    assert english[0].size_text == "148 MB" and english[0].purpose
    assert [(r.kind, r.name) for r in recommended_models("de")] == [
        ("vosk", "vosk-model-small-de-0.15"),
        ("whisper", "whisper-base"),
    ]
    monkeypatch.setenv("MURMUR_VOSK_MODEL_LIST", "http://127.0.0.1:9/model-list.json")
    assert [r.name for r in recommended_models("de")] == ["whisper-base"]  # offline: what is known
    assert [r.name for r in recommended_models("en")] == [NAME]  # English needs no list


def test_both_kinds_side_by_side(server: ModelServer, tmp_path: Path, published: dict[str, bytes]) -> None:
    models = SpeechModels(tmp_path / "models")
    assert models.download(NAME).kind == "whisper"
    kind, path = models.resolve(NAME)
    assert (kind.kind, path) == ("whisper", tmp_path / "models" / NAME)
    assert [(m.name, m.kind) for m in models.installed("en")] == [(NAME, "whisper")]
    with pytest.raises(ModelError, match="no Whisper model named 'whisper-enormous'"):
        models.download("whisper-enormous")
    assert models.remove(NAME) == path and models.installed() == []


@pytest.fixture
def murmur(server: ModelServer, tmp_path: Path) -> Murmur:
    """The real `murmur` command, its models in tmp_path/data/models, the hub and the Vosk list on the server."""
    return Murmur(
        tmp_path / "murmur.db",
        tmp_path,
        MURMUR_DATA_DIR=str(tmp_path / "data"),
        MURMUR_WHISPER_HUB=server.url,
        MURMUR_VOSK_MODEL_LIST=f"{server.url}/model-list.json",
    )


def test_murmur_models_list_available_offline_vosk_list(murmur: Murmur, server: ModelServer) -> None:
    done = murmur.run("models", "list", "--available", "--json")  # no Vosk list on the server: a 404
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("murmur: warning: cannot fetch the Vosk model list") and done.stderr.count("\n") == 1
    rows = json.loads(done.stdout)
    assert {r["kind"] for r in rows} == {"whisper"} and NAME in {r["name"] for r in rows}
    assert "whisper-base" in {r["name"] for r in rows} and "whisper-tiny.en" in {r["name"] for r in rows}
    server.listing([server.row("vosk-model-small-de-0.15", b"1", "de"), server.row("vosk-model-small-xx", b"2")])
    rows = murmur.json("models", "list", "--available", "--language", "de")
    assert [(r["name"], r["kind"]) for r in rows][0] == ("vosk-model-small-de-0.15", "vosk")
    assert "whisper-base" in {r["name"] for r in rows} and NAME not in {r["name"] for r in rows}
    assert rows[0]["type"] == "small" and rows[0]["installed"] is False


def test_murmur_models_download_list_use_remove(
    murmur: Murmur, server: ModelServer, published: dict[str, bytes], tmp_path: Path
) -> None:
    done = murmur.run("models", "download", NAME)
    assert done.returncode == 0, done.stderr
    assert "downloading" in done.stderr and f"installed {NAME}" in done.stdout
    assert is_whisper_model_dir(tmp_path / "data" / "models" / NAME)
    listed = murmur.json("models", "list")
    assert [(m["name"], m["kind"], m["language"], m["in_use"]) for m in listed] == [(NAME, "whisper", "en", False)]
    assert murmur.json("models", "use", NAME)["setting"] == "speech.whisper_model"
    speech = load_settings().speech
    assert (speech.whisper_model, speech.final_engine, speech.model) == (NAME, "auto", "")
    assert murmur.json("models", "list")[0]["in_use"] is True
    assert murmur.json("models", "remove", NAME)["removed"] == NAME
    assert not (tmp_path / "data" / "models" / NAME).exists()
    assert_one_line_error(murmur.run("models", "use", NAME), 6, f"no Whisper model {NAME!r}")


def test_murmur_models_download_without_network_is_one_line(tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path, MURMUR_WHISPER_HUB="http://127.0.0.1:9")
    assert_one_line_error(murmur.run("models", "download", NAME), 6, "the connection was refused")
