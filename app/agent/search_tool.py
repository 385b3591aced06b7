"""search_entries: the model's way to every entry the context leaves out, a page at a time."""

from collections.abc import Mapping
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import Session

from app.domain.clock import Clock
from app.memory.entry_search import SearchPage, search_page
from app.memory.lines import entry_lines
from app.memory.search_arguments import ToolArgumentError, search_request


def render_page(page: SearchPage, tz: ZoneInfo, tool: str = "search_entries") -> str:
    """The page's entry lines; when there are more, which call of `tool` gives the next page."""
    if not page.rows:
        return "No entries match." if not page.offset else f"No more entries: all {page.total} were shown."
    first, last = page.offset + 1, page.offset + len(page.rows)
    lines = [f"Entries {first}-{last} of {page.total}:", *entry_lines(page.rows, page.short_ids, tz)]
    if page.next_offset is not None:
        lines.append(f"More: call {tool} again with the same arguments and offset={page.next_offset}.")
    return "\n".join(lines)


def run_search(session: Session, arguments: Mapping[str, Any], clock: Clock) -> str:
    """The tool's result text: a page of entry lines, or "Error: ..." for arguments it cannot use."""
    try:
        request = search_request(arguments, clock)
    except ToolArgumentError as error:
        return f"Error: {error}"
    return render_page(search_page(session, clock.now, request), clock.tz)
