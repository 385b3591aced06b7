"""The MCP server: the tools and resources over stdio, each call one call into the application service.

Built on the SDK's low-level `Server`, not `MCPServer`: that one derives a tool's schema from a Python signature,
and these schemas are the agent's own (app/mcp/catalog.py), handed over as they are. Every result is redacted as
the model's requests are when privacy.redact is on: what an assistant reads leaves the machine with its model.
"""

import logging
from collections.abc import Mapping
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INVALID_PARAMS

from app.api.edits import Caps
from app.api.service import MurmurService
from app.api.settings import Settings, __version__
from app.api.terminal import safe_data, terminal_safe
from app.domain.enums import DueSpan
from app.domain.redaction import redact
from app.errors import MurmurError, UsageError, Words
from app.mcp.calls import CALLS, Caller, Reply
from app.mcp.catalog import ToolSpec, tool_specs
from app.mcp.wire import protocol_streams
from app.presentation.assistants import (
    READ_ONLY,
    READ_ONLY_CLOSED,
    READ_ONLY_CLOSED_FIX,
    READ_ONLY_OFF,
    assistant_remedy,
)

log = logging.getLogger("murmur.mcp")

UNNAMED_CLIENT = "an MCP client"  # a client that gave no name in its initialize request
NAME_CHARS = 60  # a client's name as History shows it, at most
RESOURCES = {"murmur://today": DueSpan.TODAY, "murmur://week": DueSpan.WEEK}
_RESOURCE_WORDS = {
    DueSpan.TODAY: ("Today", "What is due today, the late entries first, as text"),
    DueSpan.WEEK: ("The week ahead", "What is due in the next seven days, soonest first, as text"),
}


def client_name(ctx: ServerRequestContext[Any, Any]) -> str:
    """The client's own name, from its initialize request (clientInfo): what its batches are marked with."""
    params = ctx.session.client_params
    info = params.client_info if params is not None else None
    named = (info.title or info.name) if info is not None else ""
    shown = " ".join("".join(c if c.isprintable() else " " for c in named or "").split())[:NAME_CHARS]
    return shown or UNNAMED_CLIENT


