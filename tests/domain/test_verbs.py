"""The one word a kind of change is said with: every kind has one, and every action and memory change is a kind."""

from app.domain.actions import CompleteAction, CreateAction
from app.domain.enums import ActionKind, Category, MemoryChangeKind, UndoKind
from app.domain.verbs import PAST_TENSE, TICKED, counted, counted_word, past_tense


def test_every_kind_of_change_has_its_own_word() -> None:
    """A new kind cannot be recorded without being worded: the table must name it, or this fails."""
    assert set(PAST_TENSE) == set(UndoKind)
    assert len(set(PAST_TENSE.values()) | {TICKED}) == len(UndoKind) + 1


def test_every_action_and_memory_change_is_a_kind_undo_records() -> None:
    assert {kind.value for kind in ActionKind} | {kind.value for kind in MemoryChangeKind} <= set(UndoKind)


def test_a_tick_is_said_apart_from_completing_the_entry() -> None:
    assert (past_tense(CompleteAction("abcd")), past_tense(CompleteAction("abcd", item="milk"))) == (
        "completed",
        TICKED,
    )


def test_counts_come_in_a_fixed_order_and_say_forgotten() -> None:
    create = CreateAction(content="x", summary="x", category=Category.TODO, source_text="x")
    done = [CompleteAction("abcd", item="milk"), CompleteAction("abcd"), create, create]
    assert counted(done) == "2 created, 1 completed, 1 ticked"
    assert counted([]) == ""
    assert [counted_word(kind) for kind in (UndoKind.REMEMBER, UndoKind.FORGET)] == ["remembered", "forgotten"]
