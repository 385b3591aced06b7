"""Moments in words: one way to say a moment, in every variant, and no other place in the window or the command
line that writes a date or a time for people itself."""

import ast
from datetime import timedelta
from pathlib import Path

from app.domain.clock import Clock
from app.presentation.times import day_title, in_full, moment_words, period_words, relative, when, written

APP = Path(__file__).resolve().parents[2] / "app"
FRONT_ENDS = ("ui", "cli")
DATE_PARTS = {"year", "month", "day", "hour", "minute", "second"}


def test_a_moment_is_said_one_way(clock: Clock) -> None:
    now, tz = clock.now, clock.tz  # Sunday 22 Nov 2026 18:30, Berlin
    at = {name: now + delta for name, delta in (
        ("tomorrow", timedelta(hours=14, minutes=-30)), ("yesterday", timedelta(days=-1, minutes=-20)),
        ("thursday", timedelta(days=4, hours=-3, minutes=-30)), ("december", timedelta(days=11, hours=-3, minutes=-30)),
        ("next year", timedelta(days=60)),
    )}  # fmt: skip
    assert {name: moment_words(moment, now, tz) for name, moment in at.items()} == {
        "tomorrow": "Tomorrow 08:00",
        "yesterday": "Yesterday 18:10",
        "thursday": "Thu 26 Nov 15:00",
        "december": "Thu 3 Dec 15:00",
        "next year": "Thu 21 Jan 2027 18:30",
    }
    assert when(at["tomorrow"], now, tz) == "tomorrow 08:00"  # inside a sentence: "due tomorrow 08:00"
    assert when(at["yesterday"], now, tz) == "overdue yesterday 18:10"
    assert when(at["december"], now, tz) == "Thu 3 Dec 15:00" and when(None, now, tz) == ""
    assert [relative(at[name], now, tz) for name in ("tomorrow", "thursday", "december", "next year")] == [
        "Tomorrow 08:00",
        "Thu 15:00",
        "Thu 3 Dec",
        "Thu 21 Jan 2027",
    ]
    assert relative(now + timedelta(minutes=20), now, tz) == "in 20 min"
    assert in_full(at["december"], tz) == "Thursday 3 December 2026, 15:00"
    assert written(at["tomorrow"], tz) == "Mon 23 Nov 2026 08:00"  # a field's words: the year always
    assert day_title(at["december"].date()) == "Thursday 3 Dec"
    assert [period_words(period, now.date()) for period in ("2026-11-22", "2025-12-31", "2026-11")] == [
        "Sun 22 Nov",
        "Wed 31 Dec 2025",
        "November 2026",
    ]


def _formats_a_date(node: ast.AST, in_json: bool) -> str | None:
    """What in `node` writes a date or a time itself, if anything: strftime, a '%' format spec, a part of a
    date put into text, or isoformat (which the JSON output and keys alone may use: ISO 8601 is for programs)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "strftime" or (node.func.attr == "isoformat" and not in_json):
            return node.func.attr
    if isinstance(node, ast.FormattedValue):
        spec = node.format_spec
        if isinstance(spec, ast.JoinedStr) and any(
            isinstance(part, ast.Constant) and "%" in str(part.value) for part in spec.values
        ):
            return "a '%' format spec"
        if isinstance(node.value, ast.Attribute) and node.value.attr in DATE_PARTS:
            return f"the {node.value.attr} put into text"
    return None


def dates_formatted(path: Path) -> list[str]:
    """Each place in `path` that writes a date or a time itself: 'app/ui/x.py:12 strftime'."""
    found: list[str] = []

    def visit(node: ast.AST, in_json: bool) -> None:
        for child in ast.iter_child_nodes(node):
            for_programs = isinstance(child, ast.FunctionDef) and (child.name.endswith("_json") or child.name == "key")
            json_here = for_programs if isinstance(child, ast.FunctionDef) else in_json
            if what := _formats_a_date(child, json_here):
                found.append(f"{path.relative_to(APP.parent)}:{getattr(child, 'lineno', '?')} {what}")
            visit(child, json_here)

    visit(ast.parse(path.read_text(encoding="utf-8")), in_json=False)
    return found


def test_the_window_and_the_command_line_leave_dates_to_the_presentation() -> None:
    paths = [path for part in FRONT_ENDS for path in sorted((APP / part).rglob("*.py"))]
    assert [line for path in paths for line in dates_formatted(path)] == []
