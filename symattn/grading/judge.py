"""Judging an answer against an expected value, recognising known mistakes.

An :class:`Expected` is what a correct answer must equal: a number (with the module's
tolerance: "within T" is |answer - expected| <= T, "within 0" exact equality), a matrix
(``-oo`` entries allowed), or a threshold ``N > c`` over the positive integers, which may also
be answered by the number c. A :class:`Mistake` is the result of a plausible wrong pipeline,
computed from the same definitions; an answer matching one is incorrect with feedback that
names the slip.

:func:`judge` runs :func:`symattn.answers.precheck` on the raw text, then parses and compares
in a forked worker with time and memory limits (:func:`symattn.parsing.isolated`). The answer
is read as a chain of sides (``\\frac{e^2+11}{e^2+2} \\approx 1.96``): every side that is a
value must agree with the expected answer. An inequality is judged by the set of positive
integers N it describes, solved exactly (polynomial and rational inequalities) and confirmed
at witness points. No answer is "correct" unless a certified 60-digit interval evaluation
(:mod:`symattn.certify`) agrees.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from ..core.digits import decimal_string
from ..proof.certify import NotFinite, Uncertain, enclose, sign, within
from ..proof.latex import latex
from .answers import Chain, InvalidAnswer, precheck, split_chain
from .parsing import LatexError, WorkerError, isolated, read_latex

#: Limits for one check: CPU seconds, the worker's wall-clock seconds, memory; DEADLINE bounds
#: the whole judge() call, first-use imports included (every answer is answered within 5 s).
CPU_SECONDS = 3
TIMEOUT = 4.0
DEADLINE = 4.5
MEMORY_MB = 768
#: Highest degree of a polynomial inequality solved exactly.
MAX_DEGREE = 8

_INF = sp.S.Infinity
_INFINITIES = (sp.S.Infinity, sp.S.NegativeInfinity, sp.S.ComplexInfinity, sp.S.NaN)


@dataclass(frozen=True)
class Expected:
    """The value a correct answer equals. ``kind`` is number, matrix or threshold.

    ``constants`` names symbols an answer may use for the exercise's given numbers
    (``d_{model}`` = 4096): they are replaced by their values in a chain that also states
    the number (``N > 2 d_{model} = 8192``).
    """

    kind: str
    value: Any
    tolerance: sp.Rational = sp.S.Zero
    variable: str = "N"
    constants: tuple[tuple[str, int], ...] = ()

    def tolerance_text(self) -> str:
        """The tolerance as a short decimal ("0.01"); "0" for exact answers."""
        if self.tolerance == 0:
            return "0"
        return decimal_string(self.tolerance, 6).rstrip("0")

    def latex(self) -> str:
        if self.kind == "threshold":
            return f"{self.variable} > {latex(self.value)}"
        return latex(self.value)


@dataclass(frozen=True)
class Mistake:
    """A wrong pipeline's result, and what to tell a learner who arrives at it."""

    code: str
    feedback: str
    value: Any


@dataclass(frozen=True)
class Verdict:
    """``verdict`` is correct, incorrect or invalid; ``notes`` say how the text was read.

    A correct answer's ``extra`` holds what was read, for an independent audit: ``value`` (a
    number or a matrix), or ``relations`` (``(lhs, rel, rhs)`` triples) and ``variable``.
    """

    verdict: str
    given: str = ""
    feedback: str = ""
    mistake: str | None = None
    extra: dict = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def _repr_markdown_(self) -> str:  # Jupyter
        code = f" (`{self.mistake}`)" if self.mistake else ""
        given = f", read as `{self.given}`" if self.given else ""
        return f"**{self.verdict}**{given}: {self.feedback}{code}"

    @property
    def exit_code(self) -> int:
        return {"correct": 0, "incorrect": 1, "invalid": 2}[self.verdict]


