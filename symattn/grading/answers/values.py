"""Judging a number or a matrix: every value of the chain against the expected one.

A value is correct when a certified interval evaluation (:mod:`symattn.proof.certify`) puts it
within the tolerance of the expected value; one that matches a :class:`Mistake` instead is
incorrect with the mistake's feedback. ``-oo`` entries of a matrix must be infinite with the
same sign.
"""

from __future__ import annotations

import re
from typing import Any

import sympy as sp

from ...core.digits import decimal_string
from ...proof.certify import NotFinite, Uncertain, enclose, sign, within
from ...proof.magnitude import digits_beyond, too_costly
from .notation import Chain
from .verdicts import INF, INFINITIES, Expected, Mistake, Refusal, Verdict


def judge_number(
    chain: Chain, sides: list[Any], expected: Expected, mistakes: tuple[Mistake, ...]
) -> Verdict:
    bad = [r for r in chain.relations if r not in ("=", "~")]
    if bad:
        raise Refusal("form", "expected a number, not a relation")
    values = values_of(chain, sides)
    for value in values:
        check_number(value, expected, mistakes)
    return Verdict("correct", feedback="correct", extra={"value": values[0]})


def values_of(chain: Chain, sides: list[Any]) -> list[Any]:
    """The sides that are values: not an empty end (\\approx 1.96), not a leading label (y = ...)."""
    values = []
    last = len(sides) - 1
    for i, s in enumerate(sides):
        if s is None:
            if last and i in (0, last):
                continue
            raise Refusal("form", "a relation needs a value on each side", "invalid")
        if i == 0 and last and isinstance(s, sp.Symbol):
            continue  # a name for the answer: O = 1.96
        values.append(s)
    if not values:
        raise Refusal("form", "no value is given", "invalid")
    return values


def check_number(value: Any, expected: Expected, mistakes: tuple[Mistake, ...]) -> None:
    """Return if ``value`` is within tolerance of the expected number; else raise Refusal."""
    if isinstance(value, sp.MatrixBase):
        if value.shape != (1, 1):
            raise Refusal("shape", f"expected a single number, not a {value.rows}x{value.cols} matrix")
        value = value[0, 0]  # a 1x1 matrix is read as its entry
        if value in (INF, -INF):
            raise NotFinite("the answer is not a finite number: it involves infinity")
    if value.has(*INFINITIES):
        raise NotFinite("the answer is not a finite number: it involves infinity")
    if value.free_symbols:
        names = ", ".join(sorted(str(s) for s in value.free_symbols))
        raise Refusal("symbolic", f"the answer should be a number, but it contains {names}")
    ok = close(value, expected.value, expected.tolerance)
    if ok is True:
        return
    for m in mistakes:
        if not isinstance(m.value, sp.MatrixBase) and close(value, m.value, expected.tolerance) is True:
            raise Refusal(m.code, m.feedback)
    if ok is None:
        raise _undecided(value, "this value")
    raise Refusal("", near_miss(value, expected) or "not the expected answer")


#: A wrong number is a near miss when it is within this many times the tolerance.
NEAR = 10


def near_miss(value: Any, expected: Expected) -> str | None:
    """What a learner is told of a number that misses the tolerance by little: how far it is,
    correctly rounded to two significant digits (more where two would show the tolerance itself),
    and the tolerance; None for a number further off, or for an exact answer (no tolerance)."""
    if expected.tolerance == 0 or close(value, expected.value, NEAR * expected.tolerance) is not True:
        return None
    distance = sp.Abs(sp.sympify(value) - expected.value)
    digits = 2
    while sp.Rational(decimal_string(distance, digits)) <= expected.tolerance and digits < 15:
        digits += 1
    return (
        f"close, but not close enough: it is about {decimal_string(distance, digits)} from the "
        f"expected answer, and answers within {expected.tolerance_text()} of it are accepted"
    )


