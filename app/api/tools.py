"""The agent's tools, as the MCP server offers them to other assistants, and a page of entries as they read it."""

from app.agent.search_tool import render_page
from app.agent.tools import ARCHIVE, COMPLETE, CREATE, MUTATING, RECALL, SEARCH, SNOOZE, TOOLS, UPDATE

__all__ = ["ARCHIVE", "COMPLETE", "CREATE", "MUTATING", "RECALL", "SEARCH", "SNOOZE", "TOOLS", "UPDATE", "render_page"]
