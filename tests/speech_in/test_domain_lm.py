"""The domain language model and N-best rescoring: the Kneser-Ney math, pocketsphinx's score units, and
real flite speech decoded by the real pocketsphinx."""

import math
from pathlib import Path
from typing import Any

import pytest

from app.domain.hints import Hints
from app.speech_in.domain_lm import (
    END,
    LN_LOGMATH_BASE,
    PATH_SCORE_SHIFT,
    PHRASES_FILE,
    START,
    UNKNOWN,
    DomainRescorer,
    GenericModel,
    KneserNeyModel,
    path_log_score,
    read_phrases,
    words_of,
)
from app.speech_in.wavfile import read_audio
from tests.support.speech import DICTATION, flite_wav, have, word_error_rate

# -- the model's math -------------------------------------------------------------------------------------


def tiny() -> KneserNeyModel:
    return KneserNeyModel([["a", "b"], ["a", "c"], ["b"]], order=2)


def test_kneser_ney_gives_the_hand_computed_probabilities() -> None:
    # Continuation counts: a {<s>} 1, b {a, <s>} 2, c {a} 1, </s> {b, c} 2; D1 = 2 / (2 + 2 * 2) = 1/3;
    # uniform share 1/3 * 4/6 * 1/5 = 2/45. Bigrams: n1 = 4, n2 = 2 ((<s> a) and (b </s>)) -> D2 = 4 / 8.
    model = tiny()
    assert model.vocabulary == {"a", "b", "c", END, UNKNOWN}
    assert model.prob("b") == pytest.approx(29 / 90)
    assert model.prob("a") == pytest.approx(14 / 90)
    assert model.prob("never seen") == model.prob(UNKNOWN) == pytest.approx(4 / 90)
    assert model.prob("b", ["a"]) == pytest.approx(0.5 / 2 + 0.5 * 2 / 2 * 29 / 90)
    assert model.prob("a", ["a"]) == pytest.approx(0.5 * 14 / 90)
    assert model.prob("a", [START]) == pytest.approx(1.5 / 3 + 0.5 * 2 / 3 * 14 / 90)
    assert model.prob("b", ["unseen history"]) == pytest.approx(29 / 90)


@pytest.mark.parametrize(
    "history", [(), (START,), ("the",), (START, "remind"), ("remind", "me"), ("is",), ("zebra", "quokka"), ("the", "x")]
)
def test_probabilities_sum_to_one_over_the_vocabulary_for_any_history(history: tuple[str, ...]) -> None:
    model = KneserNeyModel([words_of(line) for line in read_phrases()])
    assert len(model.vocabulary) > 500
    assert sum(model.prob(word, history) for word in model.vocabulary) == pytest.approx(1.0, abs=1e-9)


def test_a_word_seen_after_many_words_beats_one_seen_often_after_one_word() -> None:
    """Kneser-Ney's point: "francisco" is frequent but only ever after "san", so a new context predicts it less."""
    sentences = [["san", "francisco"]] * 5 + [[w, "glasses"] for w in ("my", "your", "his", "her", "reading")]
    model = KneserNeyModel(sentences, order=2)
    assert model.prob("glasses", ["new"]) > 2 * model.prob("francisco", ["new"])
    assert model.prob("francisco", ["san"]) > 0.5


def sentence_logprob(model: KneserNeyModel, words: list[str]) -> float:
    """ln P(words, then the end of the sentence)."""
    tokens = [START, *words, END]
    return sum(math.log(model.prob(tokens[i], tokens[max(0, i - model.order + 1) : i])) for i in range(1, len(tokens)))


def test_the_domain_model_prefers_what_people_say_to_the_app() -> None:
    model = DomainRescorer().model
    in_domain, outside = "the laundry is done".split(), "the male gaze and".split()
    assert sentence_logprob(model, in_domain) > sentence_logprob(model, outside) + 5
    assert model.prob("done", ["is"]) > model.prob("gaze", ["is"])


def test_user_phrases_teach_their_words() -> None:
    plain, taught = DomainRescorer(), DomainRescorer(extra_phrases=["Lighthouse story", "Pay the lighthouse keeper"])
    assert "lighthouse" not in plain.model.vocabulary and "lighthouse" in taught.model.vocabulary
    assert taught.domain_prob("lighthouse", ["the"]) > 100 * plain.domain_prob("lighthouse", ["the"])


def test_text_is_spelled_as_a_recogniser_writes_it() -> None:
    assert words_of("Pay rent on the 1st & call Bob at 5:30pm") == (
        "pay rent on the first and call bob at five thirty pm".split()
    )
    assert words_of("Meeting 10:00, room 12; don't forget!") == "meeting ten room twelve don't forget".split()


