"""The official MCP client starting `python -m app mcp` as a real process on a real database file, as Claude
Desktop would: what a test calls, and what it gets back."""

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.support.murmur_cli import ROOT, Murmur

CLIENT = "Claude Desktop"


@asynccontextmanager
async def mcp_session(murmur: Murmur, client: str = CLIENT) -> AsyncIterator[ClientSession]:
    """A session with `murmur mcp --offline` on `murmur`'s database, initialized as `client`."""
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "app", "mcp", "--offline"], env=dict(murmur.env), cwd=ROOT
    )
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write, client_info=types.Implementation(name=client, version="1.0")) as session:
            await session.initialize()
            yield session


def text_of(result: types.CallToolResult) -> str:
    [content] = result.content
    assert isinstance(content, types.TextContent)
    return content.text


async def called(session: ClientSession, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The data of a call that succeeded (a failed one fails the test, saying why)."""
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, text_of(result)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def history(murmur: Murmur) -> list[dict[str, Any]]:
    done = murmur.run("history", "--json")
    assert done.returncode == 0, done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found
