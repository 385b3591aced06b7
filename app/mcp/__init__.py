"""`murmur mcp`: the list as a Model Context Protocol server, for other assistants to read and change."""