def judge(raw: str, expected: Expected, mistakes: tuple[Mistake, ...] = ()) -> Verdict:
    """Judge one answer. Never raises for a bad answer: that is an ``invalid`` verdict.

    The whole call, first-use imports included, is answered within DEADLINE seconds.
    """
    start = time.monotonic()
    notes: list[str] = []
    try:
        text = precheck(raw, notes)
    except InvalidAnswer as exc:
        return Verdict("invalid", feedback=str(exc))
    warm_up(parses=False)
    try:
        verdict = isolated(
            judge_text,
            text,
            expected,
            mistakes,
            timeout=max(1.0, min(TIMEOUT, DEADLINE - (time.monotonic() - start))),
            memory_mb=MEMORY_MB,
            cpu_seconds=CPU_SECONDS,
        )
    except LatexError as exc:
        return Verdict("invalid", feedback=str(exc), notes=tuple(notes))
    except WorkerError as exc:
        message = str(exc)
        if not message.startswith(("too costly", "this answer")):
            message = "this answer could not be read or compared: write it more simply"
        return Verdict("invalid", feedback=message, notes=tuple(notes))
    return Verdict(
        verdict.verdict,
        verdict.given,
        verdict.feedback,
        verdict.mistake,
        verdict.extra,
        tuple(notes) + verdict.notes,
    )


_WARM: set[bool] = set()


def warm_up(parses: bool = True) -> None:
    """Import the parser and mpmath here, once, so that every forked worker starts with them.

    With ``parses`` (for a process that judges many answers, such as a grading service), a few
    parses also fill antlr's prediction cache, which every worker then inherits; latex2sympy2's
    module state is restored afterwards, and its parser is never patched in this process.
    A single ``symattn check`` skips them: its one worker would repeat the work.
    """
    if parses in _WARM:
        return
    from ..proof import certify
    from .parsing import _library, library_state_kept

    _library()
    certify.context()
    if parses:
        with library_state_kept() as lib:
            for text in (
                r"\frac{e^{2}+11}{e^{2}+2}",
                "N > 8192",
                r"\begin{bmatrix} 0 & -\infty \end{bmatrix}",
                "1.96",
            ):
                try:
                    lib.latex2sympy(text)
                except Exception:  # only a cache warm-up: a failure costs nothing
                    continue
        _WARM.add(False)
    _WARM.add(parses)


# -- inside the worker ------------------------------------------------------------------------
class _Refusal(Exception):
    """An answer that is read but cannot be right: ``code: reason`` for the learner."""

    def __init__(self, code: str, reason: str, verdict: str = "incorrect"):
        super().__init__(reason)
        self.code, self.reason, self.verdict = code, reason, verdict


def judge_text(text: str, expected: Expected, mistakes: tuple[Mistake, ...] = ()) -> Verdict:
    """Judge prechecked text, in this process (:func:`judge` calls it in a worker)."""
    chain = split_chain(text)
    notes: list[str] = []
    try:
        sides = [_read_side(s, notes) for s in chain.sides]
    except NotFinite as exc:
        return Verdict("incorrect", text[:200], str(exc), "not-finite")
    given = _given(chain, sides)
    try:
        if expected.kind == "threshold":
            verdict = _judge_threshold(chain, sides, expected, mistakes)
        elif expected.kind == "matrix":
            verdict = _judge_matrix(chain, sides, expected, mistakes)
        else:
            verdict = _judge_number(chain, sides, expected, mistakes)
    except _Refusal as r:
        code = (r.code or None) if r.verdict == "incorrect" else None
        return Verdict(r.verdict, given, r.reason, code, notes=tuple(notes))
    except NotFinite as exc:
        return Verdict("incorrect", given, str(exc), "not-finite", notes=tuple(notes))
    except Uncertain:
        return Verdict("invalid", given, "this is not a value that can be checked", notes=tuple(notes))
    return Verdict(verdict.verdict, given, verdict.feedback, verdict.mistake, verdict.extra, tuple(notes))


# -- reading sides -----------------------------------------------------------------------------
_MATRIX = re.compile(
    r"^(?P<pre>.*?)(?:\\left\s*[\[(]\s*)?\\begin\{(?P<env>[A-Za-z]+)\}(?:\{[^{}]*\})?"
    r"(?P<body>.*?)\\end\{(?P=env)\}(?:\s*\\right\s*[\])])?(?P<post>.*)$",
    re.S,
)
_TRANSPOSE = re.compile(r"\^\{T\^\{?T\}?\}|\^\{T\}|\^T|'")


