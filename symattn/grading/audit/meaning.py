"""Claims made in words about facts of attention, judged by what they say.

A *proposition* is a fact of attention SymPy establishes once (below, each with its proof), and
the words authors state it in. A sentence that states it, wrapped over its paragraph's lines
or not, is certified when its words agree with the fact and called wrong when they state the
opposite; the claim stands on the line of the word that decides it ("summing to *zero*",
"*smaller* variance"). A sentence that denies (not, never) or speaks of something else the
proposition names (gradients, pooling, temperature) is not read.

- **weights sum to one**: a row of :func:`symattn.core.softmax.softmax_rows` over symbolic
  scores, which SymPy reduces to 1.
- **weights are positive**: each entry of that row, an exponential over a sum of exponentials,
  SymPy finds positive for real scores ("nonnegative" and "positive" hold; "negative" is wrong).
- **a weighted average of the values**: a row of softmax(S) V is ∑_j p_j v_j with weights p_j
  that are positive and sum to 1 (:func:`symattn.core.exact.attention`, SymPy): "a weighted
  average (mean, sum) of the values" holds; of the keys or the queries, it is wrong.
- **permutation equivariance**: softmax((PQ)(PK)^T/√d) PV = P softmax(QK^T/√d) V (the
  derivation ``permutation_equivariance``, checked by ``symattn verify``): "self-attention is
  permutation-equivariant", "permute the inputs and the outputs are permuted the same way";
  invariant or unchanged is wrong.
- **variance grows with the width**: Var(∑ q_i k_i) = d for independent standard entries
  (:class:`symattn.proof.expectation.Expectation`), increasing in d.
- **dividing the scores spreads the weights**: for two scores a gap Δ > 0 apart, the larger
  weight 1/(1 + e^(−Δ/c)) falls as the divisor c grows (its derivative, by SymPy, is negative).
- **more similar, more weight**: ∂p_1/∂s_1 = p_1 p_2 > 0 for softmax weights p.
- **heads at a fixed cost**: h heads of width w cost h·w; held at C, w = C/h falls as h grows.
- **dot products are cheapest**: a squared distance ∑(q_i − k_i)² and an additive score
  w·tanh(W_q q + W_k k) take more operations than ∑ q_i k_i (SymPy's ``count_ops``, d = 1..4).
- **the crossover with recurrence**: self-attention's O(n² d) against a recurrent layer's
  O(n d²) (:data:`.complexity.LAYERS`, constant factors dropped as a complexity table does):
  under the sentence's condition (n > d, d > n) the difference n d (n − d) has one sign, or not.
- **a count in words and the items listed**: "two additional matrices: one for ..., and the
  other for ..." names two; a list or the lines of a code block after "the following three
  sentences:" are counted.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp

from .hedges import DENIED
from .said import Math, Said

_NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "half": sp.Rational(1, 2)}
_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
#: What a sentence about the weights or the output may speak of instead (the scores or inputs
#: before the softmax, other kinds of attention), or how it may report rather than assert.
_ELSEWHERE = (
    r"|input|entries|before the softmax|linear attention|feature map|φ|\bphi\b|differential|kernel"
    r"|\?|\bmistakes?\b|\bbugs?\b|\bwrong\b|\bsuppose|\bassum|\bexpect|\bclaim|\bexercise|\bcan\b|\bmay\b"
)


#: Characters of the line before read with a line, for words wrapped at its end.
_WRAPPED = 40
_MORE = {"larger", "higher", "greater", "bigger", "more", "increased", "grows", "increases", "rises"}


@dataclass(frozen=True)
class Proposition:
    """A fact of attention and the words that state it."""

    name: str
    #: The words that state it, found on a line: the group ``word`` decides true or false.
    words: re.Pattern
    #: What must stand in the sentence before the words for them to be about this fact.
    about: re.Pattern
    #: What makes the sentence about something else (its words are then not read).
    unless: re.Pattern | None
    #: (the words' match, the sentence, the words' offset in it) -> holds, wrong, or None (not read)
    judge: Callable[[re.Match, str, int], bool | None]
    #: The fact, as SymPy establishes it (computed once, on first use).
    fact: Callable[[], Said]
    rule: str
    #: Whether ``about`` may stand anywhere in the sentence, after the words too.
    about_anywhere: bool = False
    #: Figures on the line that are the claim's premise ("normalizing the weights to 1"): part of it.
    premise: re.Pattern | None = None


# --- the facts, each established by SymPy ---------------------------------------------------


def _established(holds: bool | None, what: str) -> None:
    if holds is not True:  # never taken on trust: a fact SymPy does not establish is no fact
        raise ArithmeticError(f"SymPy did not establish that {what}")


@functools.cache
def _sums() -> Said:
    from ...core.softmax import softmax_rows

    z = sp.symbols("z1:4", real=True)
    total = sp.simplify(sum(softmax_rows(sp.Matrix([z]))))
    _established(total == 1, "a row of softmax weights sums to 1")
    return Said("a row of softmax weights sums to ", Math(total))


@functools.cache
def _positive() -> Said:
    from ...core.softmax import softmax_rows

    z = sp.symbols("z1:4", real=True)
    weights = softmax_rows(sp.Matrix([z]))
    _established(all(w.is_positive for w in weights), "each softmax weight is positive")
    return Said("each softmax weight ", Math(weights[0]), " is positive")


@functools.cache
def _averaged() -> Said:
    from ...core.exact import attention

    s = sp.Matrix([sp.symbols("s1:4", real=True)])
    v = sp.Matrix(3, 1, sp.symbols("v1:4", real=True))
    out = attention(s, sp.eye(3), v, "none").output[0]  # Q = s, K = I: the scores are s / √3
    weights = [sp.diff(out, x) for x in v]
    _established(
        sp.simplify(out - sum(w * x for w, x in zip(weights, v, strict=True))) == 0
        and sp.simplify(sum(weights) - 1) == 0
        and all(w.is_positive for w in weights),
        "a row of attention's output is a weighted average of the values",
    )
    return Said("a row of the output is ∑_j p_j v_j, the weights positive and summing to 1")


@functools.cache
def _shifted() -> Said:
    from ...core.softmax import softmax_rows

    z = sp.symbols("z1:4", real=True)
    c = sp.Symbol("c", real=True)
    plain, shifted = (softmax_rows(sp.Matrix([[x + k for x in z]])) for k in (0, c))
    _established(
        all(sp.simplify(a - b) == 0 for a, b in zip(plain, shifted, strict=True)),
        "adding one term to every score leaves the softmax unchanged",
    )
    return Said("softmax(z + c) = softmax(z): a term the same for every key cancels in the normalisation")


@functools.cache
def _intensity() -> Said:
    flops, moved = sp.symbols("F B", positive=True)
    _established(sp.diff(flops / moved, moved).is_negative, "arithmetic intensity falls as more bytes move")
    return Said("arithmetic intensity is FLOPs per byte moved, F/B: fewer bytes for the same FLOPs raise it")


def _judge_intensity(m: re.Match, sentence: str, at: int) -> bool | None:
    return m.group("word").lower().startswith(("rais", "increas", "improv", "boost", "higher"))


def _judge_shift(m: re.Match, sentence: str, at: int) -> bool | None:
    return True  # "disappears", "cancels", "drops out": what the words say holds


def _judge_averaged(m: re.Match, sentence: str, at: int) -> bool | None:
    # "a weighted mean of the values", or "the values ... to obtain a weighted mean"
    groups = m.groupdict()
    what = (groups.get("word") or groups.get("after") or "").lower()
    if re.match(r"values?|value vectors?", what):
        return True
    if re.match(r"keys?|queries|query", what):
        return False
    return None  # the inputs: the values themselves where the text has no projections


def _judge_sign(m: re.Match, sentence: str, at: int) -> bool | None:
    word = m.group("word") or m.group("before")
    return word.lower().replace("-", "") in ("positive", "nonnegative")


@functools.cache
def _equivariant() -> Said:
    return Said("permutation-equivariant: its outputs are permuted with its inputs")


@functools.cache
def _variance() -> Said:
    from ...proof.expectation import Expectation, Family

    d = sp.Symbol("d", positive=True, integer=True)
    i = sp.Symbol("i", integer=True, positive=True)
    q, k = sp.IndexedBase("q"), sp.IndexedBase("k")
    var = Expectation([Family(q), Family(k)]).variance(sp.Sum(q[i] * k[i], (i, 1, d)))
    _established(sp.diff(var, d).is_positive, "Var(q · k) grows with d")
    return Said("Var(q · k) = ", Math(var), " grows with the width d")


@functools.cache
def _spread() -> Said:
    gap, c = sp.symbols("Δ c", positive=True)
    top = 1 / (1 + sp.exp(-gap / c))
    slope = sp.simplify(sp.diff(top, c))
    _established(slope.is_negative, "the largest weight falls as the divisor grows")
    return Said("dividing the scores by more flattens the weights: d/dc ", Math(top), " < 0")


@functools.cache
def _similar() -> Said:
    s1, s2 = sp.symbols("s1 s2", real=True)
    p1, p2 = (sp.exp(s) / (sp.exp(s1) + sp.exp(s2)) for s in (s1, s2))
    _established(sp.simplify(sp.diff(p1, s1) - p1 * p2) == 0 and (p1 * p2).is_positive, "∂p_1/∂s_1 > 0")
    return Said("a higher score gets a higher weight: ∂p_1/∂s_1 = p_1(1 − p_1) > 0")


@functools.cache
def _heads() -> Said:
    h, w, cost = sp.symbols("h w C", positive=True)
    width = sp.solve(sp.Eq(h * w, cost), w)[0]
    _established(sp.diff(width, h).is_negative, "the width falls as heads are added")
    return Said("at a fixed cost C the head width is ", Math(width), ": it falls as heads are added")


@functools.cache
def _dot_cheapest() -> Said:
    for d in range(1, 5):
        q, k, w = (sp.symbols(f"{x}1:{d + 1}", real=True) for x in "qkw")
        dot = sp.count_ops(sum(a * b for a, b in zip(q, k, strict=True)), visual=False)
        distance = sp.count_ops(sum((a - b) ** 2 for a, b in zip(q, k, strict=True)), visual=False)
        wq, wk = (sp.Matrix(d, d, sp.symbols(f"{x}1:{d * d + 1}")) for x in ("A", "B"))
        hidden = (wq * sp.Matrix(q) + wk * sp.Matrix(k)).applyfunc(sp.tanh)
        additive = sp.count_ops((sp.Matrix([w]) * hidden)[0], visual=False)
        _established(dot < distance and dot < additive, f"a dot product is cheapest at d = {d}")
    return Said("a dot product takes fewer operations than a distance or an additive score")


@functools.cache
def _crossover() -> sp.Expr:
    """Self-attention's O-class less a recurrent layer's (leading terms, constants dropped)."""
    from .complexity import LAYERS

    attention, recurrent = (sp.LT(LAYERS[k][0]) for k in ("self-attention", "recurrent"))
    return sp.factor(attention / sp.LC(attention) - recurrent / sp.LC(recurrent))


@functools.cache
def _crossover_fact() -> Said:
    from .complexity import _d, _n

    difference = _crossover()
    _established(sp.expand(difference - _n * _d * (_n - _d)) == 0, "the O-classes differ by n d (n − d)")
    return Said("self-attention O(n² d) against recurrence O(n d²): their difference is ", Math(difference))


@functools.cache
def _degrees() -> dict[str, int]:
    """The degree of self-attention's cost in the sequence length n and in the width d."""
    from .complexity import LAYERS, _d, _n

    cost = sp.Poly(LAYERS["self-attention"][0], _n, _d)
    return {"n": cost.degree(_n), "d": cost.degree(_d)}


