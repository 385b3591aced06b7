"""The last runs, kept beside the database for `murmur doctor`: when each began, how long each stage took, each
event's kind, stage and moment, and how it ended. Not what was said: the words stay in the database, this file is
for finding what is slow or failing.
"""

import json
import logging
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from app.domain.events import PipelineEvent, Stage
from app.private_files import write_private_text
from app.run.run import Run

log = logging.getLogger("murmur.run")

KEPT = 50


@dataclass(frozen=True)
class KeptRuns:
    path: Path

    @classmethod
    def beside(cls, db_path: Path) -> "KeptRuns":
        return cls(db_path.with_name(f"{db_path.stem}-runs.jsonl"))

    def keep(self, run: Run) -> None:
        """Add `run` (ended) as the newest, the oldest past KEPT dropped; a file that cannot be written is logged,
        never a reason to fail the run."""
        lines = [json.dumps(facts(run))]  # the stages in their order
        try:
            write_private_text(self.path, "\n".join((self._lines() + lines)[-KEPT:]) + "\n")
        except OSError as error:
            log.warning("the run %s was not kept in %s: %s", run.id, self.path, error)

    def read(self) -> list[dict[str, Any]]:
        """The kept runs, oldest first; lines that do not read as a run are passed over."""
        runs = []
        for line in self._lines():
            try:
                found = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(found, dict):
                runs.append(found)
        return runs

    def _lines(self) -> list[str]:
        try:
            return [line for line in self.path.read_text(encoding="utf-8", errors="replace").splitlines() if line]
        except FileNotFoundError:
            return []


def _event(event: PipelineEvent, began: datetime) -> list[object]:
    """One event as kept: its kind, its stage and when (ms into the run), not what it says."""
    return [type(event).__name__, event.stage.value, round((event.timestamp - began).total_seconds() * 1000)]


def facts(run: Run) -> dict[str, Any]:
    """What is kept of one run: no words, only its shape and times."""
    began = run.events[0].timestamp.isoformat(timespec="seconds") if run.events else ""
    result = run.result
    return {
        "id": run.id,
        "began": began,
        "source": run.source.value,
        "ms": {stage.value: round(run.seconds[stage] * 1000) for stage in Stage if stage in run.seconds},
        "events": [_event(event, run.events[0].timestamp) for event in run.events],
        "failed": run.failure.code.value if run.failure else None,
        "applied": len(result.applied) if result else 0,
        "interpreter": result.interpreter if result else "",
    }