def _read_side(text: str, notes: list[str]) -> Any:
    """One side of a chain as SymPy: None if empty, a Matrix, or an expression."""
    text = text.strip()
    if not text:
        return None
    if text in (r"\infty", r"+\infty"):
        return _INF
    if text == r"-\infty":
        return -_INF
    if r"\begin{" in text:
        return _read_matrix(text, notes)
    value = read_latex(text)
    if isinstance(value, list):
        value = sp.Matrix([value])
    if isinstance(value, sp.MatrixBase):
        return sp.Matrix(value)
    if isinstance(value, (sp.Rel, sp.logic.boolalg.Boolean)) and not isinstance(value, sp.Expr):
        raise LatexError("cannot read this relation: write it as, say, N > 8192")
    if not isinstance(value, sp.Expr):
        raise LatexError(f"cannot read '{text[:40]}' as a value here")
    if value.has(sp.Sum, sp.Product):
        value = value.doit()  # concrete bounds, at most a hundred terms (answers.py)
    if r"\infty" in text and not value.has(*_INFINITIES):
        # SymPy evaluated the infinity away (1/\infty is 0): still not a finite number
        raise NotFinite("the answer is not a finite number: it involves infinity")
    return value


def _read_matrix(text: str, notes: list[str]) -> sp.Matrix:
    m = _MATRIX.match(text)
    if not m or r"\begin{" in m.group("body") or r"\begin{" in m.group("post"):
        raise LatexError("write one matrix, as \\begin{bmatrix} ... \\end{bmatrix}")
    rows = [r for r in re.split(r"\\\\", m.group("body").replace(r"\hline", ""))]
    if rows and not rows[-1].strip():
        rows.pop()
    cells = [[c.strip() for c in r.split("&")] for r in rows]
    if not cells or any(len(r) != len(cells[0]) for r in cells):
        raise LatexError("the rows of the matrix have different lengths")
    if any(not c for r in cells for c in r):
        raise LatexError("the matrix has an empty entry")
    matrix = sp.Matrix([[_read_entry(c) for c in r] for r in cells])
    pre = m.group("pre").strip()
    pre = re.sub(r"\\(?:cdot|times)\s*$", "", pre).strip()
    if pre in ("", "+"):
        scale = None
    elif pre == "-":
        scale = sp.S.NegativeOne
    else:
        scale = read_latex(pre)
        if not isinstance(scale, sp.Expr):
            raise LatexError("cannot read the factor in front of the matrix")
    post = re.sub(r"\s+", "", m.group("post"))
    flips = 0
    while post:
        t = _TRANSPOSE.match(post)
        if not t:
            raise LatexError(f"cannot read '{post[:20]}' after the matrix")
        flips += t.group().count("T") or 1
        post = post[t.end() :]
    if flips % 2:
        matrix = matrix.T
    if scale is not None:
        matrix = matrix.applyfunc(lambda x: scale * x)
    return matrix


def _read_entry(text: str) -> Any:
    if text in (r"\infty", r"+\infty"):
        return _INF
    if text == r"-\infty":
        return -_INF
    value = read_latex(text)
    if not isinstance(value, sp.Expr):
        raise LatexError(f"cannot read the matrix entry '{text[:30]}'")
    return value


def _given(chain: Chain, sides: list[Any]) -> str:
    shown = {"<=": "<=", ">=": ">=", "!=": "!=", "~": "≈", "equiv": "≡"}
    parts = []
    for i, s in enumerate(sides):
        if i:
            parts.append(shown.get(chain.relations[i - 1], chain.relations[i - 1]))
        if s is not None:
            parts.append(_show(s))
    text = " ".join(parts)
    return text if len(text) <= 200 else text[:197] + "..."


def _show(value: Any) -> str:
    if isinstance(value, sp.MatrixBase):
        return sp.sstr(value.tolist())
    return sp.sstr(value)


