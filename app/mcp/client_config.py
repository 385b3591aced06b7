"""The entry a client's configuration takes to start `murmur mcp` (Claude Desktop's claude_desktop_config.json,
and the many clients that copied its "mcpServers" shape)."""

from pathlib import Path
from typing import Any

from app.api.desktop import launcher
from app.api.settings import default_db_path


def client_config(db: Path) -> dict[str, Any]:
    """{"mcpServers": {"murmur": ...}}: this installation's `murmur` by its absolute path, with the database when
    it is not the default one."""
    command, *args = launcher()
    named = [] if db == default_db_path() else ["--db", str(db.resolve())]
    return {"mcpServers": {"murmur": {"command": command, "args": [*args, "mcp", *named]}}}
