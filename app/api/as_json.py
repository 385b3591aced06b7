"""Entries, changes and runs as the JSON the CLI prints and the MCP server answers."""

from app.render import (
    applied_json,
    entry_json,
    failure_json,
    history_json,
    iso,
    kept_run_json,
    memory_json,
    page_json,
    report_json,
    undo_json,
    utterance_json,
)

__all__ = [
    "applied_json",
    "entry_json",
    "failure_json",
    "history_json",
    "iso",
    "kept_run_json",
    "memory_json",
    "page_json",
    "report_json",
    "undo_json",
    "utterance_json",
]