def _growth() -> Said:
    degrees = _degrees()
    return Said(
        f"self-attention's cost has degree {degrees['n']} in the sequence length and {degrees['d']} "
        "in the width"
    )


@functools.cache
def _shortest() -> Said:
    from .complexity import LAYERS, _k, _n, _r

    paths = {name: LAYERS[name][2] for name in LAYERS}
    sizes = {_n: sp.Integer(10**6), _k: sp.Integer(3), _r: sp.Integer(8)}  # any long sequence
    others = [p for name, p in paths.items() if name != "self-attention"]
    _established(
        paths["self-attention"] == 1 and all(p.xreplace(sizes) > 1 for p in others),
        "self-attention's path of 1 is the shortest",
    )
    return Said("the maximum path length: self-attention 1, recurrent n, convolutional n/k, restricted n/r")


def _judge_growth(m: re.Match, sentence: str, at: int) -> bool | None:
    role = _role(m.group("of"))
    word = m.group("word").lower()
    degree = 1 if word.startswith("linear") else 2 if word.startswith("quadratic") else 3
    return _degrees()[role] == degree


# --- how each is stated ----------------------------------------------------------------------


def _judge_sums(m: re.Match, sentence: str, at: int) -> bool | None:
    number = m.group("num") or m.group("fnum")
    stated = _NUMBER_WORDS[m.group("word")] if m.group("word") else sp.Rational(number)
    if m.group("percent") or m.group("fpercent"):
        stated /= 100  # "sum to 100 %"
    return stated == 1


