"""Murmur's values and rules: entries' enums, actions, dates, the clock, pipeline events. Pure: no store, no I/O."""
