"""The arguments of `murmur mcp`; what it runs is imported from app.cli.mcp when it does."""

import argparse
from typing import Any


def add_commands(
    sub: "argparse._SubParsersAction[Any]", common: argparse.ArgumentParser, as_json: argparse.ArgumentParser
) -> None:
    serving = sub.add_parser(
        "mcp",
        parents=[common],
        help="serve the list to other assistants (Claude Desktop, coding agents) over MCP on stdin and stdout",
    )
    serving.add_argument(
        "--offline", action="store_true", help="read `add`'s words with the built-in rules, not the LLM"
    )
    serving.set_defaults(func="app.cli.mcp:cmd_mcp")
    actions = serving.add_subparsers(dest="mcp_command", metavar="ACTION")
    config = actions.add_parser(
        "config", parents=[common], help="print the entry to paste into claude_desktop_config.json (mcpServers)"
    )
    config.set_defaults(func="app.cli.mcp:cmd_mcp_config")