def _judge_order(m: re.Match, sentence: str, at: int) -> bool | None:
    if m.group("object"):
        return None  # invariant to permuting the key-value pairs together: true, not this claim
    return (m.group("word") or m.group("w2")) == "equivariant"


def _judge_permuted(m: re.Match, sentence: str, at: int) -> bool | None:
    word = m.group("word")
    if word.startswith("the same") and re.search(r"(?:switched|swapped|exchanged|permuted|reordered)$", word):
        # the same but for the elements switched: permuted, if they are the ones swapped
        swapped = re.search(r"\b(?:switch|swap|exchang)\w*\b[^.;]*?(\d+)\D{1,12}?(\d+)", sentence[:at])
        named = re.findall(r"\d+", word)
        return not (swapped and len(named) == 2 and set(named) != {swapped.group(1), swapped.group(2)})
    return word in ("permuted", "reordered", "shuffled", "rearranged", "equivariant")


def _judge_more(m: re.Match, sentence: str, at: int) -> bool | None:
    return m.group("word").lower() in _MORE


def _judge_spread(m: re.Match, sentence: str, at: int) -> bool | None:
    word = (m.group("word") or m.group("w2")).lower()
    flat = re.match(r"spread|uniform|diffuse|even|smooth|flat|soft", word) is not None
    less = (m.group("degree") or "").lower() == "less"
    return flat != less


def _judge_similar(m: re.Match, sentence: str, at: int) -> bool | None:
    similar = list(_SIMILAR.finditer(sentence[:at] + " " + sentence[at + len(m.group(0)) :]))
    if len(similar) != 1:
        return None
    degree = similar[0].group("degree") or similar[0].group("degree2")
    closer = degree.lower() in ("most", "more", "higher", "larger", "greater")
    return closer == (m.group("word").lower() in _MORE)


def _judge_reduced(m: re.Match, sentence: str, at: int) -> bool | None:
    return m.group("word").lower() in ("reduced", "decreased", "divided", "shrunk", "lowered", "smaller")


def _judge_costlier(m: re.Match, sentence: str, at: int) -> bool | None:
    return re.match(r"more|costlier|slower", m.group("word")) is not None


_ROLE_WORDS = (
    (r"sequence length|length of the sequence|number of (?:tokens|positions)|(?:input )?length", "n"),
    (
        r"(?:hidden|representation|model|embedding) (?:dimensionality|dimension|size|width)|dimensionality",
        "d",
    ),
)
_ROLE = "|".join(f"(?:{w})" for w, _ in _ROLE_WORDS)
_CONDITION = re.compile(
    rf"\b(?:when|if|once|as long as|for)\s+(?:the\s+)?(?P<a>{_ROLE})(?:\s+⟨\s*\w+\s*⟩)?\s+"
    r"(?P<rel>exceeds|is (?:larger|greater|bigger|longer|smaller|less|shorter|lower) than)\s+"
    rf"(?:the\s+)?(?P<b>{_ROLE})\b",
    re.I,
)


def _role(words: str) -> str:
    return next(r for w, r in _ROLE_WORDS if re.fullmatch(w, words, re.I))


