"""`murmur mcp`: the MCP server on stdin and stdout, and `murmur mcp config`, the entry a client's settings take."""

import argparse
import logging

import anyio

from app.api.service import build_service
from app.api.settings import load_settings, log_library
from app.cli.exits import ExitCode
from app.cli.output import print_json
from app.mcp.client_config import client_config
from app.mcp.server import MurmurMcp

log = logging.getLogger("murmur.mcp")


def cmd_mcp(args: argparse.Namespace) -> int:
    settings = load_settings()
    service = build_service(args.db, settings, offline=args.offline)
    log_library("mcp")  # the SDK's own warnings go to Murmur's log: stdout is the protocol's, stderr the client's
    went_away = False
    try:
        anyio.run(MurmurMcp(service, settings).run_stdio)
    except* (BrokenPipeError, ConnectionResetError):  # the client closed its end while an answer was on its way
        went_away = True
        log.info("the client closed the connection; what it asked for before is kept")
    finally:
        service.close()
    return ExitCode.BROKEN_PIPE if went_away else ExitCode.OK


def cmd_mcp_config(args: argparse.Namespace) -> int:
    print_json(client_config(args.db))
    return ExitCode.OK
