"""`murmur vocab` as a user runs it: the real command on a real database file, undone with `murmur undo`."""

from pathlib import Path

import pytest

from tests.support.murmur_cli import Murmur, assert_one_line_error


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "murmur.db", tmp_path)


def listed(murmur: Murmur) -> list[str]:
    done = murmur.run("vocab", "list")
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_add_replace_list_remove_and_undo(murmur: Murmur) -> None:
    added = murmur.run("vocab", "add", "Siobhan", "Kubernetes")
    assert added.returncode == 0, added.stderr
    assert added.stdout == "Added “Siobhan”\nAdded “Kubernetes”\n(undo: murmur undo)\n"
    replaced = murmur.run("vocab", "replace", "jay son", "JSON")
    assert replaced.stdout == "Added “jay son -> JSON”\n(undo: murmur undo)\n"
    assert listed(murmur) == ["Siobhan", "Kubernetes", "jay son -> JSON"]
    assert murmur.json("vocab", "list")[2] == {"term": "JSON", "heard": "jay son"}
    assert murmur.run("vocab", "add", "siobhan").stdout == "Edited “siobhan”\n(undo: murmur undo)\n"

    removed = murmur.run("vocab", "remove", "kubernetes")
    assert removed.stdout == "Removed “Kubernetes”\n(undo: murmur undo)\n"
    assert "Removed “Kubernetes” (word " in murmur.run("history").stdout
    undone = murmur.run("undo")  # the removal
    assert undone.returncode == 0 and undone.stdout.startswith("undone    remove of word "), undone.stdout
    assert murmur.run("undo").returncode == 0  # the respelling
    assert listed(murmur) == ["Siobhan", "Kubernetes", "jay son -> JSON"]

    missing = murmur.run("vocab", "remove", "Wispr")
    assert_one_line_error(missing, 2, "'Wispr' is not in your vocabulary; `murmur vocab list` lists them")


def test_export_then_import_into_another_database(murmur: Murmur, tmp_path: Path) -> None:
    murmur.run("vocab", "add", "Siobhan")
    murmur.run("vocab", "replace", "jay son", "JSON")
    words = tmp_path / "words.txt"
    exported = murmur.run("vocab", "export", str(words))
    assert exported.returncode == 0, exported.stderr
    assert words.read_text(encoding="utf-8").splitlines()[1:] == ["Siobhan", "jay son -> JSON"]
    assert murmur.run("vocab", "export").stdout == words.read_text(encoding="utf-8")
    assert murmur.run("vocab", "export", str(words)).returncode != 0  # not replaced without --force

    other = Murmur(tmp_path / "other.db", tmp_path)
    imported = other.run("vocab", "import", str(words))
    assert imported.returncode == 0, imported.stderr
    assert listed(other) == ["Siobhan", "jay son -> JSON"]
    assert other.run("vocab", "import", str(words)).stdout.count("Already there") == 2
