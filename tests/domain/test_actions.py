"""The forgiving parsing of loose action dicts, rule by rule, plus per-item isolation."""

import pytest

from app.domain.actions import (
    NO_REASON,
    ArchiveAction,
    CompleteAction,
    CreateAction,
    SnoozeAction,
    UpdateAction,
    describe_action,
    parse_action,
    parse_actions,
    parse_update_fields,
)
from app.domain.enums import Category, Status
from app.errors import InvalidActionError


def create(**fields: object) -> CreateAction:
    action = parse_action("create", {"content": "Buy milk", "summary": "Buy milk", "category": "todo", **fields})
    assert isinstance(action, CreateAction)
    return action


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("todo", Category.TODO),
        ("TODO", Category.TODO),
        (" Reminder ", Category.REMINDER),
        ("grocery", Category.NOTE),
        ("", Category.NOTE),
        (None, Category.NOTE),
        (7, Category.NOTE),
    ],
)
def test_unknown_category_falls_back_to_note(raw: object, expected: Category) -> None:
    assert create(category=raw).category is expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (0, 1),
        (-1, 1),
        (1, 1),
        (3, 3),
        (5, 5),
        (99, 5),
        ("2", 2),
        ("P4", 4),
        (2.6, 3),
        ("high", 2),
        ("Urgent", 1),
        ("low priority", 4),
        ("soonish", None),  # a model's loose word: no priority rather than a failed create
        (None, None),
        (True, None),
        (float("nan"), None),
    ],
)
def test_priority_is_clamped_to_one_to_five(raw: object, expected: int | None) -> None:
    assert create(priority=raw).priority == expected


def test_an_edited_priority_takes_words_and_refuses_what_it_cannot_read() -> None:
    assert parse_update_fields({"priority": "high"}) == {"priority": 2}
    assert parse_update_fields({"priority": "none"}) == {"priority": None}
    assert parse_update_fields({"priority": "P1"}) == {"priority": 1}
    with pytest.raises(InvalidActionError, match="can't read a priority from 'banana'"):
        parse_update_fields({"priority": "banana"})  # never silently cleared


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({"cadence": "daily"}, "FREQ=DAILY"),  # the old field and its words
        ({"cadence": "Weekly"}, "FREQ=WEEKLY"),
        ({"repeat": "weekdays"}, "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        ({"repeat": "every other monday"}, "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"),
        ({"repeat": "freq=weekly;byday=th,mo"}, "FREQ=WEEKLY;BYDAY=MO,TH"),
        ({"recurrence": "FREQ=MONTHLY;BYMONTHDAY=15"}, "FREQ=MONTHLY;BYMONTHDAY=15"),
        ({"repeat": "now and then"}, None),
        ({"repeat": ""}, None),
        ({"repeat": None}, None),
        ({"repeat": 3}, None),
    ],
)
def test_a_repeat_is_read_and_an_unknown_one_dropped(raw: dict[str, object], expected: str | None) -> None:
    assert create(**raw).recurrence == expected


def test_a_malformed_rule_fails_that_create_alone() -> None:
    result = parse_actions([("create", {"content": "stretch", "repeat": "FREQ=HOURLY"}), ("create", {"content": "x"})])
    assert [f.error for f in result.failures] == [
        "the repeat rule 'FREQ=HOURLY' needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY"
    ]
    assert len(result.actions) == 1


def test_unknown_status_is_rejected_with_a_clear_error() -> None:
    with pytest.raises(
        InvalidActionError, match="unknown status 'done'; expected one of active, snoozed, completed, archived"
    ):
        parse_action("update", {"id": "abc123", "fields": {"status": "done"}, "reason": "x"})


def test_known_status_is_accepted_case_insensitively() -> None:
    action = parse_action("update", {"id": "abc123", "fields": {"status": "Completed"}})
    assert isinstance(action, UpdateAction)
    assert action.changes == {"status": Status.COMPLETED}


@pytest.mark.parametrize("reason", ["", "   ", None])
@pytest.mark.parametrize("kind", ["complete", "archive", "update", "snooze"])
def test_empty_reason_becomes_no_reason_provided(kind: str, reason: object) -> None:
    data = {"id": "abc123", "reason": reason, "fields": {"priority": 2}, "until": "friday"}
    action = parse_action(kind, data)
    assert isinstance(action, (CompleteAction, ArchiveAction, UpdateAction, SnoozeAction))
    assert action.reason == NO_REASON