def _judge_crossover(m: re.Match, sentence: str, at: int) -> bool | None:
    from .complexity import _d, _n

    end = at + len(m.group(0))
    conditions = [
        c
        for c in _CONDITION.finditer(sentence)
        if (c.end() <= at and re.fullmatch(r"\s*,?\s*", sentence[c.end() : at]))
        or (c.start() >= end and re.fullmatch(r"\s*,?\s*", sentence[end : c.start()]))
    ]  # "when n exceeds d, self-attention is ..." or "... than RNNs when n exceeds d": one clause
    if len(conditions) != 1 or re.search(r"wall-clock|\btime\b|parallel|latency", sentence, re.I):
        return None
    c = conditions[0]
    a, b = _role(c.group("a")), _role(c.group("b"))
    if a == b:
        return None
    bigger = a if re.search(r"exceeds|larger|greater|bigger|longer", c.group("rel")) else b
    t = sp.Symbol("t", positive=True)  # the larger is the smaller plus t
    under = sp.factor(_crossover().subs({_n: _d + t} if bigger == "n" else {_d: _n + t}))
    costlier = _judge_costlier(m, sentence, at)
    if under.is_positive:
        return costlier
    if under.is_negative:
        return not costlier
    return None


_SIMILAR = re.compile(
    r"\b(?P<degree>most|more|least|less)\s+similar\b"
    r"|\b(?P<degree2>higher|larger|greater|lower|smaller)\s+(?:similarity|scores?|dot products?)\b"
)

_EQUIVARIANT_RULE = (
    "meaning: self-attention is permutation-equivariant (the derivation permutation_equivariance, "
    "checked by symattn verify)"
)