# -- numbers ----------------------------------------------------------------------------------
def _judge_number(
    chain: Chain, sides: list[Any], expected: Expected, mistakes: tuple[Mistake, ...]
) -> Verdict:
    bad = [r for r in chain.relations if r not in ("=", "~")]
    if bad:
        raise _Refusal("form", "expected a number, not a relation")
    values = _values(chain, sides)
    for value in values:
        _number(value, expected, mistakes)
    return Verdict("correct", feedback="correct", extra={"value": values[0]})


def _values(chain: Chain, sides: list[Any]) -> list[Any]:
    """The sides that are values: not an empty end (\\approx 1.96), not a leading label (y = ...)."""
    values = []
    last = len(sides) - 1
    for i, s in enumerate(sides):
        if s is None:
            if last and i in (0, last):
                continue
            raise _Refusal("form", "a relation needs a value on each side", "invalid")
        if i == 0 and last and isinstance(s, sp.Symbol):
            continue  # a name for the answer: O = 1.96
        values.append(s)
    if not values:
        raise _Refusal("form", "no value is given", "invalid")
    return values


def _number(value: Any, expected: Expected, mistakes: tuple[Mistake, ...]) -> None:
    """Return if ``value`` is within tolerance of the expected number; else raise _Refusal."""
    if isinstance(value, sp.MatrixBase):
        if value.shape != (1, 1):
            raise _Refusal("shape", f"expected a single number, not a {value.rows}x{value.cols} matrix")
        value = value[0, 0]  # a 1x1 matrix is read as its entry
        if value in (_INF, -_INF):
            raise NotFinite("the answer is not a finite number: it involves infinity")
    if value.has(*_INFINITIES):
        raise NotFinite("the answer is not a finite number: it involves infinity")
    if value.free_symbols:
        names = ", ".join(sorted(str(s) for s in value.free_symbols))
        raise _Refusal("symbolic", f"the answer should be a number, but it contains {names}")
    ok = _close(value, expected.value, expected.tolerance)
    if ok is True:
        return
    for m in mistakes:
        if not isinstance(m.value, sp.MatrixBase) and _close(value, m.value, expected.tolerance) is True:
            raise _Refusal(m.code, m.feedback)
    if ok is None:
        raise _Refusal(
            "undecided", "this value could not be compared with certainty: write it more simply", "invalid"
        )
    raise _Refusal("", "not the expected answer")


def _close(value: Any, target: Any, tol: sp.Rational) -> bool | None:
    try:
        return within(value, target, tol)
    except Uncertain as exc:
        raise _Refusal(
            "form",
            str(exc) if "function" in str(exc) else "this is not a number that can be checked",
            "invalid",
        ) from None


# -- matrices ----------------------------------------------------------------------------------
def _judge_matrix(
    chain: Chain, sides: list[Any], expected: Expected, mistakes: tuple[Mistake, ...]
) -> Verdict:
    if any(r != "=" for r in chain.relations):
        raise _Refusal("form", "expected a matrix, not a relation")
    values = _values(chain, sides)
    for value in values:
        reason = _matrix_reason(value, sp.Matrix(expected.value), expected.tolerance)
        if reason is None:
            continue
        for m in mistakes:
            target = m.value if isinstance(m.value, sp.MatrixBase) else sp.Matrix([[m.value]])
            if _matrix_reason(value, sp.Matrix(target), expected.tolerance) is None:
                raise _Refusal(m.code, m.feedback)
        raise _Refusal(*reason)
    return Verdict("correct", feedback="correct", extra={"value": values[0]})


def _matrix_reason(value: Any, e: sp.Matrix, tol: sp.Rational) -> tuple[str, str] | None:
    """None if ``value`` equals ``e`` entry by entry; else (code, reason)."""
    if not isinstance(value, sp.MatrixBase):
        return ("shape", f"expected a {e.rows}x{e.cols} matrix")
    if value.shape != e.shape:
        return ("shape", f"expected a {e.rows}x{e.cols} matrix, got {value.rows}x{value.cols}")
    for x, y in zip(value, e, strict=True):
        if y in (_INF, -_INF):
            if _infinite_entry(x) != y:
                return ("", "not the expected matrix")
            continue
        if x.has(*_INFINITIES):
            return ("", "not the expected matrix")
        if x.free_symbols:
            return ("symbolic", "the entries should be numbers")
        try:
            ok = within(x, y, tol)
        except (NotFinite, Uncertain):
            return ("", "not the expected matrix: an entry is not a finite number")
        if ok is not True:
            return ("", "not the expected matrix")
    return None


