"""Entries, actions, dates, the executor and undo: Murmur's domain, free of Qt and of I/O details."""
