"""Reading a clause by the open entry it names first, then what the rest of its words ask of that entry."""

from app.offline.entity_first.reading import (
    Back,
    EntityReading,
    joined_where_named,
    read_about_entries,
    said_back,
    unknown_edit,
)

__all__ = ["Back", "EntityReading", "joined_where_named", "read_about_entries", "said_back", "unknown_edit"]
