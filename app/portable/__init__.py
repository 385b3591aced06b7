"""Murmur's entries outside Murmur: writing and reading JSON, Markdown, iCalendar, todo.txt and CSV."""
