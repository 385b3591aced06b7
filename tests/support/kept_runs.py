"""A kept run for the tests that read them back: what a run the model server failed leaves (a real failed run
would wait on the network)."""

from datetime import UTC, datetime

from app.store.kept_runs import Ending, KeptEvent, KeptRun

FAILED = KeptRun(
    "f00dcafe1234",
    datetime.now(UTC).replace(microsecond=0),
    "typed",
    Ending.FAILED,
    ms={"interpret": 2340},
    events=(KeptEvent("RunStart", "interpret", 0), KeptEvent("ErrorEvent", "interpret", 2340)),
    failed="llm",
    error="LlmError",
)
