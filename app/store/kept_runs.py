"""The last runs, kept beside the database (`<db stem>-runs.jsonl`) to see what is slow or failing: when each
began, its source, how long each stage took, each event's kind, stage and moment, and how it ended. Never what
was said: the words stay in the database.

One JSON line per run, appended (a run costs one short write, not the whole file again) under an exclusive lock
on the file, owner-only. The file is cut back to the last KEPT runs only once it has grown past twice that, in
place (truncated, never replaced: a writer waiting for the lock must append to the file the next reader reads).
A line a crash left torn is passed over when reading, and the next run starts on a line of its own.
"""

import json
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from app.file_locks import lock
from app.private_files import PRIVATE_FILE

log = logging.getLogger("murmur.run")

KEPT = 50  # the runs read back; the file holds up to twice as many between two trims


class Ending(StrEnum):
    """How a run ended."""

    CHANGED = "changed"  # it changed entries or memories
    ASKED = "asked"  # nothing done: a question back, or readings offered to choose from
    ANSWERED = "answered"  # an answer in words, nothing to change
    NOTHING = "nothing"  # read, and nothing came of it
    FAILED = "failed"  # an error ended it; what was said waits in the inbox
    STOPPED = "stopped"  # ended before its last stage without an error of its own (Ctrl+C)


@dataclass(frozen=True)
class KeptEvent:
    """One event of a kept run: its kind (the event's class), its stage and when, in ms from the run's start."""

    kind: str
    stage: str
    ms: int


@dataclass(frozen=True)
class KeptRun:
    id: str
    began: datetime | None  # the run's first event, to the second (None: it reported none)
    source: str  # voice, typed, cli
    ending: Ending
    ms: Mapping[str, int] = field(default_factory=dict)  # each stage timed, in the order it ran
    events: tuple[KeptEvent, ...] = ()
    applied: int = 0  # the changes made
    interpreter: str = ""  # what read it ("offline": the built-in rules)
    failed: str | None = None  # the error's code (llm, store, speech, ...)
    error: str = ""  # the error's kind, by its class (LlmError, ModelFault); never its message


@dataclass(frozen=True)
class KeptRuns:
    path: Path

    @classmethod
    def beside(cls, db_path: Path) -> "KeptRuns":
        return cls(db_path.with_name(f"{db_path.stem}-runs.jsonl"))

    def keep(self, run: KeptRun) -> None:
        """Append `run` as the newest; a file that cannot be written is logged, never a reason to fail the run."""
        line = json.dumps(_facts(run)).encode() + b"\n"
        try:
            descriptor = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, PRIVATE_FILE)
            with os.fdopen(descriptor, "r+b", buffering=0) as file:
                lock(descriptor, wait=True)
                os.fchmod(descriptor, PRIVATE_FILE)  # one made before the mode was set keeps its own otherwise
                held = file.read()
                torn = bool(held) and not held.endswith(b"\n")  # a crash cut the last line short
                file.write(b"\n" + line if torn else line)
                lines = (held + b"\n" if torn else held).splitlines(keepends=True) + [line]
                if len(lines) > 2 * KEPT:
                    file.truncate(0)
                    file.write(b"".join(lines[-KEPT:]))
        except OSError as error:
            log.warning("the run %s was not kept in %s: %s", run.id, self.path, error)

    def read(self) -> list[KeptRun]:
        """The last KEPT runs, oldest first; lines that do not read as a run (torn, foreign) are passed over."""
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return []
        runs = [run for line in text.splitlines() if (run := _run(line)) is not None]
        return runs[-KEPT:]


def _facts(run: KeptRun) -> dict[str, Any]:
    return {
        "id": run.id,
        "began": run.began.isoformat(timespec="seconds") if run.began else "",
        "source": run.source,
        "ms": dict(run.ms),
        "events": [[event.kind, event.stage, event.ms] for event in run.events],
        "ended": run.ending.value,
        "failed": run.failed,
        "error": run.error,
        "applied": run.applied,
        "interpreter": run.interpreter,
    }


def _run(line: str) -> KeptRun | None:
    """One line as a run; None for one that is not (torn by a crash, or not a run)."""
    try:
        facts = json.loads(line)
        return KeptRun(
            id=str(facts["id"]),
            began=datetime.fromisoformat(facts["began"]) if facts["began"] else None,
            source=str(facts["source"]),
            ending=Ending(facts["ended"]),
            ms={str(stage): int(ms) for stage, ms in facts["ms"].items()},
            events=tuple(KeptEvent(str(kind), str(stage), int(ms)) for kind, stage, ms in facts["events"]),
            applied=int(facts["applied"]),
            interpreter=str(facts["interpreter"]),
            failed=str(facts["failed"]) if facts["failed"] else None,
            error=str(facts["error"]),
        )
    except (ValueError, TypeError, KeyError, AttributeError):  # JSONDecodeError is a ValueError
        return None
