"""Rescoring pocketsphinx's N-best list with a small language model of what people say to this app.

pocketsphinx's generic US English trigram hears "the milk is done" as "the male gaze and": every word
of the right sentence is usually somewhere in its N-best list, but the generic model ranks it low.
Its Python API cannot interpolate a second model into the search, so the fix is done afterwards,
on the finished utterance: each of the N best hypotheses gets a domain score and the best total wins.

The domain model is an interpolated Kneser-Ney trigram (`KneserNeyModel`, below) trained on
app/speech_in/domain_phrases.txt (a few hundred general commands, reminders, lists and notes) plus
the user's own phrases (entry summaries: words on the list are likely to be said again).

The units, checked against pocketsphinx 5's source and its output (see tests/speech_in/test_domain_lm.py):
`Hypothesis.score` from `decoder.nbest()` is not a log value but `logmath_exp(score)`, i.e.
1.0001 ** score, where the integer path score is kept in units of 1.0001 ** 1024 (pocketsphinx shifts
acoustic and language scores right by SENSCR_SHIFT = 10 bits during search). Its natural log is
therefore 1024 * ln(Hypothesis.score). That total already holds the generic model's contribution,
lw * ln P_generic(w | h) + ln(wip) per word (lw = 6.5, wip = 0.65); `NGramModel.prob([w, h1, h2])`
(word first, history in reverse) gives ln P_generic in units of 1.0001 (the raw, unweighted value).

The rescored total of a hypothesis W = w1 .. wn (`DomainRescorer.total`):

    path score  -  lw * sum ln P_generic(w | h)  +  lw * sum ln(mix * P_domain(w | h) + (1 - mix) * P_generic(w | h))

i.e. the generic model inside the decoder's total is swapped for a linear interpolation of the generic
and domain models (the textbook way to adapt an LM), with </s> included. Because P_mix >= (1 - mix) *
P_generic, no word loses more than lw * ln(1 / (1 - mix)) against the generic model, so a sentence outside
the domain is bent towards domain words only where the acoustics nearly tie. `mix` and the number of
hypotheses were chosen on a tuning set of our own (bench/domain_lm_bench.py), not on the benchmark.

Use: `DomainRescorer(extra_phrases=summaries).best(decoder)` after `decoder.end_utt()`.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

# The training text ships inside the package, so an installed wheel has it too.
PHRASES_FILE = files("app.speech_in") / "domain_phrases.txt"

START, END, UNKNOWN = "<s>", "</s>", "<unk>"
# pocketsphinx: log base 1.0001; path scores are shifted right by 10 bits (SENSCR_SHIFT) during search.
LN_LOGMATH_BASE = math.log(1.0001)
PATH_SCORE_SHIFT = 1 << 10
LOG_ZERO = -536870912  # pocketsphinx's log of zero (a word the generic model does not know)

# Chosen on the tuning set (bench/domain_lm_bench.py): the domain model's share of the interpolation
# and how many hypotheses to read.
MIX = 0.6
N_BEST = 100
# Words the domain model has never seen share <unk>'s probability with this many other words of the
# generic vocabulary (so an unseen word gets almost nothing from the domain side of the mixture).
UNSEEN_WORDS = 50_000


# -- text -----------------------------------------------------------------------------------------------

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_ORDINALS = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth"}
_ORDINALS |= {"nine": "ninth", "twelve": "twelfth"}


def number_words(number: int) -> str:
    """0..999 as spoken ("twenty one"); larger numbers are left as digits."""
    if number < 20:
        return _ONES[number]
    if number < 100:
        tens, ones = divmod(number, 10)
        return _TENS[tens] + ("" if ones == 0 else f" {_ONES[ones]}")
    if number < 1000:
        hundreds, rest = divmod(number, 100)
        return f"{_ONES[hundreds]} hundred" + ("" if rest == 0 else f" and {number_words(rest)}")
    return str(number)


def ordinal_words(number: int) -> str:
    """1..999 as an ordinal ("twenty first")."""
    *head, last = number_words(number).split()
    if last in _ORDINALS:
        last = _ORDINALS[last]
    else:
        last = last[:-1] + "ieth" if last.endswith("y") else last + "th"
    return " ".join([*head, last])


def words_of(text: str) -> list[str]:
    """`text` as a recogniser would write it: lower case, no punctuation, numbers and times in words
    ("Pay rent 1st" -> pay rent first, "5:30pm" -> five thirty pm, "&" -> and)."""
    text = text.lower().replace("&", " and ").replace("a.m.", "am").replace("p.m.", "pm")
    text = re.sub(r"\b(\d{1,2}):00\b", lambda m: number_words(int(m[1])), text)
    text = re.sub(r"\b(\d{1,2}):(\d\d)\b", lambda m: f"{number_words(int(m[1]))} {_minutes(int(m[2]))}", text)
    text = re.sub(r"\b(\d{1,3})(st|nd|rd|th)\b", lambda m: ordinal_words(int(m[1])), text)
    text = re.sub(r"\b(\d{1,3})(am|pm)\b", r"\1 \2", text)
    text = re.sub(r"\b\d+\b", lambda m: number_words(int(m[0])), text)
    return re.findall(r"[a-z]+(?:'[a-z]+)*", text)


def _minutes(minutes: int) -> str:
    return f"oh {number_words(minutes)}" if minutes < 10 else number_words(minutes)


def read_phrases(path: Traversable = PHRASES_FILE) -> list[str]:
    """The phrase file's lines, without blank lines and # comments."""
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


