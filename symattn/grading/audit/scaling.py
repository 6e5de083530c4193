"""The scale of the scores: a dot product of a query and a key divided by the square root of
their width, wherever a text writes it.

Two forms are read:

- a **formula** that divides a query-key dot product by something (``q^T k_j / \\sqrt{d}``,
  ``\\frac{QK^T}{\\sqrt{d_k}}``, ``\\frac{q_j \\cdot x_i}{\\sqrt{D_x}}``): divided by the square root
  of a width it is certified; divided by the width itself (``q^T k_j / d``) it is wrong, since
  Var(q·k) = d for entries of zero mean and unit variance, and only √d brings it back to 1 (the
  module's variance argument, which :mod:`symattn.grading.audit.meaning` holds as a fact);
- a **normalization named in words** in a sentence that gives its reason, a variance of 1 ("the
  ``\\sqrt{D/A}`` normalization is motivated by demanding that the variance of the Softmax
  argument be 1"): a square root is certified, a width without one is wrong.

A sentence that weighs another choice ("instead", "rather than", "would", μP's 1/d) is not
read: dividing by d is a choice some texts argue for, not a slip there.
"""

from __future__ import annotations

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
    r"\bmu-?P\b|μP|maximal update|linear attention|cosine|1\s*/\s*d\b[^.]*\b(?:scal|param)", re.I
)
#: A normalization named in words, with its reason: a variance of one.
_NAMED = re.compile(r"^\s*(?:normali[sz]ation|scaling|scale factor|rescaling)\b", re.I)
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
        if named:
            bottom = _parsed(plain)
            verdict = _verdict(bottom)
            width = (bottom[2] if verdict else bottom) if verdict is not None else None
            # a head's scores in a model of width D: the model's width is not the head's
            per_head = re.search(r"\bheads?\b", sentence, re.I) and width in (("sym", "D"), ("sym", "d"))
            if verdict is not None and not per_head:
                add(_claim(line, start, end, [(verdict, calc.exact(width, {}))], named=True))
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