PROPOSITIONS = (
    Proposition(
        "loading less raises the arithmetic intensity",
        re.compile(
            r"\b(?P<word>reduc\w*|lower\w*|decreas\w*|rais\w*|increas\w*|improv\w*|boost\w*)\s+"
            r"(?:the\s+|its\s+|our\s+)?arithmetic\s+intensity\b",
            re.I,
        ),
        re.compile(
            r"\b(?i:only\s+(?:have\s+to\s+)?(?:load|move|read)\w*|fewer\s+bytes|less\s+(?:data|memory\s+traffic)"
            r"|avoid\w*\s+(?:loading|moving|reading))\b[^.;]{0,120}$"
        ),
        re.compile(
            r"\bnot\b|more\s+FLOPs|extra\s+FLOPs|recomput|batch|decod|shrink|smaller|split|micro|reload|"
            r"more\s+bytes|once\s+per" + _ELSEWHERE,
            re.I,
        ),
        _judge_intensity,
        _intensity,
        "meaning: arithmetic intensity is FLOPs per byte moved (SymPy: F/B falls as B grows)",
    ),
    Proposition(
        "a term the same for every key cancels in the softmax",
        re.compile(
            r"\b(?:this|that|the\s+(?:final|last|constant|common)|such\s+a)\s+term\s+"
            r"(?P<word>disappears|cancels(?:\s+out)?|drops\s+out|vanishes)\b"
        ),
        re.compile(r"\b(?i:normaliz\w*|normalis\w*|softmax)\b[^.;]{0,120}$"),
        re.compile(
            r"gradient|jacobian|derivative|mask|residual|layer\s*norm|differs|varies|depends on the key"
            + _ELSEWHERE,
            re.I,
        ),
        _judge_shift,
        _shifted,
        "meaning: a term the same for every key cancels in the softmax (symattn.core.softmax, SymPy)",
        premise=re.compile(r"\bnormali[sz]\w*[^.;⟨]{0,60}?\bto\s+(?P<figure>⟨\s*1\s*⟩)", re.I),
    ),
    Proposition(
        "a weighted average of the values",
        re.compile(
            r"\bweighted\s+(?:average|mean|sum|combination)\s+of\s+(?:the\s+)?(?:\w+\s+)?"
            r"(?P<word>value vectors?|values?|keys?|queries|query|inputs?)\b"
        ),
        # the output itself is said to be the average: "the output (of attention) is a weighted ..."
        re.compile(
            r"\b(?i:output|result|context vector)s?\b[^.;]{0,60}\b(?:is|are|gives?|returns?|computes?|as)\s+"
            r"(?:just\s+|simply\s+)?(?:a|the)\s+$"
        ),
        re.compile(
            r"pool|\bCLS\b|readout|gradient|multiple heads|not a good|serve as the values|V\s*=\s*K|K\s*=\s*V"
            r"|same as the values|keys are the values" + _ELSEWHERE,
            re.I,
        ),
        _judge_averaged,
        _averaged,
        "meaning: a row of attention's output is a weighted average of the values "
        "(symattn.core.exact, SymPy)",
    ),
    Proposition(
        "the values weighted into a mean",
        re.compile(
            r"\b(?P<after>values?|keys?|quer(?:y|ies))(?:\s+vectors?)?\b[^.;⟨⟩]{0,40}?"
            r"\bto\s+(?:obtain|get|give|form)\s+a\s+weighted\s+(?:average|mean|sum)\b"
        ),
        re.compile(r"\b(?i:softmax|attention weights)\b[^.;]{0,80}$"),
        re.compile(r"pool|\bCLS\b|readout|gradient|serve as the values|V\s*=\s*K" + _ELSEWHERE, re.I),
        _judge_averaged,
        _averaged,
        "meaning: a row of attention's output is a weighted average of the values "
        "(symattn.core.exact, SymPy)",
    ),
    Proposition(
        "weights are positive",
        re.compile(
            r"\b(?:are|is|be|become|stay|remain|makes?\s+(?:the\s+)?[\w\s]{0,30}?)\s*"
            r"(?:all\s+|always\s+|strictly\s+)?(?P<word>non-?negative|positive|negative)\b"
            r"|\b(?P<before>non-?negative|positive|negative)\s+(?:attention\s+)?(?:weights|probabilities)\b"
        ),
        re.compile(
            r"\b(?i:(?:attention|softmax) (?:weights?|probabilit(?:y|ies))|softmax(?: outputs?)?)\b"
            r"[^.;]{0,80}$"
        ),
        re.compile(r"gradient|jacobian|derivative|logit|\blog\b|score|mask|residual" + _ELSEWHERE, re.I),
        _judge_sign,
        _positive,
        "meaning: each softmax weight is positive (symattn.core.softmax, SymPy)",
    ),
    Proposition(
        "weights sum to one",
        re.compile(
            r"\b(?:sum(?:s|med|ming)?|add(?:s|ing)?\s+up)\s+(?:up\s+)?to\s+"
            r"(?:(?P<word>zero|one|two|three|half)\b(?!\s+(?:half|third|quarter|tenth))"
            r"|(?P<num>\d+(?:\.\d+)?)\b(?P<percent>\s*%)?|⟨\s*(?P<fnum>\d+(?:\.\d+)?)\s*(?P<fpercent>\\?%)?⟩)"
        ),
        re.compile(
            r"\b(?:(?:attention|softmax) (?:weights?|probabilit(?:y|ies)|scores)|softmax(?: outputs?)?"
            r"|attention (?:map|matrix)s?)\b[^.;]{0,120}$"
        ),
        re.compile(
            r"gradient|jacobian|derivative|logit|\blog\b|differen|residual|mask|cent(?:er|re)|column|rows\b"
            r"|together|across|queries|heads|entries|\btotal|\b(?:first|last|top|some|these|those|few|two|three"
            r"|four|subset|half)\b",
            re.I,
        ),
        _judge_sums,
        _sums,
        "meaning: a row of softmax weights sums to 1 (symattn.core.softmax, SymPy)",
    ),
    Proposition(
        "permutation equivariance",
        re.compile(
            r"\b(?:permutation[- ](?P<word>equivariant|invariant)"
            r"|(?P<w2>equivariant|invariant)\s+to\s+(?:the\s+)?(?:order|permutations?))"
            r"(?P<object>\s+of\s+(?:the\s+)?(?:key|value)[\w-]*)?"
        ),
        re.compile(
            r"\b(?:(?i:self-attention)(?: layers?)?|(?:[Tt]he )?attention layers?|(?i:multi-head attention)"
            r"|(?:[Tt]he )?[Tt]ransformers?(?: encoder)?|MHA)\b[^.;]{0,80}$"
        ),
        # pooling, a mean or a readout after it, a fixed query, cross-attention's memory: invariant,
        # truly; a causal mask or positions: not equivariant either
        re.compile(
            r"\bpool|\bmean\b|averag|\bsum of|summ|sum over|\bmax|readout|\bCLS\b|fixed query|cross-attention"
            r"|memory|causal"
            r"|mask|position|encoding|embedding|decoder|strictly",
            re.I,
        ),
        _judge_order,
        _equivariant,
        _EQUIVARIANT_RULE,
    ),
    Proposition(
        "outputs permuted with the inputs",
        re.compile(
            r"\b(?:the\s+)?outputs?\b[^.;]{0,30}?\b(?P<word>permuted|reordered|shuffled|rearranged"
            # "the output is exactly the same besides the elements 1 and 2 switched": permuted
            r"|the same\s+(?:besides|except(?:\s+for)?|apart\s+from|but\s+with)\s+[^.;]{0,40}?"
            r"(?:switched|swapped|exchanged|permuted|reordered)"
            r"|unchanged|unaffected|the same(?!\s+(?:way|order|manner|permutation))|identical)\b"
        ),
        re.compile(
            r"\b(?:permut\w*|reorder\w*|shuffl\w*|switch\w*|swap\w*|exchang\w*)\b[^.;]{0,40}"
            r"\b(?:inputs?|tokens?|sequence|elements?)\b"
        ),
        re.compile(
            r"\bpool|key-value|key/value|keys and values|position|\bsets?\b|\ba (?:single )?query|undo|revers"
            r"|output\s+(?:for|of|at)\s+(?:token|position|element)\s+\d|\blayer\b|\bruns?\b"
            r"|invers|\bsum\b|summ|\bmean\b|averag|\bmax|\bmin|aggregat|causal|mask|decoder|cross-attention",
            re.I,
        ),
        _judge_permuted,
        _equivariant,
        _EQUIVARIANT_RULE,
    ),
    Proposition(
        "variance grows with the width",
        re.compile(
            r"\b(?P<word>larger|higher|greater|bigger|increased|smaller|lower|reduced|decreased)\s+variances?\b"
        ),
        re.compile(
            r"(?i:(?=.*\b(?:dot[- ]products?|scores?|logits?|alignment)\b))"
            r"(?i:.*\b(?:(?:larger|higher|greater|bigger|more|increas\w*)\s+(?:dimension\w*|number of "
            r"(?:dimensions|terms|entries))|higher-dimensional|more terms)\b)"
        ),
        re.compile(
            r"scal|divid|normali|temperature|1/|unit vectors?|cosine|small(?:er)? dimension|averag|\bmean\b",
            re.I,
        ),
        _judge_more,
        _variance,
        "meaning: Var(q · k) = d for independent standard entries (symattn.proof.expectation), "
        "increasing in d",
    ),
    Proposition(
        "dividing the scores spreads the weights",
        re.compile(
            r"\b(?:(?P<degree>more|less)\s+(?P<word>spread[- ]out|uniform|diffuse|evenly spread|smooth"
            r"|concentrated|peaked|peaky|sharp|focused|extreme)"
            r"|(?P<w2>flatter|softer|smoother|sharper|peakier))\b"
        ),
        re.compile(
            r"(?=.*\b(?:weights?|softmax|distribution|attention)\b)"
            r".*(?:\b(?:[Tt]his|[Tt]he) scaling\b|\b[Ss]cal(?:ing|ed|es?) down\b"
            r"|\bdivid\w* (?:them |it )?by\b|\breciprocal\b"
            r"|\breduc\w* (?:the )?(?:alignment |attention )?(?:scores|logits))"
        ),
        re.compile(
            r"scal\w* up|multipl|increas|temperature|unscaled|before scaling|large constant|smaller than one"
            r"|less than one|instead",
            re.I,
        ),
        _judge_spread,
        _spread,
        "meaning: dividing the scores by c > 1 lowers the largest weight (SymPy: its derivative in c "
        "is negative)",
    ),
    Proposition(
        "more similar, more weight",
        re.compile(
            r"\b(?P<word>higher|larger|greater|bigger|more|lower|smaller|less)\s+(?:attention\s+)?weights?\b"
        ),
        re.compile(r"\b(?:keys?|query|queries)\b"),
        re.compile(r"temperature|mask|dissimilar|negative|\bother|\brest\b|remaining|leaving|share", re.I),
        _judge_similar,
        _similar,
        "meaning: softmax weights grow with their scores (SymPy: ∂p_1/∂s_1 = p_1 p_2 > 0)",
        about_anywhere=True,
    ),
    Proposition(
        "heads at a fixed cost",
        re.compile(
            r"\b(?:dimensions?|dimensionality|sizes?|widths?)\b[^.;]{0,50}?\b(?:may|must|should|can|are|is)"
            r"\s+(?:be\s+)?(?P<word>reduced|decreased|divided|shrunk|lowered|smaller|increased|enlarged"
            r"|larger|multiplied|grown)\b"
        ),
        re.compile(
            r"\b(?:maintain|keep|preserve|hold)\w*\s+(?:the\s+)?(?:total\s+|overall\s+)?(?:computation"
            r"|computational cost|cost|compute|FLOPs)\b"
        ),
        re.compile(r"fewer|halv|\bfrom\b|layers?\b|parameters?", re.I),
        _judge_reduced,
        _heads,
        "meaning: h heads of width w cost h·w; at a fixed cost the width is C/h (SymPy)",
    ),
    Proposition(
        "dot products are cheapest",
        re.compile(
            r"\b(?P<word>more expensive|costlier|more costly|slower|cheaper|less expensive|less costly"
            r"|faster)"
            r"(?:\s+to\s+(?:compute|evaluate|calculate))?\s+than\s+(?:the\s+)?(?:scaled\s+)?"
            r"dot[- ]products?\b"
        ),
        re.compile(
            r"(?i:\b(?:distances?|distance functions?|additive(?: attention| scores?)?|MLP))[^.;,]{0,30}$"
        ),
        re.compile(r"bucket|lookup|look up|hash|LSH|every key|all keys|approximat", re.I),
        _judge_costlier,
        _dot_cheapest,
        "meaning: a dot product takes fewer operations than a squared distance or an additive score "
        "(SymPy's count_ops at d = 1..4)",
    ),
    Proposition(
        "the crossover with recurrence",
        re.compile(
            r"\b(?:self-attention|attention)(?:\s+layers?)?\s+(?:becomes?|is|are|gets?)\s+"
            r"(?:much\s+|far\s+|slightly\s+)?(?P<word>more expensive|costlier|slower|cheaper|less expensive"
            r"|faster)\s+than\s+(?:the\s+)?(?:RNNs?|recurrent(?:\s+layers?|\s+networks?)?)"
        ),
        re.compile(r""),
        None,
        _judge_crossover,
        _crossover_fact,
        "meaning: self-attention's O(n² d) against a recurrent layer's O(n d²) (the complexity table's "
        "counts, constants dropped): the sign of n d (n − d) under the sentence's condition (SymPy)",
    ),
    Proposition(
        "self-attention's cost grows with the square of the length",
        re.compile(
            rf"\b(?P<word>linear|quadratic|cubic)(?:ly|ally)?\b(?:\s+(?:computational\s+)?(?:complexity|cost|time))?"
            rf"\s+(?:in|with|with respect to|w\.r\.t\.)\s+(?:the\s+)?(?P<of>{_ROLE})\b",
            re.I,
        ),
        re.compile(r"\bself-attention\b|\battention (?:layers?|mechanism|matrix|scores|weights)\b", re.I),
        re.compile(
            r"linear attention|efficient|sparse|window|local|restricted|flash|memory|kernel|approximat"
            r"|low-rank|recurren|RNN|convolution|MLP|feed-forward|parameters?|projection|including|total"
            r"|decod|cache|per token|new token|incremental|generat",
            re.I,
        ),
        _judge_growth,
        _growth,
        "meaning: self-attention's cost, (n × d)(d × n) and (n × n)(n × d) products, has degree 2 in the "
        "sequence length n and 1 in the width d (symattn.grading.audit.complexity, SymPy)",
        about_anywhere=True,
    ),
    Proposition(
        "self-attention has the shortest path",
        re.compile(r"\b(?P<word>shortest|longest)\s+(?:maximum\s+)?path(?:\s+length)?\b", re.I),
        re.compile(r"\bself-attention\b[^.;]{0,40}$", re.I),
        None,
        lambda m, sentence, at: m.group("word").lower() == "shortest",
        _shortest,
        "meaning: the maximum path length between two positions is 1 for self-attention, n for a "
        "recurrent layer, n/k for a convolution, n/r for restricted attention (the complexity table)",
    ),
)


