"""Text made safe to print: what a stored entry says never moves the user's terminal."""

from app.terminal import dumps, safe_data, terminal_safe, unbroken_data

__all__ = ["dumps", "safe_data", "terminal_safe", "unbroken_data"]