# -- the domain model -------------------------------------------------------------------------------------


class KneserNeyModel:
    """An interpolated Kneser-Ney n-gram model (one absolute discount per order, D = n1 / (n1 + 2 n2)).

    P(w | h) = max(c(h w) - D, 0) / c(h .)  +  D * N1+(h .) / c(h .) * P(w | h minus its oldest word),
    down to the uniform distribution over the vocabulary (every seen word, </s> and <unk>). c is the raw
    count for the highest order and for n-grams that start with <s>, and for the other lower orders the
    number of different words seen before the n-gram (the continuation count). A history never seen falls
    back to the shorter one. Probabilities over the vocabulary sum to 1 for every history.
    """

    def __init__(self, sentences: Iterable[Sequence[str]], order: int = 3) -> None:
        if order < 1:
            raise ValueError("order must be at least 1")
        self.order = order
        raw: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order + 1)]
        for sentence in sentences:
            tokens = (START, *sentence, END)
            for n in range(1, order + 1):
                for i in range(len(tokens) - n + 1):
                    if n > 1 or i > 0:  # <s> alone is never predicted
                        raw[n][tokens[i : i + n]] += 1
        self._counts: list[dict[tuple[str, ...], int]] = [{} for _ in range(order + 1)]
        self._counts[order] = dict(raw[order])
        for n in range(1, order):
            left = Counter(gram[1:] for gram in raw[n + 1])  # different words seen before each n-gram
            self._counts[n] = {g: (c if g[0] == START else left[g]) for g, c in raw[n].items()}
        self.vocabulary = frozenset(g[0] for g in self._counts[1]) | {END, UNKNOWN}
        # Per history: (sum of its counts, number of different words seen after it); and a discount per order.
        self._contexts: list[dict[tuple[str, ...], tuple[int, int]]] = [{} for _ in range(order + 1)]
        self._discounts = [0.0] * (order + 1)
        for n in range(1, order + 1):
            totals: Counter[tuple[str, ...]] = Counter()
            types: Counter[tuple[str, ...]] = Counter()
            for gram, count in self._counts[n].items():
                totals[gram[:-1]] += count
                types[gram[:-1]] += 1
            self._contexts[n] = {h: (totals[h], types[h]) for h in totals}
            ones = sum(1 for c in self._counts[n].values() if c == 1)
            twos = sum(1 for c in self._counts[n].values() if c == 2)
            self._discounts[n] = ones / (ones + 2 * twos) if ones and twos else 0.5

    def prob(self, word: str, history: Sequence[str] = ()) -> float:
        """P(word | history); history is the words before it, oldest first (START for the sentence start)."""
        if word not in self.vocabulary:
            word = UNKNOWN
        context = tuple(history)[len(history) - self.order + 1 :] if self.order > 1 else ()
        return self._prob(word, context)

    def _prob(self, word: str, history: tuple[str, ...]) -> float:
        lower = self._prob(word, history[1:]) if history else 1.0 / len(self.vocabulary)
        n = len(history) + 1
        context = self._contexts[n].get(history)
        if context is None:
            return lower
        total, types = context
        discount = self._discounts[n]
        return max(self._counts[n].get((*history, word), 0) - discount, 0.0) / total + discount * types / total * lower


# -- rescoring ---------------------------------------------------------------------------------------------


