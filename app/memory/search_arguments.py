"""The arguments of a search of the entries (the agent's search_entries, an assistant's over MCP), read into a
request; what is wrong with them is said in words the caller can act on."""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from app.bounds.limits import MAX_COUNT
from app.domain.clock import Clock
from app.domain.dates import resolve_due
from app.domain.enums import Category, Status
from app.memory.entry_search import SearchRequest, SearchSort

_OPEN = (Status.ACTIVE, Status.SNOOZED)


class ToolArgumentError(ValueError):
    """An argument the model got wrong (search_entries, recall); its message goes back as "Error: ..."."""


def _statuses(value: Any) -> tuple[Status, ...]:
    if value in (None, "", "any"):
        return tuple(Status)
    if value == "open":
        return _OPEN
    try:
        return (Status(value),)
    except ValueError:
        raise ToolArgumentError(
            f"status {value!r} is not one of {', '.join(s.value for s in Status)}, open, any"
        ) from None


def time_argument(arguments: Mapping[str, Any], key: str, clock: Clock) -> datetime | None:
    """The moment a tool's time argument names ("last week", "Friday"); None when it is not given."""
    phrase = str(arguments.get(key) or "").strip()
    if not phrase:
        return None
    moment = resolve_due(phrase, clock)
    if moment is None:
        raise ToolArgumentError(f"{key} {phrase!r} is not a time I can read; try 'tomorrow', 'last week' or a date")
    return moment


def _integer(arguments: Mapping[str, Any], key: str, default: int) -> int:
    value = arguments.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ToolArgumentError(f"{key} must be a whole number")
    try:
        number = int(value)
    except (ValueError, OverflowError):  # words, or an infinity
        raise ToolArgumentError(f"{key} must be a whole number") from None
    if not 0 <= number <= MAX_COUNT:  # past it, SQLite's integers overflow
        raise ToolArgumentError(f"{key} must be a whole number from 0 to {MAX_COUNT:,}")
    return number


def search_request(arguments: Mapping[str, Any], clock: Clock) -> SearchRequest:
    """The request the model's arguments describe; ToolArgumentError says what is wrong with them."""
    category = arguments.get("category")
    if category not in (None, "") and category not in {c.value for c in Category}:
        raise ToolArgumentError(f"category {category!r} is not one of {', '.join(c.value for c in Category)}")
    sort = arguments.get("sort") or SearchSort.RELEVANCE.value
    if sort not in {s.value for s in SearchSort}:
        raise ToolArgumentError(f"sort {sort!r} is not one of {', '.join(s.value for s in SearchSort)}")
    return SearchRequest(
        words=str(arguments.get("query") or ""),
        statuses=_statuses(arguments.get("status")),
        category=Category(category) if category else None,
        due_after=time_argument(arguments, "due_after", clock),
        due_before=time_argument(arguments, "due_before", clock),
        sort=SearchSort(sort),
        limit=_integer(arguments, "limit", 20),
        offset=_integer(arguments, "offset", 0),
    )
