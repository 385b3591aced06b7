"""A run, from the key press (or Enter, or `murmur add`, or an MCP call) to the entry shown and the reply said; the
last runs, kept without their words."""

from app.changes.interpretation import RunOptions
from app.offline.entity_first.words import warm
from app.run.conductor import Stages, drive, keeper
from app.run.run import Again, HeardWords, Run
from app.service import RehearOffer
from app.speech_out.reply import FollowUpAfter, ReplyMode, SpokenReply, reply_mode_for
from app.store.kept_runs import Ending, KeptEvent, KeptRun

__all__ = [
    "Again",
    "Ending",
    "FollowUpAfter",
    "HeardWords",
    "KeptEvent",
    "KeptRun",
    "RehearOffer",
    "ReplyMode",
    "Run",
    "RunOptions",
    "SpokenReply",
    "Stages",
    "drive",
    "keeper",
    "reply_mode_for",
    "warm",
]
