"""What a model's run is worth, judged against the built-in rules' reading of the same words: work it left
undone though it said it did, an honest "no" (kept), an answer about the list that the list contradicts.

A fault found here makes the run a failure of the model: its changes are taken back and the fallback (the
rules, or the inbox) takes the utterance."""

import re
from collections.abc import Sequence

from app.changes.interpretation import AgentOutcome, InterpretContext, Interpreter
from app.changes.workspace import Workspace
from app.domain.actions import CreateAction
from app.domain.enums import Category
from app.domain.model_text import only_said
from app.store.models import Entry

# Words that say why nothing changed: the model tried and could not, or found nothing to change.
_SAYS_NO = re.compile(
    r"\b(could ?n[o']t|can ?n[o']t|cannot|unable|did ?n[o']t|does ?n[o']t|is ?n[o']t|was ?n[o']t|no such"
    r"|not (?:find|found|see|exist|there)|there (?:is|are|was|were) no|nothing (?:matches|to|was|is))\b",
    re.IGNORECASE,
)
# ... and that it is about the list, not about what the model can do ("I can't set reminders").
_ABOUT_THE_LIST = re.compile(r"\b(find|found|exist|such|match\w*|entry|entries|list|there)\b", re.IGNORECASE)
_NOTHING_DUE = re.compile(r"\b(nothing|no|not|none|free|clear)\b", re.IGNORECASE)
_NAMING_WORD = re.compile(r"[^\W\d_]{4,}")
_COMMON = frozenset({"this", "that", "with", "from", "have", "some", "about", "make", "call", "check", "todo"})


def fault_in(text: str, outcome: AgentOutcome, workspace: Workspace, rules: Interpreter) -> str | None:
    """Why the model's run cannot stand, or None when it does: it changed nothing and asked nothing though
    the rules find work in what was said (and it did not say why nothing changed), or its answer about the
    list names what the rules' answer does not."""
    if workspace.applied or workspace.memory_changes or outcome.question:
        return None
    entries = workspace.context_entries()
    done_lately = workspace.done_lately()
    parsed = rules.interpret(text, InterpretContext(entries=entries, clock=workspace.clock, done_lately=done_lately))
    if parsed.answer is not None:
        return _wrong_answer(outcome.message or "", parsed.answer, [*entries, *done_lately])
    asked = all(isinstance(a, CreateAction) and a.category is Category.QUESTION for a in parsed.actions)
    if not parsed.actions or asked or says_why_nothing_changed(outcome.message or "", bool(workspace.failures)):
        return None
    return f"the model changed nothing ({only_said(outcome.message)})"


def says_why_nothing_changed(message: str, tried: bool) -> bool:
    """An honest "no": "I could not find that entry" after a change that failed, or "there is no dentist on
    your list"; not "Done!", and not "I can't do that" without a try."""
    return bool(_SAYS_NO.search(message)) and (tried or bool(_ABOUT_THE_LIST.search(message)))


def _wrong_answer(message: str, answer: str, entries: Sequence[Entry]) -> str | None:
    """The model's answer to a question the rules answer from the list (what is due when), checked against
    theirs: it must name an entry they name, and no dated entry they leave out; when they name none, it must
    name an undated entry or say there is nothing."""
    named = [entry for entry in entries if entry.summary in answer]
    mentioned = [entry for entry in entries if _mentions(message, entry)]
    if named:
        wrong = not any(entry in named for entry in mentioned)
    else:
        wrong = not mentioned and not _NOTHING_DUE.search(message)
    wrong = wrong or any(entry.due_at is not None and entry not in named for entry in mentioned)
    return f"the model's answer does not match the list ({only_said(message)})" if wrong else None


def _mentions(message: str, entry: Entry) -> bool:
    """The message names the entry by one of its telling words ("dentist" for "Call the dentist")."""
    words = {word.lower() for word in _NAMING_WORD.findall(entry.summary)} - _COMMON
    said = {word.lower() for word in _NAMING_WORD.findall(message)}
    return bool(words & said)
