"""What recall finds, as rows and as the text an assistant reads."""

from app.memory.recall import RecallHit, render_hits

__all__ = ["RecallHit", "render_hits"]
