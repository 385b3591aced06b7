"""`murmur mcp config`: the entry Claude Desktop's configuration takes, starting this installation's Murmur."""

import json
from pathlib import Path

from tests.support.murmur_cli import Murmur


def test_the_entry_names_murmur_by_its_absolute_path(tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path)
    entry = json.loads(murmur.run("mcp", "config").stdout)["mcpServers"]["murmur"]
    assert Path(entry["command"]).is_absolute() and Path(entry["command"]).exists()
    assert entry["args"][-1] == "mcp"  # the default database: nothing to name


def test_a_database_of_its_own_is_named_in_the_entry(tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path)
    other = tmp_path / "work.db"
    entry = json.loads(murmur.run("mcp", "config", "--db", str(other)).stdout)["mcpServers"]["murmur"]
    assert entry["args"][-3:] == ["mcp", "--db", str(other)]