def _infinite_entry(x: Any) -> Any:
    """+oo or -oo for an entry that is +-infinity plus (or times a positive) finite number."""
    try:
        return _infinity_of(sp.sympify(x))
    except (NotFinite, Uncertain):
        return None


def _infinity_of(x: sp.Expr) -> Any:
    if x in (_INF, -_INF):
        return x
    inf = [a for a in sp.preorder_traversal(x) if a in _INFINITIES]
    if not inf or any(a in (sp.S.ComplexInfinity, sp.S.NaN) for a in inf):
        return None
    finite_part = x.xreplace({_INF: sp.S.Zero, -_INF: sp.S.Zero})
    try:
        enclose(finite_part)
    except (NotFinite, Uncertain):
        return None
    if isinstance(x, sp.Add) and sum(1 for a in x.args if a.has(_INF, -_INF)) == 1:
        term = next(a for a in x.args if a.has(_INF, -_INF))
        return _infinity_of(term)
    if isinstance(x, sp.Mul):
        factors = [a for a in x.args if not a.has(_INF, -_INF)]
        inf_factors = [a for a in x.args if a.has(_INF, -_INF)]
        if len(inf_factors) != 1:
            return None
        s = sign(enclose(sp.Mul(*factors))) if factors else 1
        core = _infinity_of(inf_factors[0])
        if core is None or not s:
            return None
        return core if s > 0 else -core
    return None


# -- thresholds -----------------------------------------------------------------------------
@dataclass(frozen=True)
class _Set:
    """Positive integers as sorted disjoint ranges [lo, hi]; hi None means unbounded."""

    ranges: tuple[tuple[int, int | None], ...]

    def __and__(self, other: _Set) -> _Set:
        out = []
        for a, b in self.ranges:
            for c, d in other.ranges:
                lo = max(a, c)
                hi = b if d is None else (d if b is None else min(b, d))
                if hi is None or lo <= hi:
                    out.append((lo, hi))
        return _Set(tuple(sorted(out)))

    def describe(self, var: str) -> str:
        if not self.ranges:
            return f"no positive integer {var}"
        parts = []
        for lo, hi in self.ranges[:3]:
            parts.append(
                f"{var} >= {lo}"
                if hi is None
                else (f"{var} = {lo}" if lo == hi else f"{lo} <= {var} <= {hi}")
            )
        return " or ".join(parts) + (" or ..." if len(self.ranges) > 3 else "")


_ALL = _Set(((1, None),))


def _judge_threshold(
    chain: Chain, sides: list[Any], expected: Expected, mistakes: tuple[Mistake, ...]
) -> Verdict:
    var_names = {expected.variable, expected.variable.lower()}
    has_var = [isinstance(s, sp.Basic) and any(str(x) in var_names for x in s.free_symbols) for s in sides]
    if not any(has_var):
        return _threshold_as_number(chain, sides, expected, mistakes)
    sides = _with_constants(sides, expected, has_var)
    symbols = set().union(*(s.free_symbols for s in sides if isinstance(s, sp.Basic)))
    var = next(s for s in symbols if str(s) in var_names)
    others = symbols - {var}
    if others:
        names = ", ".join(sorted(str(s) for s in others))
        if any(str(s) in dict(expected.constants) for s in others):
            raise _Refusal(
                "symbolic",
                f"give the number: with {_constants_text(expected)} the threshold is a number",
            )
        raise _Refusal("symbolic", f"expected an inequality in {expected.variable} alone, not in {names}")
    answer = _ALL
    var_rels = []
    for i, rel in enumerate(chain.relations):
        left, right = sides[i], sides[i + 1]
        if left is None or right is None:
            raise _Refusal("form", "a relation needs something on each side", "invalid")
        if isinstance(left, sp.MatrixBase) or isinstance(right, sp.MatrixBase):
            raise _Refusal("shape", "expected an inequality or a number, not a matrix")
        if not (has_var[i] or has_var[i + 1]):
            _numeric_claim(left, rel, right)
            continue
        if rel not in ("<", ">", "<=", ">="):
            raise _Refusal(*_relation_reason(rel, expected))
        var_rels.append((left, rel, right))
        answer = answer & _solve(left, rel, right, var)
    if not var_rels:
        raise _Refusal("form", f"write the threshold as {expected.variable} > number, or the number")
    target = _threshold_set(expected.value)
    if answer == target:
        _confirm(var_rels, var, target)
        return Verdict("correct", feedback="correct", extra={"relations": var_rels, "variable": var})
    for m in mistakes:
        if _threshold_set(m.value) == answer:
            raise _Refusal(m.code, m.feedback)
    raise _Refusal(*_set_reason(answer, target, expected))