def facts_in_words(au, line, add, covered) -> None:
    from .match import Claim

    # words wrapped from the paragraph's line before ("more / spread-out") are read where they end
    block = au.doc.block(line) if line.kind == "prose" else []
    k = next((i for i, x in enumerate(block) if x is line), 0)
    tail = block[k - 1].text[-_WRAPPED:] if k else ""
    shift = len(tail) + 1 if tail else 0
    joined = f"{tail} {line.text}" if tail else line.text
    for p in PROPOSITIONS:
        for m in p.words.finditer(joined):
            if m.end() <= shift:
                continue  # the line before's own
            span = (max(0, m.start() - shift), m.end() - shift)
            if any(a < span[1] and span[0] < b for a, b in covered):
                continue  # words another rule has read ("weights that sum to 1" of the softmax)
            sentence, at = au.doc.sentence(line, span[0])
            at -= max(0, shift - m.start())
            where = sentence if p.about_anywhere else sentence[:at]
            if DENIED.search(sentence) or not p.about.search(where):
                continue
            if p.unless is not None and p.unless.search(sentence):
                continue
            holds = p.judge(m, sentence, at)
            if holds is None:
                continue
            text = line.text[span[0] : span[1]]
            spans = [span] + [q.span("figure") for q in (p.premise.finditer(line.text) if p.premise else ())]
            add(Claim.judged(line.number, text, holds, p.fact(), p.rule, spans))
    _listed(au, line, add, covered)
    _examples(line, add, covered)
    _parts(line, add, covered)
    _totals(line, add, covered)