def _undecided(value: Any, what: str) -> Refusal:
    """No verdict on ``value`` (``what``: "this value", "an entry"), which certified evaluation
    could not place: invalid, because of its size where it is too large to prove exact."""
    reason = too_costly(value)
    if reason:
        return Refusal("form", reason, "invalid")
    return Refusal(
        "undecided", f"{what} could not be compared with certainty: write it more simply", "invalid"
    )


def close(value: Any, target: Any, tol: sp.Rational) -> bool | None:
    try:
        return within(value, target, tol)
    except Uncertain as exc:
        raise Refusal(
            "form",
            str(exc) if "function" in str(exc) else "this is not a number that can be checked",
            "invalid",
        ) from None


def judge_matrix(
    chain: Chain, sides: list[Any], expected: Expected, mistakes: tuple[Mistake, ...]
) -> Verdict:
    if any(r != "=" for r in chain.relations):
        raise Refusal("form", "expected a matrix, not a relation")
    values = values_of(chain, sides)
    for value in values:
        reason = _matrix_reason(value, sp.Matrix(expected.value), expected.tolerance)
        if reason is None:
            continue
        for m in mistakes:
            target = m.value if isinstance(m.value, sp.MatrixBase) else sp.Matrix([[m.value]])
            if _matrix_reason(value, sp.Matrix(target), expected.tolerance) is None:
                raise Refusal(m.code, m.feedback)
        raise reason
    return Verdict("correct", feedback="correct", extra={"value": values[0]})


def _matrix_reason(value: Any, e: sp.Matrix, tol: sp.Rational) -> Refusal | None:
    """None if ``value`` equals ``e`` entry by entry; else why not (an entry that could not be
    decided, only if no other entry is decided wrong)."""
    if not isinstance(value, sp.MatrixBase):
        return Refusal("shape", f"expected a {e.rows}x{e.cols} matrix")
    if value.shape != e.shape:
        return Refusal("shape", f"expected a {e.rows}x{e.cols} matrix, got {value.rows}x{value.cols}")
    undecided: Refusal | None = None
    for x, y in zip(value, e, strict=True):
        if y in (INF, -INF):
            if _infinite_entry(x) != y:
                return Refusal("", "not the expected matrix")
            continue
        if x.has(*INFINITIES):
            return Refusal("", "not the expected matrix")
        if x.free_symbols:
            return Refusal("symbolic", "the entries should be numbers")
        try:
            ok = within(x, y, tol)
        except (NotFinite, Uncertain):
            if digits_beyond(x):  # the enclosure of a huge power overflowed: not infinity
                return _undecided(x, "an entry")
            return Refusal("", "not the expected matrix: an entry is not a finite number")
        if ok is False:
            return Refusal("", "not the expected matrix")
        if ok is None:
            undecided = undecided or _undecided(x, "an entry")
    return undecided


def _infinite_entry(x: Any) -> Any:
    """+oo or -oo for an entry that is +-infinity plus (or times a positive) finite number."""
    try:
        return _infinity_of(sp.sympify(x))
    except (NotFinite, Uncertain):
        return None


def _infinity_of(x: sp.Expr) -> Any:
    if x in (INF, -INF):
        return x
    inf = [a for a in sp.preorder_traversal(x) if a in INFINITIES]
    if not inf or any(a in (sp.S.ComplexInfinity, sp.S.NaN) for a in inf):
        return None
    finite_part = x.xreplace({INF: sp.S.Zero, -INF: sp.S.Zero})
    try:
        enclose(finite_part)
    except (NotFinite, Uncertain):
        return None
    if isinstance(x, sp.Add) and sum(1 for a in x.args if a.has(INF, -INF)) == 1:
        term = next(a for a in x.args if a.has(INF, -INF))
        return _infinity_of(term)
    if isinstance(x, sp.Mul):
        factors = [a for a in x.args if not a.has(INF, -INF)]
        inf_factors = [a for a in x.args if a.has(INF, -INF)]
        if len(inf_factors) != 1:
            return None
        s = sign(enclose(sp.Mul(*factors))) if factors else 1
        core = _infinity_of(inf_factors[0])
        if core is None or not s:
            return None
        return core if s > 0 else -core
    return None