def _threshold_as_number(
    chain: Chain, sides: list[Any], expected: Expected, mistakes: tuple[Mistake, ...]
) -> Verdict:
    """The number c for N > c, possibly in a chain of equal values (2 d_{model} = 8192)."""
    if any(r not in ("=", "~") for r in chain.relations):
        symbols = set().union(*(x.free_symbols for x in sides if isinstance(x, sp.Basic)))
        symbols -= {sp.Symbol(n) for n, _ in expected.constants}
        if len(symbols) == 1:
            name = next(iter(symbols))
            raise _Refusal("variable", f"the threshold is on {expected.variable}, not {name}")
        raise _Refusal("form", f"write the threshold as {expected.variable} > number, or the number")
    if "~" in chain.relations:
        raise _Refusal("approximate", "the threshold is an exact number: write it without \\approx")
    values = _values(chain, sides)
    constants = {sp.Symbol(n): v for n, v in expected.constants}
    plain = [v for v in values if not (isinstance(v, sp.Basic) and v.free_symbols & set(constants))]
    if not plain:
        raise _Refusal(
            "symbolic", f"give the number: with {_constants_text(expected)} the threshold is a number"
        )
    for v in values:
        _number(v.xreplace(constants) if isinstance(v, sp.Basic) else v, expected, mistakes)
    return Verdict("correct", feedback="correct", extra={"value": plain[0]})


def _with_constants(sides: list[Any], expected: Expected, has_var: list[bool]) -> list[Any]:
    """Replace d_{model} by its value when some side states a plain number."""
    constants = {sp.Symbol(n): v for n, v in expected.constants}
    plain = any(
        isinstance(s, sp.Expr) and not has and not s.free_symbols and not s.has(*_INFINITIES)
        for s, has in zip(sides, has_var, strict=True)
    )
    if not plain or not constants:
        return sides
    return [s.xreplace(constants) if isinstance(s, sp.Basic) else s for s in sides]


def _constants_text(expected: Expected) -> str:
    seen = {}
    for name, v in expected.constants:
        seen.setdefault(v, name)
    return ", ".join(f"{name} = {v}" for v, name in seen.items())


def _numeric_claim(left: Any, rel: str, right: Any) -> None:
    """A relation between two numbers in a chain must be true (certified)."""
    if left in (_INF, -_INF) or right in (_INF, -_INF):
        truth = {
            "<": left != right and (left == -_INF or right == _INF),
            ">": left != right and (left == _INF or right == -_INF),
        }.get(rel.rstrip("="), False)
        if not truth:
            raise _Refusal("false-step", "a step of this chain is false")
        return
    if (isinstance(left, sp.Basic) and left.free_symbols) or (
        isinstance(right, sp.Basic) and right.free_symbols
    ):
        raise _Refusal("symbolic", "a step of this chain has symbols other than the threshold's")
    if rel in ("=", "~", "equiv"):
        ok = _close(left, right, sp.S.Zero)
    elif rel == "!=":
        ok = _close(left, right, sp.S.Zero) is False
    else:
        s = sign(enclose(sp.Add(left, -right, evaluate=False)))
        ok = None if s is None else {"<": s < 0, ">": s > 0, "<=": s <= 0, ">=": s >= 0}[rel]
    if ok is None:
        raise _Refusal("undecided", "a step of this chain could not be checked", "invalid")
    if not ok:
        raise _Refusal("false-step", "a step of this chain is false")