def test_reason_is_kept_when_given() -> None:
    action = parse_action("complete", {"id": "abc123", "reason": "  bought it "})
    assert isinstance(action, CompleteAction)
    assert action.reason == "bought it"


@pytest.mark.parametrize("source_text", ["", None, "  "])
def test_empty_source_text_becomes_content(source_text: object) -> None:
    assert create(content="Call the dentist", source_text=source_text).source_text == "Call the dentist"


def test_missing_summary_is_derived_from_content_as_short_card_text() -> None:
    action = parse_action("create", {"content": "call the dentist about the crown that came loose last week at lunch"})
    assert isinstance(action, CreateAction)
    assert action.summary.startswith("Call the dentist")
    assert len(action.summary.rstrip("…").split()) <= 10


def test_missing_content_is_taken_from_summary() -> None:
    action = parse_action("create", {"summary": "Water plants"})
    assert isinstance(action, CreateAction)
    assert action.content == "Water plants"


@pytest.mark.parametrize(
    ("kind", "data", "message"),
    [
        ("create", {"category": "todo"}, "create needs content or a summary"),
        ("create", {"content": ["a", "list"]}, "expected text"),
        ("complete", {"reason": "x"}, "missing entry id"),
        ("archive", {"id": "   "}, "missing entry id"),
        ("update", {"id": "abc123"}, "non-empty 'fields'"),
        ("update", {"id": "abc123", "fields": {}}, "non-empty 'fields'"),
        ("update", {"id": "abc123", "fields": {"title": "x"}}, "unknown field"),
        ("update", {"id": "abc123", "fields": {"summary": ""}}, "summary cannot be empty"),
        ("delete", {"id": "abc123"}, "unknown action 'delete'"),
        ("create", "buy milk", "expects an object"),
    ],
)
def test_invalid_items_are_refused_with_a_reason(kind: str, data: object, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        parse_action(kind, data)


def test_one_bad_item_never_sinks_the_others() -> None:
    result = parse_actions(
        [
            ("create", {"content": "Buy milk", "category": "grocery"}),
            ("update", {"id": "abc123", "fields": {"status": "finished"}}),
            ("complete", {"id": "def456"}),
            ("explode", {}),
            ("create", {"content": "Call mom", "priority": 99}),
        ]
    )
    assert [a.kind.value for a in result.actions] == ["create", "complete", "create"]
    assert [f.tool for f in result.failures] == ["update", "explode"]
    assert "finished" in result.failures[0].error
    first, _, last = result.actions
    assert isinstance(first, CreateAction) and first.category is Category.NOTE
    assert isinstance(last, CreateAction) and last.priority == 5


def test_update_fields_are_validated_and_normalised() -> None:
    action = parse_action(
        "update",
        {
            "id": "abc123",
            "fields": {"priority": 0, "repeat": "fortnightly", "category": "IDEA", "due_date": " friday "},
        },
    )
    assert isinstance(action, UpdateAction)
    assert action.changes == {
        "priority": 1,
        "recurrence": "FREQ=WEEKLY;INTERVAL=2",
        "category": Category.IDEA,
        "due_date": "friday",
    }


def test_an_update_clears_a_repeat_only_when_asked() -> None:
    assert parse_update_fields({"repeat": None}) == {"recurrence": None}
    with pytest.raises(InvalidActionError, match="can't read a repeat from 'now and then'"):
        parse_update_fields({"repeat": "now and then"})


def test_snooze_without_time_means_tomorrow() -> None:
    action = parse_action("snooze", {"id": "abc123"})
    assert isinstance(action, SnoozeAction)
    assert action.until_text == "tomorrow"


def test_describe_action_is_plain_json_data() -> None:
    described = describe_action(create(priority=2, due_date="Thursday"))
    assert described == {
        "kind": "create",
        "content": "Buy milk",
        "summary": "Buy milk",
        "category": "todo",
        "source_text": "Buy milk",
        "priority": 2,
        "due_text": "Thursday",
    }