# -- a second value after a matrix (ex6.4: the mask, then the first row of weights) ---------------
_MATRIX_END = re.compile(
    r"(?:\\end\{[A-Za-z]*matrix\}(?:\s*\\right\s*[\])])?|\]\s*\])"
    r"(?:\s*(?:\^\{T\^\{?T\}?\}|\^\{T\}|\^T|'))*"  # transposes belong to the matrix
)


def split_companion(text: str) -> tuple[str, str]:
    """``text`` cut after its first matrix: (the matrix part, what follows it without a leading
    comma or "and"); ("text", "") when nothing follows."""
    m = _MATRIX_END.search(text)
    if not m:
        return text, ""
    rest = re.sub(r"^\s*(?:,|and\b)?\s*", "", text[m.end() :])
    return text[: m.end()], rest.strip()


def judge_companion(main: Verdict, rest: str, companion: tuple[str, Any]) -> Verdict:
    """The matrix's verdict with the second value judged too: both must be right."""
    what, want = companion
    got = _read_vector(rest, want.cols)
    if main.verdict != "correct":
        return main
    if got is None:
        why = f"cannot read {what} after the matrix: write it as [1, 0, 0]"
        return Verdict("invalid", main.given, why, typed=main.typed)
    if got != want:
        shown = "[" + ", ".join(str(x) for x in want) + "]"
        return Verdict(
            "incorrect",
            main.given,
            f"the mask is right, but {what} is {shown}: token 1 may see only itself, so all its weight "
            "is on itself",
            "first-row-weights",
            typed=main.typed,
        )
    why = f"correct: the mask, and {what}"
    return Verdict("correct", main.given, why, notes=main.notes, typed=main.typed)


#: What names the first row of weights: a letter or a Greek one, bold or not, with no index or 1
#: (``w``, ``w_1``, ``\\alpha_{1}``, ``\\mathbf{a}_1``, ``A_{1,:}``); ``w_3`` names another row.
_FIRST_ROW_NAME = re.compile(
    r"(?:\\text\{\s*weights\s*\}|(?:\\mathbf\{[A-Za-z]\}|\\(?:alpha|beta|gamma|omega|pi|sigma|theta|lambda|mu|rho)|[A-Za-z])"
    r"(?:_\{?\s*1\s*(?:,\s*:)?\s*\}?|_\{?\s*1\s*,\s*:\s*\}?)?)"
)


def _read_vector(text: str, size: int) -> sp.Matrix | None:
    """A row of ``size`` exact numbers: [1, 0, 0], (1, 0, 0) or a one-row matrix; a name of the
    first row of weights may lead ("w = ", "\\alpha_1 = ", "A_{1,:} = "); anything else before an
    "=" (another row, an operation on the weights) is not read."""
    if "=" in text:
        name, _, text = text.partition("=")
        if not _FIRST_ROW_NAME.fullmatch(name.strip().lstrip(",").strip()):
            return None
    m = re.fullmatch(r"\s*(?:\\left\s*)?[(\[]\s*(.*?)\s*(?:\\right\s*)?[)\]]\s*", text)
    if m:
        cells = [c.strip() for c in m.group(1).split(",")]
    else:
        m = re.fullmatch(r"\s*\\begin\{[a-z]*matrix\}(.*)\\end\{[a-z]*matrix\}\s*", text)
        if not m:
            return None
        cells = [c.strip() for c in m.group(1).split("&")]
    fraction = r"\\frac\{(\d+)\}\{(\d+)\}|\\frac(\d)(\d)|(\d+)/(\d+)"
    if len(cells) != size or not all(re.fullmatch(r"-?\d+(?:\.\d+)?|" + fraction, c) for c in cells):
        return None
    out = []
    for c in cells:
        f = re.fullmatch(fraction, c)
        if f:
            num, den = (int(x) for x in f.groups() if x is not None)
            if den == 0:
                return None
            out.append(sp.Rational(num, den))
        else:
            out.append(sp.Rational(c))
    return sp.Matrix([out])
