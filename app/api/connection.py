"""Trying the model's server as set up (loads the openai client: import it where it is used)."""

from app.agent.connection import ConnectionReport, test_connection

__all__ = ["ConnectionReport", "test_connection"]
