"""The problems the window lists: raised by what a run reports, gone when the thing works again, and a dismissed
one hidden until a different failure of its kind comes."""

from app.domain.events import ErrorCode, ErrorEvent, Stage
from app.errors import Setting
from app.presentation.problems import Problem, Problems, Trouble


def kinds(problems: Problems) -> list[Trouble]:
    return [problem.kind for problem in problems.shown()]


def test_a_model_that_fails_is_a_problem_until_it_does_the_work() -> None:
    problems = Problems()
    problems.heard(ErrorEvent("no API key", ErrorCode.LLM, remedy=Setting("llm.api_key"), stage=Stage.INTERPRET))
    assert problems.shown() == [Problem(Trouble.MODEL, "no API key", Setting("llm.api_key"))]
    problems.ran("offline", None, None)  # the rules alone: nothing is known of the model
    assert kinds(problems) == [Trouble.MODEL]
    problems.ran("llm", None, None)
    assert problems.shown() == []


def test_the_rules_standing_in_for_the_model_is_a_problem() -> None:
    problems = Problems()
    problems.ran("offline", "cannot reach the model server at 127.0.0.1:9", None)
    [problem] = problems.shown()
    assert problem.message == (
        "The language model failed, so the built-in rules filed what you said: "
        "cannot reach the model server at 127.0.0.1:9"
    )
    assert problem.remedy == Setting("llm.base_url")


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
