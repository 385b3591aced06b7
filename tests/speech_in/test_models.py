"""The model manager against a real HTTP server on 127.0.0.1 serving zips built here.

The zips hold a model-shaped folder (am/final.mdl, conf/model.conf, graph/), not a real Vosk model:
downloading 50 MB per test would be slow, and loading is tested with the real Korean model elsewhere.
"""

import json
from pathlib import Path

import pytest

from app.cli import main
from app.config import load_settings
from app.errors import ModelError
from app.speech_in.models import AvailableModel, ModelManager
from tests.support.fake_models import VOSK_XX, vosk_zip, zip_of
from tests.support.model_server import ModelServer


@pytest.fixture
def manager(tmp_path: Path) -> ModelManager:
    return ModelManager(tmp_path / "models")


def available(server: ModelServer, data: bytes, **row: str) -> AvailableModel:
    server.listing([server.row(VOSK_XX, data, **row)])
    return ModelManager(Path("/nonexistent")).find_available(VOSK_XX)


def test_the_list_is_filtered_by_language(server: ModelServer, manager: ModelManager) -> None:
    rows = [
        server.row("vosk-model-small-en-us-0.15", b"1", "en-us"),
        server.row("vosk-model-small-de-0.15", b"2", "de"),
    ]
    server.listing([*rows, {"name": "broken row"}, {**rows[0], "name": "old", "obsolete": "true"}])
    assert [m.name for m in manager.available("en")] == ["vosk-model-small-en-us-0.15"]
    assert [m.name for m in manager.available("de")] == ["vosk-model-small-de-0.15"]
    assert len(manager.available()) == 2


def test_download_with_progress_installs_a_model(server: ModelServer, manager: ModelManager) -> None:
    data = vosk_zip(VOSK_XX)
    model = available(server, data)
    progress: list[tuple[int, int | None]] = []
    installed = manager.download(model, on_progress=lambda done, total: progress.append((done, total)))
    assert installed.path == manager.folder / VOSK_XX and (installed.path / "am" / "final.mdl").is_file()
    assert [m.name for m in manager.installed()] == [VOSK_XX]
    assert progress[-1] == (len(data), len(data))
    assert [d for d, _ in progress] == sorted(d for d, _ in progress)
    assert not list((manager.folder / ".partial").iterdir())  # nothing left behind
    assert manager.download(model).path == installed.path  # already there: no second download
    assert len([r for r in server.requests if r["path"].endswith(".zip")]) == 1


def test_an_interrupted_download_resumes_where_it_stopped(server: ModelServer, manager: ModelManager) -> None:
    data = vosk_zip(VOSK_XX)
    model = available(server, data)
    server.cut_after = 100_000
    with pytest.raises(ModelError, match=r"run the same command to resume"):
        manager.download(model)
    assert manager.installed() == []  # a half download never looks like a model
    assert (manager.folder / ".partial" / f"{VOSK_XX}.zip").stat().st_size == 100_000
    manager.download(model)
    assert server.requests[-1]["range"] == "bytes=100000-"
    assert [m.name for m in manager.installed()] == [VOSK_XX]


def test_a_server_that_ignores_the_range_restarts_cleanly(server: ModelServer, manager: ModelManager) -> None:
    model = available(server, vosk_zip(VOSK_XX))
    server.cut_after = 50_000
    with pytest.raises(ModelError):
        manager.download(model)
    server.ignore_range = True
    assert manager.download(model).name == VOSK_XX  # the MD5 check passed: no duplicated bytes


def test_a_corrupt_download_is_deleted_and_nothing_installed(server: ModelServer, manager: ModelManager) -> None:
    model = available(server, vosk_zip(VOSK_XX), md5="0" * 32)
    with pytest.raises(ModelError, match="corrupt"):
        manager.download(model)
    assert manager.installed() == [] and not (manager.folder / ".partial" / f"{VOSK_XX}.zip").exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"<html>not found</html>", "not a zip archive"),
        (vosk_zip(VOSK_XX, extra={"../evil.txt": b"x"}), "unsafe path"),
        (zip_of({"README": b"models are elsewhere"}), "no Vosk model"),
    ],
    ids=["html", "zip-slip", "no-model"],
)
def test_archives_that_are_not_models_are_refused(
    data: bytes, message: str, server: ModelServer, manager: ModelManager, tmp_path: Path
) -> None:
    with pytest.raises(ModelError, match=message):
        manager.download(available(server, data))
    assert manager.installed() == [] and not (tmp_path / "evil.txt").exists()


def test_no_internet_is_one_clear_line(manager: ModelManager, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MURMUR_VOSK_MODEL_LIST", "http://127.0.0.1:9/model-list.json")  # the discard port: closed
    with pytest.raises(ModelError, match="cannot fetch the Vosk model list") as error:
        manager.available()
    assert "\n" not in str(error.value)


def test_models_commands_download_use_list_remove(
    server: ModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.listing([server.row(VOSK_XX, vosk_zip(VOSK_XX)), server.row("vosk-model-small-yy-0.1", vosk_zip("m"), "yy")])
    assert main(["models", "list", "--available", "--language", "xx"]) == 0
    assert VOSK_XX in capsys.readouterr().out
    assert main(["models", "download", VOSK_XX]) == 0
    assert "installed" in capsys.readouterr().out
    assert main(["models", "use", VOSK_XX]) == 0
    assert load_settings().speech.model == VOSK_XX
    capsys.readouterr()
    assert main(["models", "list", "--language", "xx", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(m["name"], m["in_use"]) for m in listed] == [(VOSK_XX, True)]
    assert main(["models", "remove", VOSK_XX]) == 0
    assert not (tmp_path / "data" / "models" / VOSK_XX).exists()
    capsys.readouterr()
    assert main(["models", "use", "nothing-here"]) == 6  # speech: no such model
    assert main(["models", "download", "no-such-model"]) == 6
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("murmur: error: ") for line in err)
