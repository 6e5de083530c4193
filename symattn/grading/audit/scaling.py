"""The scale of the scores: a dot product of a query and a key divided by the square root of
their width, wherever a text writes it.

Two forms are read:

- a **formula** that divides a query-key dot product by something (``q^T k_j / \\sqrt{d}``,
  ``\\frac{QK^T}{\\sqrt{d_k}}``, ``\\frac{q_j \\cdot x_i}{\\sqrt{D_x}}``): divided by the square root
  of a width it is certified; divided by the width itself (``q^T k_j / d``) it is wrong, since
  Var(q·k) = d for entries of zero mean and unit variance, and only √d brings it back to 1 (the
  module's variance argument, which :mod:`symattn.grading.audit.meaning` holds as a fact);
- a **scaling factor named before it**: "the scaling factor of ``1/\\sqrt{d_k}``" multiplies
  the scores; 1 over the square root of a width is certified, 1 over the width is wrong;
- a **normalization named in words** in a sentence that gives its reason, a variance of 1 ("the
  ``\\sqrt{D/A}`` normalization is motivated by demanding that the variance of the Softmax
  argument be 1"): a square root is certified, a width without one is wrong.

Without the scale, the scores' variance grows with the width and the softmax **saturates**:
"if we do not scale down the variance, the softmax will saturate to 1 for one element and 0 for
all others" is certified by the limit SymPy takes (scores c·s with c → ∞: the largest weight
tends to 1, the others to 0); other limits are wrong.

A sentence that weighs another choice ("instead", "rather than", "would", μP's 1/d) is not
read: dividing by d is a choice some texts argue for, not a slip there.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import sympy as sp

from . import calc
from .context import AuditContext
from .document import Line
from .match import CERTIFIED, WRONG, Claim, inside
from .said import Math, Said
from .stated import Unreadable

#: Another choice weighed: the sentence is not read.
_OTHER_CHOICE = re.compile(
    r"\b(?:instead|rather|would|alternative\w*|unscaled|without (?:the )?scal\w*|mu-?P|μP|"
    r"suppose|if we|had we|wrong\w*|mistake\w*|not|tau|temperature|cosine|mean|average|"
    r"number of|count|length)\b|τ",
    re.I,
)
#: A text that divides by the width on purpose (μP, linear attention, cosine scores): its
#: formulas with 1/d are never called wrong.
_BY_WIDTH_ON_PURPOSE = re.compile(
    r"\bmu-?P\b|μP|maximal update|tensor programs|learning rate transfers?|linear attention|cosine|"
    r"1\s*/\s*d\b[^.]*\b(?:scal|param)",
    re.I,
)
#: A normalization named in words, with its reason: a variance of one.
_NAMED = re.compile(r"^\s*(?:normali[sz]ation|scaling|scale factor|rescaling)\b", re.I)
#: The factor the scores are multiplied by, named before it: "the scaling factor of ⟨1/√d_k⟩".
_FACTOR_BEFORE = re.compile(r"\b(?:scaling|scale)\s+factor\s+(?:of|is)\s*$", re.I)
_UNIT_VARIANCE = re.compile(
    r"\bvariance\b.*\b(?:be|is|of|equal to|equals)\s+(?:1|one|unity)\b|\bunit variance\b", re.I
)
#: Letters a text uses for the width of a query and a key (of a head, or of the model where
#: one head has it all); not d_ff, d_v or a count.
_WIDTH = re.compile(
    r"^(?:d|D|[dD]_(?:k|q|h|head|model|key|qk|\(k\)|\(q\)|\(h\)|\(head\)|\(model\)|\(key\)))$"
)

#: A variance other than 1 in the sentence's premises ("entries of variance σ² = 4").
_OTHER_VARIANCE = re.compile(r"σ|sigma|variance\s+(?:of\s+)?⟨?\s*(?!1\b)\d", re.I)

RULE = "scale of the scores: Var(q·k) = d for entries of mean 0 and variance 1, so q·k/√d has variance 1"


def scale_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    for _tex, plain, start, end in line.formulas:
        if inside(covered, start, end):
            continue
        sentence, at = au.doc.sentence(line, start)  # read whole, across the lines it wraps over
        after = sentence[at + end - start :]
        # a normalization named with its reason, variance 1, says what it is for: another
        # choice weighed after it ("it is instead argued that no root should be taken") does not
        # make it one
        named = _NAMED.match(after) and _UNIT_VARIANCE.search(after) and not _OTHER_VARIANCE.search(sentence)
        weighed = _OTHER_CHOICE.search(sentence[:at] if named else sentence)
        if weighed or (line.kind == "math" and _OTHER_CHOICE.search(_introduction(au, line))):
            continue
        if not weighed and _FACTOR_BEFORE.search(sentence[:at]):  # "the scaling factor of 1/√d_k"
            _factor(au, line, start, end, plain, sentence, add)
            continue
        if named:
            bottom = _parsed(plain)
            verdict = _verdict(bottom)
            width = (bottom[2] if verdict else bottom) if verdict is not None else None
            # a head's scores in a model of width D: the model's width is not the head's
            per_head = re.search(r"\bheads?\b", sentence, re.I) and width in (("sym", "D"), ("sym", "d"))
            # a choice weighed before it in its paragraph ("divided by d rather than √d. The d
            # normalization ...") makes the width a choice; one weighed after it does not
            paragraph = au.doc.block_text(line).replace("\n", " ")
            before = (
                paragraph[: paragraph.find(sentence.strip()[:40])]
                if sentence.strip()[:40] in paragraph
                else ""
            )
            on_purpose = _BY_WIDTH_ON_PURPOSE.search(before) or _OTHER_CHOICE.search(before)
            if verdict is not None and not per_head and (verdict or not on_purpose):
                claim = _claim(line, start, end, [(verdict, calc.exact(width, {}))], named=True)
                _reason_ahead(au, line, claim)
                add(claim)
            continue
        if re.search(r"\b(?:Var|E|V|Cov)\(|[≈<>≤≥]|\d\s*$", plain):
            continue  # a statement about the scaled scores (their variance): the statistics rules'
        verdicts = _divisions(plain)
        if not verdicts:
            continue
        # a division by the width is wrong only inside a softmax (in exp of a softmax's
        # fraction, or softmax(...)), in a text that does not divide by it on purpose:
        # q^T k / d alone may be a cosine score, a mean, or one side of an identity
        wrong = [w for ok, w in verdicts if not ok]
        if wrong:
            if _softmax_argument(plain) and not _BY_WIDTH_ON_PURPOSE.search(au.doc.text()):
                add(_claim(line, start, end, verdicts, named=False))
            continue
        # in a chain of more members, a right scale certifies nothing (another member may be
        # wrong: softmax(q k^T/√d) = exp(q k^T)/(√d Σ ...))
        if _equals(plain) <= 1:
            add(_claim(line, start, end, verdicts, named=False))


#: The scores of attention, where a factor of theirs is named.
_SCORES = re.compile(r"\b(?:attention|scores?|logits?|softmax|dot[- ]products?|quer(?:y|ies)|keys?)\b", re.I)
#: A reason of a variance kept at 1 (or "an appropriate variance"): the √ is what keeps it.
_KEEPS_VARIANCE = re.compile(r"\bvariance\b", re.I)


def _factor(
    au: AuditContext, line: Line, start: int, end: int, plain: str, sentence: str, add: Callable
) -> None:
    """ "the scaling factor of ⟨1/√d_k⟩" said of attention's scores (in its paragraph): 1 over
    the root of a width is certified; 1 over the width is wrong only where the paragraph gives
    the variance as the reason (μP's 1/d_k is a choice), and never for a head's scores scaled by
    the model's width."""
    bottom = _parsed(plain)
    bottom = bottom[2] if bottom and bottom[0] == "div" and bottom[1] == ("num", "1") else None
    verdict = _verdict(bottom)
    paragraph = au.doc.block_text(line).replace("\n", " ")
    if verdict is None or not _SCORES.search(paragraph):
        return
    if not verdict and (not _KEEPS_VARIANCE.search(paragraph) or _BY_WIDTH_ON_PURPOSE.search(paragraph)):
        return
    width = bottom[2] if verdict else bottom
    if re.search(r"\bheads?\b", paragraph, re.I) and width in (("sym", "D"), ("sym", "d")):
        return  # a head's scores, the model's width: not the head's
    add(_claim(line, start, end, [(verdict, calc.exact(width, {}))], True))


def _reason_ahead(au: AuditContext, line: Line, claim: Claim) -> None:
    """The variance of 1 the claim gives as its reason, where it wraps onto the next line of
    the paragraph ("... by demanding / that the variance ... be 1"): part of the claim there."""
    if _UNIT_VARIANCE.search(line.text):
        return
    block = au.doc.block(line) if line.kind == "prose" else []
    k = next((i for i, x in enumerate(block) if x is line), None)
    if k is None or k + 1 >= len(block):
        return
    after = block[k + 1]
    m = _UNIT_VARIANCE.search(after.text)
    one = re.search(r"(?<![\w.])1(?![\w.])", m.group(0)) if m else None
    if one:
        au.ahead.setdefault(after.number, []).append((m.start() + one.start(), m.start() + one.end()))
        claim.through = after.number


def _claim(line: Line, start: int, end: int, verdicts: list, named: bool) -> Claim:
    wrong = [w for ok, w in verdicts if not ok]
    if not wrong:
        said = Said("divided by ", Math(sp.sqrt(verdicts[0][1])), ", the square root of the width")
    elif named:
        width = wrong[0]
        said = Said("a variance of 1 needs ", Math(sp.sqrt(width)), ", not ", Math(width))
    else:
        width = wrong[0]
        said = Said("divided by ", Math(sp.sqrt(width)), ", not by ", Math(width))
    verdict = WRONG if wrong else CERTIFIED
    return Claim(line.number, line.text[start:end], verdict, said, RULE, [(start, end)])


def _introduction(au: AuditContext, line: Line) -> str:
    """The sentence that introduces a display: the last of the paragraph before it ("Under μP
    the scores are scaled by 1/d instead of 1/√d:")."""
    before = au.previous_block(line).rstrip()
    return re.split(r"(?<=[.!?])\s+", before)[-1] if before else ""


def _softmax_argument(plain: str) -> bool:
    """The formula is a softmax: softmax(...) or exp(...) over a sum of exp(...)."""
    return bool(re.search(r"softmax|Softmax|\bexp\(", plain))


def _equals(plain: str) -> int:
    """The '=' of the formula outside parentheses (``sum_(j=1)`` has one inside)."""
    depth, count = 0, 0
    for c in plain:
        depth += c == "("
        depth -= c == ")"
        count += c == "=" and depth == 0
    return count


def _parsed(plain: str):
    try:
        members, relations = calc.parse_chain(plain.strip().rstrip(".,;"))
    except Unreadable:
        return None
    return members[0] if len(members) == 1 and not relations else None


_T = r"(?:\^\((?:T|top|⊤)\))?"
_SUB = r"(?:_\w+|_\([^()]*\))?"
_DOT = rf"[qQ]{_SUB}{_T}\s*(?:[*·⋅]\s*)?[kK]{_SUB}{_T}"
_DEN = r"(?:sqrt\([^()]+\)|[dD](?:_\w+|_\([^()]*\))?(?![\w^(]))(?!\s*(?:/|\*|·|×|sqrt|[A-Za-z(]))"
#: ``q^(T) k_i / sqrt(d)``, ``((QK^(T))/(sqrt(d_k)))``: a dot product over its scale.
_SCALED = re.compile(rf"(?<![\w)])(?:{_DOT}\s*/\s*(?P<a>{_DEN})|\(\({_DOT}\)\s*/\s*\((?P<b>{_DEN})\)\))")


def _divisions(plain: str) -> list[tuple[bool, sp.Expr]]:
    """For each query-key dot product divided by the square root of a width (True) or by the
    width itself (False), with that width."""
    out = []
    for m in _SCALED.finditer(plain):
        den = m.group("a") or m.group("b")
        root = re.fullmatch(r"sqrt\((.+)\)", den)
        width = _read_width(root.group(1) if root else den)
        if width is not None:  # _DEN admits a width alone, or the root of anything
            out.append((root is not None, width))
    return out


def _read_width(text: str) -> sp.Expr | None:
    """The width a denominator's text names (:func:`_width`), or None."""
    try:
        members, relations = calc.parse_chain(text.strip())
        return None if relations or not _width(members[0]) else calc.exact(members[0], {})
    except (Unreadable, TypeError, ValueError):
        return None


def _verdict(bottom) -> bool | None:
    if bottom is None:
        return None
    if bottom[0] == "call" and bottom[1] == "sqrt" and _width(bottom[2]):
        return True
    return False if _width(bottom) else None


def _width(node) -> bool:
    """d, d_k, D/A (the model's width over the heads: a head's width)."""
    if node[0] == "sym":
        return bool(_WIDTH.match(node[1]))
    if node[0] == "div":  # D/A, the model's width over the heads: a head's width
        top, bottom = node[1], node[2]
        return top in (("sym", "D"), ("sym", "d"), ("sym", "d_model")) and bottom in (
            ("sym", "A"),
            ("sym", "h"),
        )
    return False


#: "if we do not scale down the variance (back to ~σ²)": the scores left unscaled.
_UNSCALED = re.compile(
    r"\b(?:if|when)\s+(?:we\s+|one\s+)?(?:do\s+not|don't|did\s+not|does\s+not)\s+(?:scale|divide|normali[sz]e)\b"
    r"|\bwithout\s+(?:the\s+|this\s+)?(?:scal|normali[sz])\w*|\bunscaled\b",
    re.I,
)
_SATURATES = re.compile(
    r"\bsoftmax\b(?:\s+(?:over|of)\s+the\s+(?:logits|scores))?\s+(?:will\s+|would\s+)?(?:already\s+)?"
    r"saturat\w*\s+(?:to\s+)?⟨\s*(?P<top>[\d.]+)\s*⟩\s+for\s+(?:one|a\s+single)\b[^.;⟨]{0,40}?"
    r"\band\s+⟨\s*(?P<rest>[\d.]+)\s*⟩\s+for\s+(?:all\s+)?(?:the\s+)?others?\b",
    re.I,
)
_LIMIT_OR_CAUSE = re.compile(
    r"→|\\to\b|\b(?:tends?|goes|go|shrinks?|decays?)\s+to(?:wards)?\s+(?:zero|⟨\s*0\s*⟩)|\bbecause\b|\bsince\b|"
    r"\bdue\s+to\b|\bsmall\b",
    re.I,
)
#: "the gradient of the softmax": another quantity than the weights.
_OF_IT = re.compile(r"\b(?:gradients?|derivatives?|jacobian)\s+of\s+(?:the\s+)?$", re.I)
SATURATION_RULE = (
    "scale of the scores: unscaled scores grow with the width, and the softmax tends to one weight 1, "
    "the rest 0"
)


def saturation_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    for a, b in line.sentences():
        sentence = line.text[a:b]
        m, unscaled = _SATURATES.search(sentence), _UNSCALED.search(sentence)
        if (
            m is None
            or unscaled is None
            or unscaled.start() > m.start()
            or inside(covered, a + m.start(), a + m.end())
        ):
            continue
        if _LIMIT_OR_CAUSE.search(sentence) or _OF_IT.search(sentence[: m.start()]):
            continue  # a limit or a cause said with it ("as d_k → 0", "because ..."): more than this reads
        ok = sp.Rational(m.group("top")) == 1 and sp.Rational(m.group("rest")) == 0
        # the figures of the condition ("back to ~σ²") are its premise, part of the claim
        start = a + unscaled.start()
        condition = sentence[unscaled.start() : m.start()]
        premises = [(start + f.start(), start + f.end()) for f in re.finditer(r"⟨[^⟨⟩]*⟩", condition)]
        spans = [(a + m.start(), a + m.end()), *premises]
        add(Claim.judged(line.number, m.group(0), ok, _saturated(), SATURATION_RULE, spans))


@functools.cache
def _saturated() -> Said:
    c, gap = sp.symbols("c Delta", positive=True)  # two scores Δ apart, both multiplied by c
    top = 1 / (1 + sp.exp(-c * gap))
    limits = sp.limit(top, c, sp.oo), sp.limit(1 - top, c, sp.oo)
    if limits != (1, 0):  # never taken on trust
        raise ArithmeticError("SymPy did not find the softmax saturating")
    return Said("scores c·s, c → ∞: the largest weight ", Math(top), " → 1, the others → 0")


DOT_RULE = (
    "statistics: a dot product of d independent zero-mean products of variance σ² each has variance d σ⁴ "
    "(sympy.stats for one term, independence for the sum)"
)
#: "performing a dot product over two vectors with a variance ⟨σ²⟩ results in a scalar having
#: ⟨d_k⟩-times higher variance".
_DOT_VARIANCE = re.compile(
    r"\bdot\s+product\s+(?:over|of|between)\s+two\s+vectors\s+with\s+(?:a\s+)?variance\s+(?:of\s+)?⟨(?P<v>[^⟨⟩]+)⟩"
    r"[^.⟨⟩]{0,30}?\bscalar\s+(?:having|with)\s+(?:a\s+)?⟨(?P<f>[^⟨⟩]+)⟩\s*-?\s*times\s+(?:higher|larger|greater)\s+"
    r"variance\b",
    re.I,
)
#: The inputs' variance given as 1 in the sentence before: "⟨Q⟩ and ⟨K⟩ might also have a
#: variance close to ⟨1⟩" (the queries and keys, not other features).
_UNIT_BEFORE = re.compile(
    r"(?:⟨\s*Q\s*⟩\s+and\s+⟨\s*K\s*⟩|\bqueries\s+and\s+keys\b|\bthe\s+vectors\b)[^.]{0,40}?"
    r"\bvariance\s+(?:close\s+to|of|equal\s+to|near)\s+⟨\s*1\s*⟩"
)


def dot_variance_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """The variance a dot product picks up, as a factor of its vectors' variance σ²: d σ⁴ / σ² =
    d σ², which is d where the text took σ² to be 1 just before (that 1 is the claim's premise)."""
    for m in _DOT_VARIANCE.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        a, _ = line.sentence_at(m.start())
        unit = list(_UNIT_BEFORE.finditer(line.text[:a]))
        factor = _parsed(m.group("f"))
        stated = calc.exact(factor, {}) if factor is not None else None
        width = _paragraph_width(au, line)  # the vectors' length: the one width the paragraph writes
        variance = _variance_of_dot()  # of one product; the sum of d of them, d times it
        if width is None or stated is None or not unit:
            continue  # d σ² is d only when σ² = 1: without that premise nothing is decided
        sigma = sp.Symbol("sigma", positive=True)
        factor_of_input = variance * width / sigma**2  # d σ⁴ over the inputs' σ²
        if sp.simplify(factor_of_input - stated) == 0:  # "d_k σ²-times": true for every σ
            ratio = factor_of_input
        elif re.search(r"σ\s*\^?\s*2?\s*=|sigma\^\(2\)\s*=|sigma\s*=", line.text):
            continue  # σ² given another value in the text: its own premise, not read here
        else:
            ratio = factor_of_input.xreplace({sigma: 1})
        ok = sp.simplify(ratio - stated) == 0
        premise = unit[-1]
        one = premise.start() + premise.group(0).rindex("1")
        said = Said(
            "Var(q·k) = ", Math(width * variance), ", ", Math(factor_of_input), " times σ²; with σ² = 1 "
        )
        said += Said("(the sentence before) the factor is ", Math(ratio))
        spans = [m.span(), (one, one + 1)]
        add(Claim.judged(line.number, m.group(0), ok, said, DOT_RULE, spans))


def _paragraph_width(au: AuditContext, line: Line) -> sp.Expr | None:
    """The one width of queries and keys the paragraph (and the display after it) writes: d_k
    in ``1/√d_k`` and ``∑_{i=1}^{d_k}``; None when there are none or several."""
    after = au.doc.block_number(line.block + 1)
    text = au.doc.block_text(line) + (" " + au.doc.block_text(after[0]) if after else "")
    names = {n for n in re.findall(r"(?<![\w])([dD](?:_(?:k|q|h|head|key|\(k\)))?)(?![\w(])", text)}
    return (
        sp.Symbol(names.pop().replace("(", "").replace(")", ""), positive=True) if len(names) == 1 else None
    )


@functools.cache
def _variance_of_dot() -> sp.Expr:
    """Var(q k) for independent q, k ~ N(0, σ²), by sympy.stats: σ⁴ (a sum of d such terms, d σ⁴)."""
    from sympy import stats

    s = sp.Symbol("sigma", positive=True)
    value = sp.simplify(stats.variance(stats.Normal("q", 0, s) * stats.Normal("k", 0, s)))
    if sp.simplify(value - s**4) != 0:  # never taken on trust
        raise ArithmeticError("sympy.stats did not give Var(q k) = σ⁴")
    return value