# --- a whole said to be its parts ("a set size of 10, i.e. 9 images ... + 1 anomaly") -----

_PARTS = re.compile(
    r"(?<![\d.,])(?P<total>\d+)\b(?:\s+[a-z]+)?,?\s+(?:i\.e\.|that is|namely),?\s+"
    r"(?P<parts>\d+\s+[A-Za-z][\w -]{0,40}?(?:\s*\+\s*\d+\s+[A-Za-z][\w-]*(?:\s+[a-z][\w-]*){0,5}?)+)"
    r"(?=\s*[.;,)]|\s*$)"
)


_COUNT = r"(?:⟨[^⟩]+⟩|\d*[A-Z]{1,8}\b)"
_TOTAL = re.compile(
    rf"\btotal of\s+(?P<total>{_COUNT})[^:.;]{{0,80}}:\s*"
    rf"(?P<parts>{_COUNT}\s+(?:in|for|from|during)\s+[^,.;]+(?:,\s*(?:and\s+)?{_COUNT}\s+(?:in|for|from|during)\s+[^,.;]+)+)"
)


def _count(text: str):
    """A count written in the text's letters (``6NPM``, ``⟨2NPM⟩``) as SymPy, or None."""
    from . import letters

    return letters.read(text.strip("⟨⟩ "))


def _totals(line, add, covered) -> None:
    """ "a total of 6NPM FLOPs ...: 2NPM in the forward pass, 4NPM in the backward pass": the
    parts, each a count in the text's letters, must add up to the total."""
    from .match import CERTIFIED, WRONG, Claim

    for m in _TOTAL.finditer(line.text):
        if any(a < m.end() and m.start() < b for a, b in covered):
            continue
        total = _count(m.group("total"))
        parts = [_count(x) for x in re.findall(rf"(?:^|,\s*(?:and\s+)?)({_COUNT})\s", m.group("parts"))]
        if total is None or len(parts) < 2 or any(p is None for p in parts):
            continue
        ratio = sp.simplify(sum(parts) / total)
        if not ratio.is_number:
            continue  # parts in other letters than the total: they count something else
        add(
            Claim(
                line.number,
                m.group(0),
                CERTIFIED if ratio == 1 else WRONG,
                Said("the parts add up to ", Math(sp.factor(sum(parts)))),
                "arithmetic: a total and its parts in the text's letters (SymPy)",
                [m.span()],
            )
        )


def _parts(line, add, covered) -> None:
    """A number said, "i.e.", to be a sum of counted parts: the parts must add up to it."""
    from .match import CERTIFIED, WRONG, Claim

    for m in _PARTS.finditer(line.text):
        if any(a < m.end() and m.start() < b for a, b in covered):
            continue
        if re.search(r"\b(?:each|per|every|both|sides?)\b", m.group("parts")):
            continue  # "3 tokens on each side + 1": a part counted more than once
        parts = [int(x) for x in re.findall(r"(?:^|\+)\s*(\d+)\s", m.group("parts"))]
        if len(parts) < 2:
            continue
        total = sum(parts)
        add(
            Claim(
                line.number,
                m.group(0),
                CERTIFIED if total == int(m.group("total")) else WRONG,
                Said(" + ".join(map(str, parts)) + " = ", Math(sp.Integer(total))),
                "arithmetic: a whole said to be its counted parts adds them up",
                [m.span()],
            )
        )


# --- a number given as an example of a kind of number ----------------------------------------

_EXAMPLE = re.compile(
    r"\b(?:a|an)\s+(?:very\s+)?(?P<size>large|huge|big|small|tiny)\s+(?:(?P<sign>negative|positive)\s+)?"
    r"(?:number|value|constant|scalar)s?,?\s+(?:such as|like|e\.g\.,?|for example)\s+⟨(?P<value>[^⟩]+)⟩"
)


