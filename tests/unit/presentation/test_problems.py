"""The problems the window lists: raised by what a run reports, gone when the thing works again, and a dismissed
one hidden until a different failure of its kind comes."""

from app.domain.events import ErrorCode, ErrorEvent, MessageEvent, RunEnd, Stage, ThinkingEvent, ToolCallEvent
from app.errors import Setting
from app.presentation.problems import MODEL_STOOD_IN, Problem, Problems, Trouble


def kinds(problems: Problems) -> list[Trouble]:
    return [problem.kind for problem in problems.shown()]


def test_a_model_that_fails_is_a_problem_until_it_answers() -> None:
    problems = Problems()
    problems.heard(ErrorEvent("no API key", ErrorCode.LLM, remedy=Setting("llm.api_key"), stage=Stage.INTERPRET))
    assert problems.shown() == [Problem(Trouble.MODEL, "no API key", Setting("llm.api_key"))]
    problems.heard(ThinkingEvent(1, "offline", run_id="a"))
    problems.heard(MessageEvent("Done", False, run_id="a"))  # the rules answering is not the model
    assert kinds(problems) == [Trouble.MODEL]
    problems.heard(ThinkingEvent(1, "llm", run_id="b"))
    problems.heard(ToolCallEvent("1", "create_entries", "{}", run_id="b"))
    assert problems.shown() == []


def test_the_rules_standing_in_for_the_model_is_a_problem() -> None:
    problems = Problems()
    problems.heard(ThinkingEvent(1, "llm", run_id="a"))
    problems.heard(ThinkingEvent(1, "offline", run_id="a"))
    problems.heard(RunEnd(1, "1 created", 7, 1, 0, run_id="a", stage=Stage.APPLY))
    assert [problem.message for problem in problems.shown()] == [MODEL_STOOD_IN]
    problems.heard(MessageEvent("Done", False, run_id="a"))  # its run is over: nothing is known of it now
    assert kinds(problems) == [Trouble.MODEL]


def test_a_dismissed_problem_stays_hidden_until_another_failure_of_its_kind() -> None:
    problems = Problems()
    problems.imported("todo.txt", [2])
    problems.dismiss(Trouble.IMPORT)
    problems.imported("todo.txt", [2])
    assert problems.shown() == []
    problems.imported("sheet.csv", [4, 9])
    assert [problem.message for problem in problems.shown()] == ["Importing sheet.csv: lines 4 and 9 skipped"]
    problems.imported("clean.csv", [])
    assert problems.shown() == []
