"""`python -m app` does what the `murmur` command does."""

from app.cli import run

run()
