"""Murmur → Recent runs: the kept runs, newest first, a column per stage in ms (a slow one in bold, a failed run
marked), and the events of the run selected with their moments from its start. Read-only; read off the GUI thread
each time it opens and on Reload."""

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QStyle,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.api.runs import Ending, KeptRun
from app.domain.clock import Clock
from app.presentation.runs import (
    ENDED_HEADERS,
    HEADERS,
    NO_RUNS,
    RUNS_NOTE,
    RUNS_TITLE,
    SLOW_NOTE,
    TIMELINE_HEADERS,
    began_words,
    ended_words,
    event_at,
    event_words,
    is_slow,
    ms_figure,
    run_heading,
    short_id,
    stage_columns,
    stage_heading,
)
from app.ui.background import run_in_thread
from app.ui.theme import colours
from app.ui.worker import Call, Finished, JobOutcome


def _table(name: str, headers: Sequence[str]) -> QTreeWidget:
    table = QTreeWidget()
    table.setObjectName(name)
    table.setAccessibleName(name.replace("_", " "))
    table.setRootIsDecorated(False)
    table.setUniformRowHeights(True)
    table.setHeaderLabels(list(headers))
    table.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    return table


class RunsDialog(QDialog):
    """The kept runs as `read_runs` gives them (the service's recent_runs), their moments in `clock`'s zone."""

    def __init__(self, parent: QWidget, read_runs: Callable[[], list[KeptRun]], clock: Callable[[], Clock]) -> None:
        super().__init__(parent)
        self._read_runs, self._clock = read_runs, clock
        self._runs: list[KeptRun] = []
        self.setObjectName("recent_runs")
        self.setWindowTitle(RUNS_TITLE)
        self.note = QLabel(RUNS_NOTE)
        self.note.setWordWrap(True)
        self.table = _table("recent_runs_table", HEADERS)
        self.table.currentItemChanged.connect(self._show_events)
        self.heading = QLabel()
        self.heading.setObjectName("run_heading")
        self.events = _table("run_events", TIMELINE_HEADERS)
        lower = QWidget()
        column = QVBoxLayout(lower)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.heading)
        column.addWidget(self.events, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.setChildrenCollapsible(False)
        split.addWidget(self.table)
        split.addWidget(lower)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        reload = QPushButton("Reload")
        reload.clicked.connect(self.reload)
        buttons.addButton(reload, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(split, 1)
        layout.addWidget(buttons)
        self.resize(900, 560)

    def reload(self) -> None:
        """Read the kept runs again, on a thread of their own; they show when read."""
        run_in_thread(Call("recent-runs", self._read_runs), self, self._on_read)

    def _on_read(self, outcome: JobOutcome[list[KeptRun]]) -> None:
        if isinstance(outcome, Finished):
            self.set_runs(outcome.result)
        else:
            self.note.setText(outcome.error)

    def set_runs(self, runs: list[KeptRun]) -> None:
        """Show `runs` (newest first), the run selected before still selected, else the newest."""
        clock, selected = self._clock(), self._run_of(self.table.currentItem())
        self._runs = runs
        stages = stage_columns(runs)
        self.table.clear()
        self.table.setHeaderLabels([*HEADERS, *map(stage_heading, stages), *ENDED_HEADERS])
        for run in runs:
            item = QTreeWidgetItem([short_id(run), began_words(run, clock.now, clock.tz), run.source])
            for column, stage in enumerate(stages, start=len(HEADERS)):
                self._stage_cell(item, column, stage, run.ms.get(stage))
            ended = len(HEADERS) + len(stages)
            item.setText(ended, ended_words(run))
            item.setText(ended + 1, run.interpreter)
            if run.ending is Ending.FAILED:
                item.setIcon(ended, self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning))
                item.setForeground(ended, colours().overdue)
            self.table.addTopLevelItem(item)
        self.note.setText(RUNS_NOTE if runs else NO_RUNS)
        ids = [run.id for run in runs]
        chosen = self.table.topLevelItem(ids.index(selected.id) if selected and selected.id in ids else 0)
        if chosen is not None:
            self.table.setCurrentItem(chosen)
        else:
            self._show_events(None)

    def _run_of(self, item: QTreeWidgetItem | None) -> KeptRun | None:
        row = self.table.indexOfTopLevelItem(item) if item is not None else -1
        return self._runs[row] if 0 <= row < len(self._runs) else None

    def _stage_cell(self, item: QTreeWidgetItem, column: int, stage: str, ms: int | None) -> None:
        item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if ms is None:
            return
        item.setText(column, ms_figure(ms))
        if is_slow(stage, ms):
            font = QFont(item.font(column))
            font.setBold(True)
            item.setFont(column, font)
            item.setForeground(column, colours().badge)
            item.setToolTip(column, SLOW_NOTE)

    def _show_events(self, current: QTreeWidgetItem | None) -> None:
        self.events.clear()
        run = self._run_of(current)
        if run is None:
            self.heading.clear()
            return
        clock = self._clock()
        self.heading.setText(run_heading(run, clock.now, clock.tz))
        for event in run.events:
            item = QTreeWidgetItem([event_at(event), event.stage, event_words(event)])
            item.setTextAlignment(0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.events.addTopLevelItem(item)
