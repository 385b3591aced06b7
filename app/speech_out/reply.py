"""What of a run's result is said aloud, and whether the microphone then listens for an answer.

Speech is for what the user is waiting to hear: Murmur's question, its answer to theirs. A change the list
already shows is only confirmed aloud when the user wants every reply spoken ("always") or asked for it.
"""

from dataclasses import dataclass
from enum import StrEnum

from app.changes.executor import AppliedAction
from app.domain.clock import Clock
from app.domain.enums import ActionKind, UtteranceSource
from app.service import PipelineResult
from app.speech_out.spoken import clock_words, day_words, spoken_text


class ReplyMode(StrEnum):
    OFF = "off"
    QUESTIONS = "questions"  # Murmur's questions, and its answers to the user's questions
    ALWAYS = "always"  # and a short confirmation of what changed


class FollowUpAfter(StrEnum):
    QUESTIONS = "questions"
    REPLIES = "replies"


@dataclass(frozen=True)
class SpokenReply:
    text: str  # what is said: the reply made fit for the ear
    question: bool  # the reply asks the user something: listen for the answer

    def listens_after(self, after: FollowUpAfter, seconds: float) -> bool:
        return seconds > 0 and (self.question or after is FollowUpAfter.REPLIES)


_VERBS = {
    ActionKind.CREATE: "added",
    ActionKind.UPDATE: "changed",
    ActionKind.COMPLETE: "ticked off",
    ActionKind.ARCHIVE: "archived",
    ActionKind.SNOOZE: "snoozed",
}
MAX_NAMED = 3  # entries named in a confirmation; more are counted


def confirmation(applied: list[AppliedAction], clock: Clock) -> str:
    """What changed, in a sentence: "I added call the dentist, Thursday at 3 pm, and ticked off buy milk." """
    if not applied:
        return "Nothing changed."
    parts = []
    for item in applied[:MAX_NAMED]:
        what = f"{_VERBS[item.action.kind]} {item.entry.summary}"
        due = item.entry.due_at
        if due is not None and item.action.kind in (ActionKind.CREATE, ActionKind.SNOOZE, ActionKind.UPDATE):
            local = due.astimezone(clock.tz)
            what += f", {day_words(local.date(), clock.now.astimezone(clock.tz).date())}"
            what += f" at {clock_words(local.hour, local.minute)}"
        parts.append(what)
    if len(applied) > MAX_NAMED:
        parts.append(f"{len(applied) - MAX_NAMED} more")
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + ", and " + parts[-1]
    return f"I {listed}."


def spoken_reply(result: PipelineResult, mode: ReplyMode, clock: Clock) -> SpokenReply | None:
    """What to say for `result` under `mode`; None: nothing (the text reply is shown either way)."""
    if mode is ReplyMode.OFF:
        return None
    if result.message and (result.question or result.answered or mode is ReplyMode.ALWAYS):
        return SpokenReply(spoken_text(result.message, clock.now, clock.tz), result.question)
    if mode is ReplyMode.ALWAYS:
        return SpokenReply(spoken_text(confirmation(result.applied, clock), clock.now, clock.tz), False)
    return None


def reply_mode_for(source: UtteranceSource, setting: str) -> ReplyMode:
    """Spoken to, Murmur answers aloud (as speech.reply says); typed to, it answers on screen only."""
    return ReplyMode(setting) if source is UtteranceSource.VOICE else ReplyMode.OFF
