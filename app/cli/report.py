"""Shared by the command modules: reporting a run or an edit, input text, progress (printing itself: app.cli.output)."""

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from app.api.as_json import report_json
from app.api.edits import ExecutionResult
from app.api.runs import Run
from app.api.service import MurmurService, PipelineResult
from app.api.settings import config_dir
from app.cli.exits import ExitCode
from app.cli.output import cli_text, print_error, print_json, print_warning, say
from app.presentation.run_report import RunReport, run_report

OFFLINE_NOTICE_MARKER = ".offline-notice-shown"


def read_text(words: Sequence[str]) -> str:
    """The words as one text; a single '-' reads standard input instead. Bytes that are not UTF-8 become
    U+FFFD (with a warning), so the rest of what the user said is still kept."""
    if list(words) == ["-"]:
        raw = sys.stdin.buffer.read()
    else:
        # argv arrives with undecodable bytes as surrogates (PEP 383): back to the bytes the user typed
        raw = " ".join(words).encode("utf-8", "surrogateescape")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        print_warning("the text is not valid UTF-8; each unreadable byte was kept as \ufffd")
        return raw.decode("utf-8", "replace")


def report_execution(
    service: MurmurService,
    result: ExecutionResult | PipelineResult,
    as_json: bool,
    extra: Mapping[str, Any] | None = None,
) -> int:
    """What was applied, one line each (failures on stderr), then the summary; OK if anything was applied,
    or the run was an answer (its words were said already; "Nothing changed" would only add noise)."""
    clock = service.clock()
    return print_report(run_report(result, clock.now, clock.tz), clock.tz, as_json, extra)


def print_report(report: RunReport, tz: ZoneInfo, as_json: bool, extra: Mapping[str, Any] | None = None) -> int:
    """A run's (or an edit's) report as the command line shows it: its lines, or `--json`'s object."""
    if as_json:
        print_json({**report_json(report, tz), **(extra or {})})
    else:
        similar = {found.new_id: found for found in report.similar}
        for item, line in zip(report.applied, report.lines, strict=True):
            say(line)
            if (like := similar.get(item.entry.id)) is not None:
                say(f"          the same thing? murmur merge {like.new_short_id} {like.into_id[:6]}")
        for line in report.memory_lines:
            say(line)
        for line in report.failure_lines:
            print_error(line)
        if not report.answered:
            say(report.summary + ("  (undo: murmur undo)" if report.undo_id else ""))
    return ExitCode.OK if report.changed_anything or report.answered else ExitCode.NOTHING_APPLIED


def report_run(service: MurmurService, run: Run, as_json: bool) -> int:
    """A run of what was said: the model's words or question, then what it applied (with its usage and the time
    of each stage in JSON)."""
    result = run.result
    assert result is not None, "a run that raised nothing has its result"
    clock = service.clock()
    report = run_report(result, clock.now, clock.tz)
    if not as_json:
        if report.fallback_note:
            say(cli_text(report.fallback_note, report.fallback_remedy))
        if report.message:
            say(("? " if report.question else "") + report.message)
        if report.interpreter == "offline" and not report.fallback_reason and first_offline_notice():
            say("(offline: no LLM is configured, so the built-in rules read this; `murmur config --help` sets one up)")
    usage = result.usage
    extra = {
        "run_id": run.id,
        "seconds": {stage.value: seconds for stage, seconds in run.seconds.items()},
        "turns": result.turns,
        "choices": [  # each with the command that takes it
            {"number": number, "label": label, "command": f"murmur retry {report.utterance_id} --choice {number}"}
            for number, label in enumerate(report.choices, start=1)
        ],
        "usage": {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "cost_usd": round(usage.cost_usd, 6),
        },
    }
    status = print_report(report, clock.tz, as_json, extra)
    if report.choices and not as_json:
        said = report.utterance_id
        say(f"Not sure what you meant; it waits in the inbox ({said}). Did you mean:")
        for number, label in enumerate(report.choices, start=1):
            say(f"  {number}. {label}  murmur retry {said} --choice {number}")
    return status


def first_offline_notice() -> bool:
    """True the first time only, so the "no LLM configured" line is said once, not on every add."""
    marker = config_dir() / OFFLINE_NOTICE_MARKER
    if marker.exists():
        return False
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        return False  # a read-only config dir: better silent than nagging every time
    return True


class ProgressPrinter:
    """Download progress on stderr: rewritten in place on a terminal, every 10% otherwise."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.shown = -1  # the last step printed; -1: nothing yet

    def __call__(self, done: int, total: int | None) -> None:
        if self.quiet:
            return
        percent = int(done * 100 / total) if total else -1
        step = percent if self.tty else percent // 10
        if step == self.shown:
            return
        self.shown = step
        text = f"{done / 1_000_000:.1f} MB" + (f" of {total / 1_000_000:.1f} MB ({percent}%)" if total else "")
        end = "\r" if self.tty else "\n"
        print(f"downloading {text}", end=end, file=sys.stderr, flush=True)


def report_removed(name: str, path: Path, as_json: bool) -> int:
    """A model or voice deleted from the models dir."""
    if as_json:
        print_json({"removed": name, "path": str(path)})
    else:
        say(f"removed {name} ({path})")
    return ExitCode.OK