def path_log_score(score: float) -> float:
    """The natural log of an N-best hypothesis' path score from its `Hypothesis.score` (see the module doc)."""
    return PATH_SCORE_SHIFT * math.log(score) if score > 0.0 else -math.inf


class GenericModel:
    """The decoder's own language model (`decoder.get_lm()`), read as ln P(word | history), with a cache."""

    def __init__(self, lm: Any, order: int = 3) -> None:
        self._lm = lm
        self._order = order
        self._cache: dict[tuple[str, ...], float] = {}

    def logprob(self, word: str, history: Sequence[str]) -> float:
        key = (word, *reversed(history[len(history) - self._order + 1 :]))
        known = self._cache.get(key)
        if known is None:
            raw = int(self._lm.prob(list(key)))
            known = self._cache[key] = -math.inf if raw <= LOG_ZERO else raw * LN_LOGMATH_BASE
        return known


class DomainRescorer:
    """Picks the best of pocketsphinx's N-best hypotheses with the domain model swapped into its score.

    Build it once (training takes a few milliseconds per hundred phrases) and again when the user's
    phrases change; `best(decoder)` after `end_utt()` returns the rescored text (None: no hypothesis).
    """

    def __init__(
        self,
        extra_phrases: Iterable[str] = (),
        *,
        mix: float = MIX,
        n_best: int = N_BEST,
        phrases: Sequence[str] | None = None,
        order: int = 3,
    ) -> None:
        if not 0.0 <= mix < 1.0:
            raise ValueError("mix must be in [0, 1)")
        lines = read_phrases() if phrases is None else list(phrases)
        sentences = [words for words in map(words_of, [*lines, *extra_phrases]) if words]
        self.model = KneserNeyModel(sentences, order)
        self.mix = mix
        self.n_best = n_best
        self._order = order
        self._unseen = 1.0 / UNSEEN_WORDS

    def domain_prob(self, word: str, history: Sequence[str]) -> float:
        """P_domain(word | history) as a share of the whole vocabulary: an unseen word gets <unk>'s
        probability divided among the UNSEEN_WORDS words it stands for."""
        p = self.model.prob(word, history)
        return p * self._unseen if word not in self.model.vocabulary else p

    def total(
        self,
        words: Sequence[str],
        path_score: float,
        generic: GenericModel,
        language_weight: float,
        memo: dict[tuple[str, ...], float] | None = None,
    ) -> float:
        """The hypothesis' rescored total (natural log; see the module doc). `memo` keeps the per-word terms
        between the hypotheses of one N-best list, which mostly share their n-grams."""
        memo = {} if memo is None else memo
        tokens = (START, *words, END)
        change = 0.0
        for i in range(1, len(tokens)):
            gram = tokens[max(0, i - self._order + 1) : i + 1]
            term = memo.get(gram)
            if term is None:
                term = memo[gram] = self.gain(gram[-1], gram[:-1], generic)
            change += term
        return path_score + language_weight * change

    def gain(self, word: str, history: Sequence[str], generic: GenericModel) -> float:
        """ln P_mix(word | history) - ln P_generic(word | history)."""
        g = generic.logprob(word, history)
        if g == -math.inf:  # not in the generic model: the decoder did not say it through that model
            return 0.0
        return math.log(self.mix * self.domain_prob(word, history) + (1.0 - self.mix) * math.exp(g)) - g

    def rescore(self, nbest: Iterable[tuple[str, float]], generic: GenericModel, language_weight: float) -> str | None:
        """The best text of (hypstr, Hypothesis.score) pairs (the same text on several paths counts once, at
        its best score); None for an empty list."""
        best: dict[str, float] = {}
        for text, score in nbest:
            best[text] = max(best.get(text, -math.inf), path_log_score(score))
        memo: dict[tuple[str, ...], float] = {}
        totals = {text: self.total(text.split(), score, generic, language_weight, memo) for text, score in best.items()}
        return max(totals, key=totals.__getitem__, default=None)

    def best(self, decoder: Any, n: int | None = None) -> str | None:
        """The rescored text of the utterance the decoder just finished (call after `end_utt()`)."""
        nbest = decoder.nbest()
        if nbest is None:
            return None
        # pocketsphinx's N-best iterator can yield None for a path it could not finish: the others stand
        pairs = [(h.hypstr, h.score) for h in itertools.islice(nbest, n or self.n_best) if h is not None]
        generic = GenericModel(decoder.get_lm(), self._order)
        return self.rescore(pairs, generic, float(decoder.config["lw"]))