def _relation_reason(rel: str, expected: Expected) -> tuple[str, str]:
    v = expected.variable
    return {
        "=": (
            "equality",
            f"{v} = ... names one length; the quadratic term is larger for every {v} beyond "
            f"the threshold: write {v} > ...",
        ),
        "!=": (
            "not-equal",
            f"≠ describes every {v} except one value, not the lengths beyond a threshold: write {v} > ...",
        ),
        "~": ("approximate", f"≈ is not an inequality: write {v} > ..."),
        "equiv": ("equivalent", f"≡ is not an inequality: write {v} > ..."),
    }[rel]


def _set_reason(answer: _Set, target: _Set, expected: Expected) -> tuple[str, str]:
    v = expected.variable
    if answer.ranges and answer.ranges[-1][1] is not None and answer.ranges[0][0] == 1:
        return ("direction", f"the quadratic term wins for long sequences: {v} > ..., not {v} < ...")
    start = target.ranges[0][0]
    if len(answer.ranges) == 1 and answer.ranges[0] == (start - 1, None):
        return (
            "non-strict",
            "at the threshold the two terms are equal; the quadratic term overtakes only beyond it (use >)",
        )
    return ("", f"that describes {answer.describe(v)}: not the expected threshold")


def _threshold_set(c: Any) -> _Set:
    c = sp.Rational(c)
    return _Set(((max(1, int(sp.floor(c)) + 1), None),))


def _solve(left: sp.Expr, rel: str, right: sp.Expr, var: sp.Symbol) -> _Set:
    """The positive integers where ``left rel right`` holds, exactly.

    ``left - right`` must be a ratio of polynomials in ``var`` with rational coefficients of
    degree at most MAX_DEGREE. Its sign changes only at real roots of the numerator and the
    denominator; those are isolated in rational intervals of width 1/2, every integer next
    to one is tested exactly, and one integer of each gap between them stands for the gap.
    """
    if left in (_INF, -_INF) or right in (_INF, -_INF):
        return _against_infinity(left, rel, right, var)
    for side in (left, right):
        if isinstance(side, sp.Basic) and side.has(*_INFINITIES):
            raise NotFinite("the bound is not a finite number")
    _polynomial_guard(left - right, var)
    difference = sp.expand(left - right)
    if difference.has(*_INFINITIES):
        raise NotFinite("the bound is not a finite number")
    num, den = sp.fraction(sp.together(difference))
    try:
        p = sp.Poly(num, var, domain=sp.QQ)
        q = sp.Poly(den, var, domain=sp.QQ)
    except (sp.PolynomialError, sp.polys.polyerrors.CoercionFailed):
        raise _Refusal(
            "form", f"only polynomial inequalities in {var} are judged: write it as {var} > number", "invalid"
        ) from None
    if max(p.degree(), q.degree()) > MAX_DEGREE:
        raise _Refusal("form", f"too costly to check: an inequality of degree above {MAX_DEGREE}", "invalid")
    critical = {1}
    for poly in (p, q):
        if poly.degree() > 0:
            for (a, b), _ in poly.intervals(eps=sp.Rational(1, 2)):
                lo, hi = int(sp.floor(a)), int(sp.ceiling(b))
                critical.update(k for k in range(lo - 1, hi + 2) if k >= 1)
    points = sorted(critical)

    def truth(k: int) -> bool:
        qk = sp.Rational(q.eval(k))
        if qk == 0:
            return False  # undefined at k
        value = sp.Rational(p.eval(k)) / qk
        return bool({"<": value < 0, ">": value > 0, "<=": value <= 0, ">=": value >= 0}[rel])

    ranges: list[tuple[int, int | None]] = []
    for i, k in enumerate(points):
        _add(ranges, k, k, truth(k))
        nxt = points[i + 1] if i + 1 < len(points) else None
        if nxt is None:
            _add(ranges, k + 1, None, truth(k + 1))
        elif nxt > k + 1:
            _add(ranges, k + 1, nxt - 1, truth(k + 1))
    return _Set(tuple(ranges))


