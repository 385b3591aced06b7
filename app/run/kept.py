"""What is kept of an ended run for `murmur runs` and `murmur doctor` (app/store/kept_runs.py keeps it): its shape
and times, how it ended, and no words."""

from datetime import datetime

from app.domain.events import PipelineEvent, Stage
from app.run.run import Run
from app.store.kept_runs import Ending, KeptEvent, KeptRun


def kept_run(run: Run) -> KeptRun:
    """`run` (ended) as it is kept."""
    began = run.events[0].timestamp if run.events else None
    failure, result = run.failure, run.result
    return KeptRun(
        id=run.id,
        began=began,
        source=run.source.value,
        ending=_ending(run),
        ms={stage.value: round(run.seconds[stage] * 1000) for stage in Stage if stage in run.seconds},  # in run order
        events=tuple(_event(event, began) for event in run.events) if began is not None else (),
        applied=len(result.applied) if result else 0,
        interpreter=result.interpreter if result else "",
        failed=failure.code.value if failure else None,
        error=failure.kind if failure else "",
    )


def _ending(run: Run) -> Ending:
    result = run.result
    if run.failure is not None:
        return Ending.FAILED
    if result is None:
        return Ending.STOPPED
    if result.question or result.choices:
        return Ending.ASKED
    if result.applied or result.memory_changes:
        return Ending.CHANGED
    return Ending.ANSWERED if result.message else Ending.NOTHING


def _event(event: PipelineEvent, began: datetime) -> KeptEvent:
    """One event as kept: its kind, its stage and when (ms into the run), not what it says."""
    return KeptEvent(type(event).__name__, event.stage.value, round((event.timestamp - began).total_seconds() * 1000))
