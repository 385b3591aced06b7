"""Questions a user asks about their own list are answered from it by their words, changing nothing: what is
left on a named list, whether something is done, every open entry of a sort, what a note says, how an entry
repeats, what falls in part of a day. Asked on Monday 23 November 2026 at 09:12 in Berlin."""

import pytest

from app.changes.interpretation import InterpretContext
from app.domain.actions import CreateAction, ParseResult
from app.domain.checklist import ChecklistItem, dump_items
from app.domain.enums import Category, Status
from app.offline import OfflineInterpreter
from app.store.models import Entry
from tests.offline.answers.week import MONDAY, at
from tests.support.offline_entries import entry


def _checklist(*items: tuple[str, bool]) -> str | None:
    return dump_items([ChecklistItem(text, done) for text, done in items])


PACKING = entry(
    "200001", "Packing list", Category.LIST, items=_checklist(("passport", True), ("charger", False), ("socks", False))
)
POST = entry("200002", "Post office run", items=_checklist(("stamps", True), ("parcel for Jo", False)))
COMPOST = entry("200003", "Buy compost at the garden centre")
FLIGHTS = entry("200004", "Book the flights to Porto", status=Status.COMPLETED)
INSURANCE = entry("200005", "Renew the car insurance", due_at=at(30, 9))
RENT = entry("200006", "Pay the rent", status=Status.COMPLETED)
LANDLORD = entry("200007", "Email the landlord about the boiler", due_at=at(25, 10))
SCHOOL = entry("200008", "Send an email to the school", due_at=at(27, 9))
OLD_EMAIL = entry("200009", "Email the accountant", status=Status.COMPLETED)
WINDOWS = entry("200010", "Window cleaning", Category.REMINDER, due_at=at(26, 8))
WIFI = entry("200011", "Wifi password is orange-kettle-42", Category.NOTE)
SAUCE = entry("200012", "Nonna's pasta sauce: San Marzano tomatoes, basil, a pinch of sugar", Category.NOTE)
PODCAST = entry("200013", "Podcast about local bakeries", Category.IDEA)
SWIMMING = entry("200014", "Swimming", Category.HABIT, recurrence="FREQ=WEEKLY;BYDAY=MO,FR")
PHYSIO = entry("200015", "Physio", Category.REMINDER, due_at=at(27, 14, 30))
BAND = entry("200016", "Band practice", Category.REMINDER, due_at=at(27, 19))
VET = entry("200017", "Ring the vet about Biscuit's jab")
HOUSEHOLD = [
    PACKING, POST, COMPOST, FLIGHTS, INSURANCE, RENT, LANDLORD, SCHOOL, OLD_EMAIL, WINDOWS, WIFI, SAUCE, PODCAST,
    SWIMMING, PHYSIO, BAND, VET,
]  # fmt: skip


def ask(text: str) -> ParseResult:
    return OfflineInterpreter().interpret(text, InterpretContext(entries=HOUSEHOLD, clock=MONDAY))


def answered(question: str) -> str:
    result = ask(question)
    assert result.actions == [] and result.failures == [], f"{question!r} changed the list"
    assert result.answer is not None, f"{question!r} was not answered"
    return result.answer


def _names(answer: str, named: list[Entry], left_out: list[Entry]) -> None:
    assert [e.summary for e in named if e.summary not in answer] == []
    assert [e.summary for e in left_out if e.summary in answer] == []


@pytest.mark.parametrize(
    ("question", "words", "not_said"),
    [
        ("what's left on the packing list", ["Packing list: charger, socks", "passport done"], []),
        ("anything still on my post office list?", ["Post office run: parcel for Jo"], ["Packing list"]),
        ("what do I need to get from the garden centre", ["Buy compost at the garden centre"], ["Packing"]),
        ("what's on my camping list", ["Nothing on your list matches 'camping'"], []),
    ],
)
def test_a_named_list_is_answered_with_what_is_still_on_it(
    question: str, words: list[str], not_said: list[str]
) -> None:
    answer = answered(question)
    assert [said for said in words if said not in answer] == []
    assert [said for said in not_said if said in answer] == []


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("did I book the flights yet", "Yes, Book the flights to Porto is done."),
        ("oh hey, have I booked the flights to porto", "Yes, Book the flights to Porto is done."),
        ("is the rent paid yet?", "Yes, Pay the rent is done."),
        ("have I renewed the car insurance", "Not yet: Renew the car insurance is still on your list"),
        ("is the car insurance sorted", "Not yet: Renew the car insurance is still on your list"),
        ("did I ever ring the vet", "Not yet: Ring the vet about Biscuit's jab is still on your list"),
        ("did I pack my passport", "Yes, passport is ticked off on Packing list."),
        ("did I buy the stamps", "Yes, stamps is ticked off on Post office run."),
        ("have I posted the parcel for jo", "Not yet: parcel for Jo is still open on Post office run."),
        ("did I cancel the gym membership", "Nothing on your list matches 'cancel gym membership'."),
        ("have I finished the packing list", "Not yet: Packing list: charger, socks (passport done)."),
        ("is the landlord emailed yet", "Not yet: Email the landlord about the boiler is still on your list"),
    ],
)
def test_whether_something_is_done_is_answered_yes_not_yet_or_not_listed(question: str, answer: str) -> None:
    assert answered(question).startswith(answer)


