"""What of a run is said aloud, on real runs of the offline rules against a real SQLite file: questions and
answers by default, a confirmation of changes only when every reply is to be spoken, nothing when typed."""

from pathlib import Path

import pytest

from app.domain.clock import Clock
from app.domain.enums import UtteranceSource
from app.offline import OfflineInterpreter
from app.service import MurmurService, PipelineResult
from app.speech_out.reply import FollowUpAfter, ReplyMode, SpokenReply, reply_mode_for, spoken_reply
from app.store import Store


@pytest.fixture
def service(db_path: Path, clock: Clock) -> MurmurService:
    return MurmurService(store=Store.open(db_path), interpreter=OfflineInterpreter(), clock=lambda: clock)


def run(service: MurmurService, text: str) -> PipelineResult:
    return service.submit(text, UtteranceSource.VOICE)


def test_an_answer_is_spoken_by_default_and_a_change_is_not(service: MurmurService, clock: Clock) -> None:
    made = run(service, "remind me to call the dentist tomorrow at 3pm")
    assert spoken_reply(made, ReplyMode.QUESTIONS, clock) is None  # the list shows it; no need to say it
    answer = run(service, "what is due tomorrow")
    assert answer.message == "Due tomorrow: Call the dentist (Mon 15:00)."
    said = spoken_reply(answer, ReplyMode.QUESTIONS, clock)
    assert said == SpokenReply("Due tomorrow: Call the dentist, Monday at 3 pm.", question=False)
    assert spoken_reply(answer, ReplyMode.OFF, clock) is None


def test_always_confirms_what_changed_in_words(service: MurmurService, clock: Clock) -> None:
    made = run(service, "remind me to call the plumber tomorrow at 9am and buy milk")
    said = spoken_reply(made, ReplyMode.ALWAYS, clock)
    assert said is not None and not said.question
    assert said.text == "I added Call the plumber, tomorrow at 9 am, and added Buy milk."
    done = run(service, "milk is done")
    assert spoken_reply(done, ReplyMode.ALWAYS, clock) == SpokenReply("I ticked off Buy milk.", question=False)


def test_only_spoken_words_are_answered_aloud() -> None:
    assert reply_mode_for(UtteranceSource.VOICE, "always") is ReplyMode.ALWAYS
    assert reply_mode_for(UtteranceSource.TYPED, "always") is ReplyMode.OFF
    assert reply_mode_for(UtteranceSource.CLI, "questions") is ReplyMode.OFF


def test_the_microphone_listens_after_a_question_or_after_any_reply_when_set() -> None:
    question, answer = SpokenReply("Which milk?", question=True), SpokenReply("Done.", question=False)
    assert question.listens_after(FollowUpAfter.QUESTIONS, 6) and not answer.listens_after(FollowUpAfter.QUESTIONS, 6)
    assert answer.listens_after(FollowUpAfter.REPLIES, 6)
    assert not question.listens_after(FollowUpAfter.QUESTIONS, 0)  # 0 s: never
