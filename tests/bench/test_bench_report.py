"""docs/benchmarks.md has a block for every bench `make bench` runs, and a run rewrites only its own block."""

import importlib.util
import re
import shlex
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_report() -> ModuleType:
    """bench/ is scripts, not a package: the module is loaded from its file."""
    spec = importlib.util.spec_from_file_location("bench_report", ROOT / "bench" / "report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


report = load_report()


def test_every_bench_make_bench_runs_has_its_block() -> None:
    page = report.PAGE.read_text(encoding="utf-8")
    for command in report.BENCHES:
        assert f"<!-- bench: {command} -->\n" in page, command


def test_every_block_names_a_bench_that_exists() -> None:
    page = report.PAGE.read_text(encoding="utf-8")
    commands = re.findall(r"<!-- bench: (.+?) -->", page)
    assert len(commands) >= len(report.BENCHES)
    for command in commands:
        assert (ROOT / shlex.split(command)[0]).is_file(), command


def test_a_block_is_rewritten_and_the_words_around_it_kept() -> None:
    page = "intro\n<!-- bench: a.py -->\nold\n<!-- end -->\nmiddle\n<!-- bench: a.py --x -->\nkept\n<!-- end -->\n"
    assert report.replace_block(page, "a.py", "new\n") == page.replace("old\n", "new\n")
    assert report.replace_block(page, "a.py --x", "") == page.replace("kept\n", "")


def test_a_bench_with_no_block_is_refused() -> None:
    with pytest.raises(SystemExit, match="no block for 'b.py'"):
        report.replace_block("<!-- bench: a.py -->\n<!-- end -->", "b.py", "x\n")