class MurmurMcp:
    """The tools and resources one `murmur mcp` process serves, on one service."""

    def __init__(self, service: MurmurService, settings: Settings) -> None:
        self.service = service
        self.settings = settings
        self.closed = settings.closed_because("mcp")  # the settings cannot be trusted: read only, no memories
        read_only = settings.mcp.read_only or self.closed is not None
        specs = tool_specs(settings.mcp.allow_memories and self.closed is None)
        self.specs = {spec.name: spec for spec in specs if not (spec.writes and read_only)}
        self.refused = {spec.name for spec in specs if spec.writes and read_only}
        self.made: set[int] = set()  # the batches made through this process: the only ones its client may undo
        self.server: Server[Any] = Server(
            "murmur",
            version=__version__,
            title="Murmur",
            instructions=_instructions(self.closed),
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_resources=self._list_resources,
            on_read_resource=self._read_resource,
        )

    async def _list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[_tool(spec) for spec in self.specs.values()])

    async def _call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        client = client_name(ctx)
        try:
            # In the protocol's loop, not on a thread: a request read is answered (and its change made whole)
            # before the loop reads on, so a client that closes its end after asking still gets what it asked.
            reply = self.call(params.name, params.arguments or {}, client)
        except MurmurError as error:
            log.info("%s: %s refused: %s", client, params.name, error)
            return _error(error)
        except Exception:  # a bug: the client hears that much, the log has the rest
            log.exception("%s: %s failed", client, params.name)
            return _error(MurmurError(f"internal error in {params.name}; details in Murmur's log"))
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=self._shown(reply.text))],
            structured_content=self._shown_data(reply.data),
        )

    def call(self, name: str, arguments: Mapping[str, Any], client: str) -> Reply:
        """Tool `name`'s reply to `arguments`, for `client`; a MurmurError says why it cannot be done."""
        if name in self.refused:
            if self.closed:
                raise UsageError(f"{READ_ONLY_CLOSED}: {self.closed}", Words(READ_ONLY_CLOSED_FIX))
            raise UsageError(READ_ONLY, Words(READ_ONLY_OFF))
        if name not in self.specs:
            raise UsageError(f"unknown tool {name!r}; the tools are {', '.join(self.specs)}")
        caps = Caps(self.settings.llm.confirm_over, self.settings.llm.max_mutations)
        caller = Caller(self.service, client, caps, self.settings.mcp.allow_memories and self.closed is None, self.made)
        log.info("%s: %s", client, name)
        return CALLS[name](caller, arguments)

    async def _list_resources(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        resources = [
            types.Resource(uri=uri, name=name, description=description, mime_type="text/plain")
            for uri, (name, description) in ((uri, _RESOURCE_WORDS[span]) for uri, span in RESOURCES.items())
        ]
        return types.ListResourcesResult(resources=resources)

    async def _read_resource(
        self, ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri not in RESOURCES:
            raise MCPError(INVALID_PARAMS, f"no resource {uri}; there are {', '.join(RESOURCES)}")
        reply = self.call("whats_due", {"when": RESOURCES[uri].value}, client_name(ctx))
        contents = types.TextResourceContents(uri=uri, text=self._shown(reply.text), mime_type="text/plain")
        return types.ReadResourceResult(contents=[contents])

    def _shown(self, text: str) -> str:
        """`text` as it may leave the machine: without what a program would act on (escapes, bidi overrides),
        and redacted when the user asked for it."""
        text = terminal_safe(text)
        return redact(text).text if self.settings.privacy.redact else text

    def _shown_data(self, data: dict[str, Any]) -> dict[str, Any]:
        """`data` as it may leave the machine: cleaned as the text is, the user's words in it redacted like the
        text (IDs, times and names of kinds hold none, and are left as they are)."""
        data = safe_data(data)
        return _redacted(data) if self.settings.privacy.redact else data

    async def run_stdio(self) -> None:
        requests_in, answers_out = protocol_streams()
        async with stdio_server(stdin=requests_in, stdout=answers_out) as (read_stream, write_stream):
            await self.server.run(read_stream, write_stream, self.server.create_initialization_options())


def _instructions(closed: str | None) -> str:
    usual = (
        "The user's kept list of todos, reminders and notes. Read it with search_entries and whats_due; every "
        "change is one batch the user sees in Murmur's History and can undo."
    )
    return usual if closed is None else f"{usual} {READ_ONLY_CLOSED}: {closed}. {READ_ONLY_CLOSED_FIX}."


# The fields of a result that hold the user's words (an entry's, an item's, a memory's, what was said and answered).
_WORDS = {"content", "summary", "source_text", "text", "said", "reply", "done", "due_text", "message", "until_text"}


def _redacted(data: dict[str, Any]) -> dict[str, Any]:
    return {key: _words_redacted(value) if key in _WORDS else _nested(value) for key, value in data.items()}


def _nested(value: Any) -> Any:
    if isinstance(value, dict):
        return _redacted(value)
    if isinstance(value, list):
        return [_nested(item) for item in value]
    return value


def _words_redacted(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value).text
    if isinstance(value, list):
        return [_words_redacted(item) for item in value]
    return _nested(value)


def _tool(spec: ToolSpec) -> types.Tool:
    annotations = types.ToolAnnotations(read_only_hint=not spec.writes, open_world_hint=False)
    return types.Tool(
        name=spec.name, description=spec.description, input_schema=spec.input_schema, annotations=annotations
    )


def _error(error: MurmurError) -> types.CallToolResult:
    """A tool error the client's model reads: the message, what the user can do, and its code as data."""
    said = terminal_safe(str(error))
    text = said if error.remedy is None else f"{said}; {assistant_remedy(error.remedy)}"
    data = {"error": {"code": error.code.value, "message": said, "utterance_id": error.utterance_id}}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], structured_content=data, is_error=True
    )
