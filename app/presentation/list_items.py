"""A change of a list's items in words, alike in the toast, the details and the history: "Removed “bananas” from
“Shopping list”", "Added “butter” and “jam” to “Shopping list”", "Unticked “charger” on “Packing”"."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.presentation.names import quoted

# The update's field, what it did and how the items stand to the list.
_ITEM_FIELDS = {"add_items": ("added", "to"), "remove_items": ("removed", "from"), "untick_item": ("unticked", "on")}
ITEM_VERBS = tuple(verb for verb, _ in _ITEM_FIELDS.values())


@dataclass(frozen=True)
class ItemChange:
    verb: str  # "removed"
    items: tuple[str, ...]
    preposition: str  # "from"

    def named(self, list_name: str) -> str:
        """ "“bananas” from “Shopping list”": what a title says after the verb."""
        items = [quoted(text) for text in self.items]
        said = items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
        return f"{said} {self.preposition} {quoted(list_name)}"

    def words(self, list_name: str) -> str:
        return f"{self.verb.capitalize()} {self.named(list_name)}"


def item_change(changes: Mapping[str, Any]) -> ItemChange | None:
    """The change when an update only adds, removes or unticks items; None for any other update."""
    if len(changes) != 1:
        return None
    [(field, value)] = changes.items()
    if field not in _ITEM_FIELDS:
        return None
    verb, preposition = _ITEM_FIELDS[field]
    items = (value,) if isinstance(value, str) else tuple(str(text) for text in value)
    return ItemChange(verb, items, preposition) if items else None