@pytest.mark.parametrize(
    ("question", "named", "left_out"),
    [
        ("which emails do I still have to send", [LANDLORD, SCHOOL], [OLD_EMAIL, VET]),
        ("what emails have I got to send on wednesday", [LANDLORD], [SCHOOL]),
        ("do I have to ring anybody", [VET], [LANDLORD]),
        ("is there anyone I still need to email", [LANDLORD, SCHOOL], [OLD_EMAIL]),
    ],
)
def test_every_open_entry_of_a_sort_is_named(question: str, named: list[Entry], left_out: list[Entry]) -> None:
    _names(answered(question), named, left_out)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("what's the wifi password again?", WIFI),
        ("um what did I note down about nonna's pasta sauce", SAUCE),
        ("what was my idea about bakeries", PODCAST),
        ("what was that thing I had about a podcast", PODCAST),
    ],
)
def test_a_note_or_idea_is_recalled_in_its_own_words(question: str, named: Entry) -> None:
    assert answered(question).startswith(named.summary)


def test_a_recalled_entry_with_a_due_says_when() -> None:
    assert answered("what's my physio again") == "Physio (Fri Nov 27 at 14:30)."


def test_recalling_what_nothing_on_the_list_holds_says_so() -> None:
    assert answered("what did I write about the treehouse") == "Nothing on your list matches 'treehouse'."


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("when are the windows getting cleaned?", ["Window cleaning", "Thu Nov 26 at 08:00"]),
        ("so um can you tell me when the windows are getting cleaned", ["Window cleaning"]),
        ("how often do I go swimming", ["Swimming: every Monday and Friday"]),
        ("is swimming mondays or just fridays?", ["Swimming: every Monday and Friday"]),
    ],
)
def test_when_an_entry_is_due_or_how_it_repeats(question: str, words: list[str]) -> None:
    answer = answered(question)
    assert [said for said in words if said not in answer] == []


@pytest.mark.parametrize(
    ("question", "named", "left_out"),
    [
        ("am I busy on friday evening?", [BAND], [PHYSIO]),
        ("what have I got friday afternoon", [PHYSIO], [BAND, SCHOOL]),
        ("anything on thursday morning?", [WINDOWS], [PHYSIO]),
    ],
)
def test_part_of_a_day_names_only_what_falls_in_those_hours(
    question: str, named: list[Entry], left_out: list[Entry]
) -> None:
    _names(answered(question), named, left_out)


def test_a_free_part_of_a_day_says_nothing_is_due() -> None:
    assert answered("am I free on friday morning") == "Due on Friday morning: Send an email to the school (Fri 09:00)."
    assert answered("anything wednesday evening") == "Nothing is due on Wednesday evening."


@pytest.mark.parametrize(
    "question",
    [
        "why do onions make you cry",
        "how far is the moon",
        "what's the capital of Peru?",
        "who painted the mona lisa",
        "is the museum closed on mondays",
        "what should I cook for the kids tonight",
        "is the museum closed",
    ],
)
def test_a_question_about_the_world_is_still_kept_as_a_question(question: str) -> None:
    result = ask(question)
    assert result.answer is None
    assert len(result.actions) == 1 and isinstance(created := result.actions[0], CreateAction)
    assert created.category is Category.QUESTION


@pytest.mark.parametrize("question", ["what's on my to-do list", "what's on the todo list today"])
def test_the_to_do_list_is_the_whole_list_not_a_list_named_to_do(question: str) -> None:
    assert answered(question) == "Nothing is due today."


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("um so did I, uh, book the flights", FLIGHTS),
        ("hey murmur, is the rent paid?", RENT),
        ("can you tell me what's on my packing list", PACKING),
        ("oh um what was the wifi password", WIFI),
        ("okay so which emails do I have to send", LANDLORD),
        ("do you know when the windows are getting cleaned", WINDOWS),
    ],
)
def test_fillers_and_openers_do_not_change_the_reading(question: str, named: Entry) -> None:
    assert named.summary in answered(question)
