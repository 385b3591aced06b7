"""The model as configured when it cannot be used at all (an address that is no server's, an unknown preset):
every utterance fails at once with the one line that says why, so the fallback files it saying so, instead of
the rules filing it silently as though no model were configured."""

from app.changes.interpretation import AgentOutcome, RunOptions
from app.changes.workspace import Workspace
from app.domain.clock import Clock
from app.domain.events import EventCallback
from app.errors import LlmError
from app.store import Store


class UnusableModel:
    name = "llm"

    def __init__(self, problem: str) -> None:
        self.problem = problem  # what is wrong with the configuration, in one line

    def run(self, text: str, workspace: Workspace, on_event: EventCallback, options: RunOptions) -> AgentOutcome:
        raise LlmError(self.problem)

    def synthesize(self, transcript: str, store: Store, clock: Clock) -> str:
        raise LlmError(self.problem)

    def judged(self, store: Store, fault: str | None) -> str | None:
        return None  # nothing to count: the configuration, not the model, is at fault

    def close(self) -> None:
        pass
