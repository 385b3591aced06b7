"""An action that was not applied, in words: the CLI's line, the window's (no IDs, the entry named once) and
the model's tool result. The window words it from the failure's kind and fields, never from its error text."""

from collections.abc import Sequence

from app.changes.executor import ActionFailure
from app.domain.actions import CreateAction, ParseFailure
from app.domain.enums import ActionKind, FailureKind
from app.presentation.names import quoted
from app.presentation.summaries import summarize
from app.terminal import terminal_safe

# What was tried, as "Couldn't <verb>" says it.
_TRIED = {
    ActionKind.CREATE: "add",
    ActionKind.UPDATE: "change",
    ActionKind.COMPLETE: "complete",
    ActionKind.ARCHIVE: "archive",
    ActionKind.SNOOZE: "snooze",
}
CANDIDATES_NAMED = 4  # "it could be 'A', 'B', 'C' or 'D'"
RUN_FAILED = "Couldn't process what you said"


def failure_line(failure: ActionFailure) -> str:
    """The CLI's line on stderr: 'complete failed: no entry has ID '3fa1b2''."""
    return f"{failure.kind} failed: {failure.error}"


def tool_failure_line(failure: ActionFailure) -> str:
    """What the model reads: 'Error: complete [3fa1b2] failed: ...' (the ID it gave, when it gave one)."""
    action = failure.action
    target = None if action is None or isinstance(action, CreateAction) else action.entry_id
    return f"Error: {failure.kind} {f'[{target}] ' if target else ''}failed: {failure.error}"


def tool_parse_failure_line(failure: ParseFailure) -> str:
    """What the model reads of an item of its call that could not become an action."""
    return f"Error: {failure.tool}: {failure.error}"


def _tried(tool: str) -> str | None:
    """The verb of the action (or the model's tool for it, 'complete_entries') tried; None for another tool."""
    name = tool.removesuffix("_entries")
    return next((verb for kind, verb in _TRIED.items() if kind.value == name), None)


def _could_be(candidates: tuple[str, ...]) -> str:
    """ "'A' or 'B'", "'A', 'B' or 'C'": the first few entries ambiguous words could mean."""
    names = [f"'{terminal_safe(name, multiline=False)}'" for name in candidates[:CANDIDATES_NAMED]]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _detail(failure: ActionFailure) -> str:
    """Why, with the entry said as "it" (the head names it) and no ID (meaningless to the user)."""
    cause = failure.cause
    if cause.prefix is not None:
        if cause.kind is FailureKind.AMBIGUOUS:
            return "that ID fits more than one entry; give more characters"
        return "no entry has that ID"
    if cause.subject is not None and cause.kind is FailureKind.NOT_FOUND:
        return "no open entry matches it"
    if cause.subject is not None and cause.kind is FailureKind.AMBIGUOUS and cause.candidates:
        return f"it is ambiguous: it could be {_could_be(cause.candidates)}; say which"
    error = terminal_safe(failure.error, multiline=False)
    return error if cause.subject is None else error.replace(f"'{cause.subject}'", "it", 1)


def failure_words(failure: ActionFailure) -> str:
    """The window's line: "Couldn't complete “eggs”: no open entry matches it"; an ID becomes "that ID"."""
    tried = _tried(failure.kind)
    head = f"Couldn't {tried}" if tried else "Couldn't do it"
    if failure.cause.subject is not None:
        head += f" {quoted(failure.cause.subject)}"
    detail = _detail(failure)
    return f"{head}: {detail}" if detail else head


def refused_title(failures: Sequence[ActionFailure]) -> str:
    """A change made by hand (a menu, a key, a reminder's button) that changed nothing, as the window says it: the one
    failure's own line ("Couldn't snooze “Call mom”: ..."), else how many failed, the lines listed below it."""
    return failure_words(failures[0]) if len(failures) == 1 else summarize([], failures)


def run_failed_message(reason: str, waiting: bool) -> str:
    """Why a run did nothing; it says the words wait in the Inbox only when they were kept there (`waiting`)."""
    return f"{reason}. It waits in the Inbox." if waiting else f"{reason}."
