"""Waiting in a test for what the desktop's bridge reports (a run's events, from the app's own threads).

Not `qtbot.waitSignal(bridge.progressed, check_params_cb=...)`: the events the app's threads had already queued
for its blocker still reach it after it was disconnected, and once a garbage collection has emptied the blocker,
PySide calls into it anyway: an AttributeError on its attributes, then a segfault in the next collection (seen
under load, in the tests of the talk key). A list connected for the whole test is never emptied.
"""

from collections.abc import Callable

from pytestqt.qtbot import QtBot

from app.domain.events import PipelineEvent
from app.ui.bridge import PipelineBridge


class BridgeEvents:
    """Every event `bridge` reports from now on, in order."""

    def __init__(self, bridge: PipelineBridge) -> None:
        self.events: list[PipelineEvent] = []
        bridge.progressed.connect(self.events.append)

    def first(self, qtbot: QtBot, matches: Callable[[PipelineEvent], bool], timeout: int = 5000) -> PipelineEvent:
        """The first event so far that `matches`, waiting for it as long as `timeout` ms."""
        qtbot.waitUntil(lambda: any(matches(event) for event in self.events), timeout=timeout)
        return next(event for event in self.events if matches(event))