def _examples(line, add, covered) -> None:
    """ "a large negative number, such as ⟨-10^6⟩": the example must be of the kind it is said to
    be (negative; large is more than 1 in size, small less than 1 and not 0)."""
    from . import calc
    from .match import Claim, inside
    from .stated import Unreadable

    for m in _EXAMPLE.finditer(line.text):
        if inside(covered, *m.span("value")):
            continue
        try:
            members, relations = calc.parse_chain(m.group("value"))
            value = calc.exact(members[0], {}) if not relations else None
        except (Unreadable, TypeError, ValueError, ArithmeticError):
            continue
        if not isinstance(value, sp.Expr) or not value.is_real or value.free_symbols:
            continue
        sign = m.group("sign")
        fits = abs(value) > 1 if m.group("size") in ("large", "huge", "big") else 0 < abs(value) < 1
        fits = bool(fits) and (sign is None or (value < 0) == (sign == "negative"))
        kind = " ".join(w for w in (m.group("size"), sign) if w)
        add(
            Claim.judged(
                line.number,
                m.group(0),
                fits,
                Said(Math(value), f" is {'' if fits else 'not '}a {kind} number"),
                "meaning: an example of a kind of number is of that kind (large: more than 1 in size; "
                "small: less than 1, not 0)",
                [(m.start("value") - 1, m.end("value") + 1)],
            )
        )


# --- a count in words against the items listed ----------------------------------------------

_COUNTED = re.compile(
    r"\b(?P<word>two|three|four|five|six|seven|eight|nine)\s+(?P<noun>(?:[\w*-]+\s+){0,3}?[\w*-]+s)\b"
    r"(?P<rest>[^.;:⟨]{0,80}):(?=\s|$)"
)
_ITEM_START = re.compile(r"^(?:the other|another|one|the|a|an|its|their|\*{1,2}\w)", re.I)
_LINE_NOUNS = re.compile(r"\b(?:sentences|lines|sequences|rows|strings)\b")


def _listed(au, line, add, covered) -> None:
    from .match import CERTIFIED, WRONG, Claim, inside

    for m in _COUNTED.finditer(line.text):
        if inside(covered, *m.span()) or DENIED.search(m.group(0)):
            continue
        stated = _COUNT_WORDS[m.group("word")]
        if line.text[m.end() :].strip():
            after, _ = au.doc.sentence(line, m.end())
            items = _items(after.strip().rstrip(".;"))
        else:  # the paragraph's line ends with the colon: a list or a code block follows
            items = _following_items(au.doc, line, m.group("noun"))
        if items is None or items < 2:
            continue
        add(
            Claim(
                line.number,
                m.group(0),
                CERTIFIED if items == stated else WRONG,
                Said(f"{items} {m.group('noun')} are listed"),
                "meaning: the items listed after the count are counted",
                [m.span("word")],
            )
        )


def _items(text: str) -> int | None:
    """Items of a list written in a sentence ("one for A, and the other for B"), or None when
    its parts do not all read as items (a clause, "which ...", among them)."""
    text = re.sub(r"\([^()]*\)", "", _outside(text))  # a parenthesis belongs to its item
    if re.search(r",\s*(?:and|or)\s", text) or "," not in text:  # "A, B, and C"; "A and B"
        separator = r",\s*(?:and|or)\s+|,\s*" if "," in text else r"\s+(?:and|or)\s+"
        parts = [p.strip() for p in re.split(separator, text)]
    else:  # "A, B and C": the last "and" joins the last two
        parts = [p.strip() for p in text.split(",")]
        parts[-1:] = re.split(r"\s+(?:and|or)\s+(?!.*\s(?:and|or)\s)", parts[-1])
    parts = [p for p in parts if p]
    if not all(_ITEM_START.match(p) for p in parts):
        return None
    return len(parts)


def _outside(text: str) -> str:
    """The text with each formula blanked, so a comma inside one never splits an item."""
    return re.sub(r"⟨[^⟩]*⟩", lambda f: "x" * len(f.group(0)), text)


def _following_items(doc, line, noun: str) -> int | None:
    """Items of the list, or lines of the code block, right after the paragraph that ends in a
    count ("the following three sentences:")."""
    block = doc.block(line)
    if not block or block[-1] is not line:
        return None
    after = [x for x in doc.lines if x.number > line.number]
    while after and after[0].kind == "blank":
        after.pop(0)
    if not after:
        return None
    if after[0].kind == "code" and _LINE_NOUNS.search(noun):
        rows = []
        for x in after[1:]:
            if x.raw.lstrip().startswith(("```", "~~~")) or x.kind != "code":
                break
            if x.raw.strip() and not x.raw.lstrip().startswith(("#", "//")):
                rows.append(x)  # a comment is no line of the data
        return len(rows)
    if after[0].kind == "prose" and re.match(r"\s*(?:[-*+]|\d+[.)])\s", after[0].raw):
        indent = len(after[0].raw) - len(after[0].raw.lstrip())

        def item(x) -> bool:
            marked = re.match(r"\s*(?:[-*+]|\d+[.)])\s", x.raw)
            return bool(marked) and len(x.raw) - len(x.raw.lstrip()) == indent

        listed = doc.block(after[0])
        later = [x for x in doc.lines if x.number > listed[-1].number and x.kind not in ("blank", "math")]
        if later and item(later[0]):
            return None  # the list goes on after a display: where it ends is not certain
        return sum(map(item, listed))
    return None