def _polynomial_guard(e: sp.Expr, var: sp.Symbol) -> None:
    """Refuse, before expanding anything, what is not a small polynomial or ratio of them.

    Parts free of ``var`` must be finite numbers of at most 100 digits (10^{10^{10}} is not
    expanded).
    """
    if not e.has(var):
        if not e.is_Number:
            try:
                size = abs(enclose(e))
            except Uncertain:
                raise _Refusal("symbolic", f"expected an inequality in {var} alone") from None
            if size.b > 10**100:
                raise _Refusal("form", "too costly to check: a bound of more than 100 digits", "invalid")
        return
    if e == var:
        return
    if isinstance(e, sp.Pow):
        if e.exp.has(var) or not e.exp.is_Integer:
            raise _Refusal(
                "form",
                f"only polynomial inequalities in {var} are judged: write it as {var} > number",
                "invalid",
            )
        if abs(int(e.exp)) > MAX_DEGREE:
            raise _Refusal(
                "form", f"too costly to check: an inequality of degree above {MAX_DEGREE}", "invalid"
            )
        _polynomial_guard(e.base, var)
        return
    if not isinstance(e, (sp.Add, sp.Mul)):
        raise _Refusal(
            "form", f"only polynomial inequalities in {var} are judged: write it as {var} > number", "invalid"
        )
    for arg in e.args:
        _polynomial_guard(arg, var)


def _add(ranges: list[tuple[int, int | None]], lo: int, hi: int | None, keep: bool) -> None:
    if not keep:
        return
    if ranges and ranges[-1][1] is not None and ranges[-1][1] == lo - 1:
        ranges[-1] = (ranges[-1][0], hi)
    else:
        ranges.append((lo, hi))


def _against_infinity(left: Any, rel: str, right: Any, var: sp.Symbol) -> _Set:
    """``N < \\infty`` holds for every N; ``N > \\infty`` for none."""
    if left in (_INF, -_INF) and right in (_INF, -_INF):
        raise _Refusal("form", "a relation between two infinities says nothing about N")
    inf, other, flipped = (right, left, False) if right in (_INF, -_INF) else (left, right, True)
    if other != var and not (isinstance(other, sp.Expr) and other.is_polynomial(var)):
        raise _Refusal("form", f"compare {var} itself with infinity", "invalid")
    op = rel.rstrip("=")
    if flipped:
        op = {"<": ">", ">": "<"}[op]
    always = (op == "<" and inf == _INF) or (op == ">" and inf == -_INF)
    return _ALL if always else _Set(())


def _confirm(relations: list[tuple[Any, str, Any]], var: sp.Symbol, target: _Set) -> None:
    """Confirm an exact 'same set' with certified 60-digit evaluation at witness points."""
    start = target.ranges[0][0]
    unconfirmed = _Refusal("undecided", "this inequality could not be confirmed numerically", "invalid")
    for k in sorted({max(1, start - 1), start, start + 1, 2 * start, 1000 * start}):
        every = True
        for left, rel, right in relations:
            if left in (_INF, -_INF) or right in (_INF, -_INF):
                continue
            at = {var: sp.Integer(k)}
            try:
                gap = enclose(sp.Add(left.xreplace(at), -right.xreplace(at), evaluate=False))
            except NotFinite:
                every = False  # undefined at k
                continue
            s = sign(gap)
            if s is None:
                raise unconfirmed
            every = every and {"<": s < 0, ">": s > 0, "<=": s <= 0, ">=": s >= 0}[rel]
        if every != (k >= start):
            raise unconfirmed


def expected_decimal(expected: Expected, digits: int = 6) -> str:
    """A short decimal for display, where the expected value is a number."""
    if expected.kind == "matrix":
        return ""
    return decimal_string(sp.sympify(expected.value), digits)