def test_the_phrase_file_ships_in_the_package_and_copies_no_benchmark_sentence() -> None:
    assert PHRASES_FILE.is_file()
    lines = {" ".join(words_of(line)) for line in read_phrases()}
    assert len(lines) >= 300
    assert not lines & {" ".join(words_of(sentence)) for sentence in DICTATION}


# -- real speech ------------------------------------------------------------------------------------------

# Commands of the app's kind (from the bench's tuning set, not the benchmark) that the generic model mishears.
FIXABLE = ["snooze this until next week", "buy cheese butter and tomatoes", "mark the tax return as done"]


def decoded(wav: Path) -> Any:
    """A fresh decoder after one full-utterance pass over `wav` (N-best and segments ready)."""
    from pocketsphinx import Decoder

    decoder = Decoder(samprate=16000, loglevel="FATAL")
    decoder.start_utt()
    decoder.process_raw(read_audio(wav).pcm, False, True)
    decoder.end_utt()
    return decoder


@pytest.fixture(scope="module")
def spoken(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Sentences of the app's kind (not the benchmark's) and one from outside it, spoken by flite's slt voice."""
    if not have("flite"):
        pytest.fail("flite is not installed (Debian: flite); packaging/install-debian-packages.sh installs it")
    folder = tmp_path_factory.mktemp("domain")
    texts = [
        *FIXABLE,
        "remind me to walk the dog every evening",
        "the quarterly revenue grew by four percent",
    ]
    return {text: flite_wav(text, folder / f"{i}.wav", "slt") for i, text in enumerate(texts)}


def test_pocketsphinx_scores_are_exponentiated_and_shifted_by_ten_bits(spoken: dict[str, Path]) -> None:
    """What the rescorer assumes about the units: Hypothesis.score is 1.0001 ** (path score), path scores
    count in 1.0001 ** 1024, and a word's language score is (lw * ln P + ln wip) >> 10 with
    NGramModel.prob([word, previous, the one before]) giving ln P in units of 1.0001."""
    decoder = decoded(spoken["remind me to walk the dog every evening"])
    generic, lw, wip = GenericModel(decoder.get_lm()), float(decoder.config["lw"]), float(decoder.config["wip"])
    history = [START]
    checked = 0
    for segment in decoder.seg():
        word = segment.word.split("(")[0]
        if word == START or word.startswith(("<", "[", "+")) and word != END:
            continue
        expected = (lw * generic.logprob(word, history) + math.log(wip)) / LN_LOGMATH_BASE / PATH_SCORE_SHIFT
        assert math.log(segment.lscore) / LN_LOGMATH_BASE == pytest.approx(expected, abs=1.5), word
        history.append(word)
        checked += 1
    assert checked >= 5
    for hypothesis in list(decoder.nbest())[:5]:
        assert 0.0 < hypothesis.score <= 1.0  # not a log value: exp(path score), path scores are <= 0
        assert path_log_score(hypothesis.score) == pytest.approx(PATH_SCORE_SHIFT * math.log(hypothesis.score))


def test_rescoring_fixes_what_the_generic_model_gets_wrong(spoken: dict[str, Path]) -> None:
    results = []
    for text in FIXABLE:
        decoder = decoded(spoken[text])
        results.append((text, decoder.hyp().hypstr, DomainRescorer().best(decoder)))
        # With no share for the domain model the rescorer only re-reads pocketsphinx's own scores: its best.
        assert DomainRescorer(mix=0.0).best(decoder) == decoder.hyp().hypstr
    before = [word_error_rate(text, heard) for text, heard, _ in results]
    after = [word_error_rate(text, str(rescored)) for text, _, rescored in results]
    assert all(b > 0 for b in before), results  # the generic model's known errors ("son is this until ...")
    assert all(a <= b for a, b in zip(after, before, strict=True)), results
    assert sum(after) < sum(before) / 2 and after.count(0.0) >= 2, results


def test_rescoring_leaves_speech_from_outside_the_domain_alone(spoken: dict[str, Path]) -> None:
    text = "the quarterly revenue grew by four percent"
    decoder = decoded(spoken[text])
    before = decoder.hyp().hypstr
    after = DomainRescorer().best(decoder)
    assert after is not None
    assert word_error_rate(text, after) <= word_error_rate(text, before), (before, after)


def test_no_hypothesis_gives_none() -> None:
    assert DomainRescorer().rescore([], GenericModel(None), 6.5) is None


