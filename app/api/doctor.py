"""The bug-report check: what works here and what does not (import it where it is used)."""

from app.doctor.checks import diagnose

__all__ = ["diagnose"]
