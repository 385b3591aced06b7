"""The `murmur` command on bad input: bytes that are not UTF-8, a broken settings file, a closed pipe, numbers
out of range."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.murmur_cli import ROOT, Murmur, assert_one_line_error


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "murmur.db", tmp_path)


@pytest.mark.slow  # a process of its own
def test_invalid_utf8_on_stdin_keeps_the_words_with_one_warning(murmur: Murmur) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app", "add", "-", "--offline", "--json"],
        input=b"\xff\xfe buy milk",
        capture_output=True,
        env=murmur.env,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.decode().count("\n") == 1 and "not valid UTF-8" in done.stderr.decode()
    assert "buy milk" in murmur.json("list")[0]["content"]


def test_a_broken_settings_file_warns_and_the_list_still_works(murmur: Murmur, tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text("[llm\ntimeout_seconds = ", encoding="utf-8")
    added = murmur.run("add", "--offline", "buy milk")
    assert added.returncode == 0 and "settings.toml" in added.stderr and added.stderr.count("\n") == 1
    assert murmur.run("list").returncode == 0
    shown = murmur.run("config", "show")
    assert shown.returncode == 2 and "cannot read the settings file" in shown.stderr


def test_a_timeout_out_of_range_is_refused_and_ignored_in_the_file(murmur: Murmur, tmp_path: Path) -> None:
    refused = murmur.run("config", "set", "llm.timeout_seconds", "0")
    assert refused.returncode == 2 and "llm.timeout_seconds must be between 1 and 600" in refused.stderr
    (tmp_path / "config" / "settings.toml").parent.mkdir(exist_ok=True)
    (tmp_path / "config" / "settings.toml").write_text("[llm]\ntimeout_seconds = -1\n", encoding="utf-8")
    listed = murmur.run("list")
    assert listed.returncode == 0 and "llm.timeout_seconds" in listed.stderr and "default" in listed.stderr


@pytest.mark.slow  # a process of its own
def test_a_closed_pipe_ends_quietly(murmur: Murmur) -> None:
    murmur.run("add", "--offline", "buy milk")
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written, as after `| head` has had its lines
    try:
        done = subprocess.run(
            [sys.executable, "-m", "app", "list"], stdout=write_end, stderr=subprocess.PIPE, env=murmur.env, cwd=ROOT
        )
    finally:
        os.close(write_end)
    assert done.stderr == b"" and done.returncode == 141


HUGE = str(2**64)


@pytest.mark.parametrize(
    "args",
    [
        ["undo", "--batch", HUGE],
        ["undo", "--action", HUGE],
        ["retry", HUGE],
        ["dismiss", HUGE],
        ["history", "--limit", HUGE],
        ["log", "--limit", HUGE],
        ["session", "list", "--limit", HUGE],
        ["undo", "--batch", "0"],
        ["history", "--limit", "-1"],
        ["listen", "--seconds", "nan"],
        ["listen", "--seconds", "1e9"],
    ],
)
def test_a_number_out_of_range_is_refused_as_it_is_read(murmur: Murmur, args: list[str]) -> None:
    murmur.run("add", "--offline", "buy milk")
    before = murmur.run("history").stdout

    assert_one_line_error(murmur.run(*args), 2, f"{args[-1]} is not a")
    assert murmur.run("history").stdout == before