class FlatModel:
    """A stand-in for pocketsphinx's NGramModel: every word has probability 1/100."""

    def prob(self, words: list[str]) -> int:
        return round(math.log(0.01) / LN_LOGMATH_BASE)


def test_the_mixture_costs_an_unseen_word_at_most_the_generic_share() -> None:
    rescorer, generic = DomainRescorer(mix=0.6), GenericModel(FlatModel())
    assert rescorer.gain("photosynthesis", ["the"], generic) == pytest.approx(math.log(0.4), abs=1e-4)
    assert rescorer.gain("done", ["is"], generic) == pytest.approx(
        math.log(0.6 * rescorer.model.prob("done", ["is"]) + 0.4 * 0.01) - math.log(0.01), abs=1e-4
    )
    assert rescorer.gain("done", ["is"], generic) > 2.0
    assert DomainRescorer(mix=0.0).gain("done", ["is"], generic) == pytest.approx(0.0, abs=1e-9)


# -- in the engine ----------------------------------------------------------------------------------------


@pytest.mark.slow  # a fresh engine loaded, each sentence read twice
def test_the_bundled_engine_hands_on_the_rescored_text_with_word_times(spoken: dict[str, Path]) -> None:
    from app.speech_in.sphinx_engine import PocketsphinxEngine

    engine = PocketsphinxEngine()
    for text in FIXABLE:
        pcm = read_audio(spoken[text]).pcm
        raw = decoded(spoken[text]).hyp().hypstr
        result = engine.decode(pcm)
        assert word_error_rate(text, result.text) <= word_error_rate(text, raw), (raw, result.text)
        assert [word.text for word in result.words] == result.text.split()
        assert all(0.0 <= w.start <= w.end <= len(pcm) / 32000 + 0.01 for w in result.words)
        assert [w.start for w in result.words] == sorted(w.start for w in result.words)
    heard = [engine.decode(read_audio(spoken[text]).pcm).text for text in FIXABLE]
    assert sum(word_error_rate(t, h) for t, h in zip(FIXABLE, heard, strict=True)) < 0.2, heard


def test_the_live_result_is_rescored_too(spoken: dict[str, Path]) -> None:
    from app.speech_in.sphinx_engine import PocketsphinxEngine

    engine = PocketsphinxEngine()
    text = "mark the tax return as done"
    pcm = read_audio(spoken[text]).pcm
    transcriber = engine.start()
    for i in range(0, len(pcm), 3200):
        transcriber.feed(pcm[i : i + 3200])
    result = transcriber.finish()
    assert word_error_rate(text, result.text) <= 0.2, result.text


def test_the_users_phrases_rebuild_the_model_only_when_they_change() -> None:
    from app.speech_in.sphinx_engine import PocketsphinxEngine

    engine = PocketsphinxEngine()
    plain = engine.rescorer()
    taught = engine.rescorer(["Lighthouse story"])
    assert taught is not plain and "lighthouse" in taught.model.vocabulary
    assert engine.rescorer(["Lighthouse story"]) is taught
    assert engine.rescorer() is taught  # an utterance without hints keeps the last phrases the user's list gave
    # A live utterance is taught its dictation's hints.
    engine.start(hints=Hints(phrases=("Renew the passport",))).cancel()
    assert "passport" in engine.rescorer().model.vocabulary


def test_rescored_words_keep_the_times_of_the_words_they_replace() -> None:
    from app.speech_in.sphinx_engine import realigned
    from app.speech_in.transcriber import Word

    heard = [Word("the", 0.0, 0.2, 0.9), Word("male", 0.2, 0.5, 0.4), Word("gaze", 0.5, 0.9, 0.3)]
    heard.append(Word("and", 1.0, 1.1, 0.5))
    words = realigned(heard, ["the", "milk", "is", "done"])
    assert [w.text for w in words] == ["the", "milk", "is", "done"]
    assert words[0] == heard[0]
    assert (words[1].start, words[-1].end) == (0.2, 1.1)
    assert all(w.confidence is None for w in words[1:])
    assert [w.start for w in words] == sorted(w.start for w in words)
    inserted = realigned([Word("call", 0.0, 0.3, 0.9), Word("mom", 0.6, 0.9, 0.8)], ["call", "my", "mom"])
    assert [(w.text, w.start, w.end) for w in inserted] == [("call", 0.0, 0.3), ("my", 0.3, 0.6), ("mom", 0.6, 0.9)]
    assert [w.text for w in realigned(heard, ["the"])] == ["the"]
