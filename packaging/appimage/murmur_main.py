"""The bundle's entry point: the `murmur` command, as the wheel's console script runs it."""

from app.cli import run

run()
