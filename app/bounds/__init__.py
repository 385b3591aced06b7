"""One set of bounds that every way in holds: the agent's tools, MCP, import, sync, the CLI and the window."""
