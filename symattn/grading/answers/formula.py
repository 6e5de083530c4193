r"""ex6.6's formula part: what a head computes when its weights are exactly uniform.

With weights 1/N on every one of N tokens, each output is the mean of the value rows,
\frac{1}{N}\sum_{j=1}^{N} v_j. :func:`judge_formula` reads an answer with the step parser of
:mod:`symattn.grading.proofs.step_reader` (sums, fractions, ``v_1 + v_2 + \dots + v_N``; an optional
``o_i =`` in front) and proves it equal to the mean for every N: both sides are put in a normal
form (constants taken out of sums, summation indices renamed, expanded) whose difference must
be 0. An answer that only agrees at the sizes tried is not called correct. Known slips (the
sum without 1/N, one weight, one value) get their own feedback. The work runs in the same
limited worker as other answers.
"""

from __future__ import annotations

import re

import sympy as sp

from ..plain_math import plain_math
from ..proofs.step_reader import MAX_STEP_TERMS, Node, StepSyntaxError, expansion_terms, parse_expression
from .dialects import split_top
from .judge import Verdict

N = sp.Symbol("N", integer=True, positive=True)
V = sp.IndexedBase("v")
J = sp.Symbol("j", integer=True, positive=True)
MEAN = sp.Sum(V[J], (J, 1, N)) / N
EXPECTED_LATEX = r"\frac{1}{N}\sum_{j=1}^{N} v_j"
_OUTPUT_NAMES = ("o", "y", "h")  # o_i = ..., the output of token i

SLIPS = (
    (
        sp.Sum(V[J], (J, 1, N)),
        "sum-not-mean",
        "That is the sum of the values: each of the N weights is 1/N, so the output is their mean",
    ),
    (1 / N, "weight-not-output", "That is each weight: the output is the weighted sum of the values"),
    (V[J], "one-value", "With uniform weights no value is singled out: every value counts equally"),
)


def _build(node: Node) -> sp.Expr:
    kind = node[0]
    if kind == "num":
        return sp.Rational(node[1])
    if kind == "group":
        return _build(node[1])
    if kind == "add":
        terms = list(node[1:])
        if any(t == ("dots",) for t in terms):
            return _dotted_sum(terms)
        return sp.Add(*[_build(t) for t in terms])
    if kind == "neg":
        return -_build(node[1])
    if kind == "mul":
        return sp.Mul(*[_build(t) for t in _row_sums(node[1:])])
    if kind == "rowsum":
        return sp.Sum(V[J], (J, 1, N))
    if kind == "inv":
        den = _build(node[1])
        if den == 0:
            raise StepSyntaxError("division by zero")
        return 1 / den
    if kind == "pow":
        exp = _build(node[2])
        if not (exp.is_Rational and abs(exp) <= 4):
            raise StepSyntaxError("powers must be small numbers here")
        return _build(node[1]) ** exp
    if kind == "sqrt":
        return sp.sqrt(_build(node[1]))
    if kind == "sum":
        _, name, low, high, body = node
        if name in ("v", "N"):
            raise StepSyntaxError(f"{name} cannot be a summation index")
        i = sp.Symbol(name, integer=True, positive=True)
        lo = _build(low) if low is not None else sp.S.One
        hi = _build(high) if high is not None else N
        body_value = _build(body)
        if lo.is_Integer and lo < 1:  # an index from 0 (or below): shifted to start at 1, as i > 0
            body_value, hi, lo = body_value.xreplace({i: i + lo - 1}), hi - lo + 1, sp.S.One
        total = sp.Sum(body_value, (i, lo, hi))
        # A sum free of the values has a closed form: sum_j 1 is N, whatever its index is called.
        return total if total.function.has(V) else _closed_form(total)
    if kind == "id":
        _, base, sub, sup = node
        if sup is None and base == "N" and sub is None:
            return N
        if sup is None and base in ("v", "V") and sub is not None:
            return V[_index(sub)]  # V_j: row j of V
        raise StepSyntaxError("unknown symbol: write the answer with N, the values v_j and \\sum")
    raise StepSyntaxError("write the answer with N, the values v_j and \\sum")


def _closed_form(total: sp.Sum) -> sp.Expr:
    """A sum without values in closed form (polynomial bodies only: a learner's odd sum is refused)."""
    var = total.limits[0][0]
    if not total.function.is_polynomial(var) or sp.degree(total.function, var) > 4:
        raise StepSyntaxError("a sum without values must be a simple count, such as \\sum_j 1")
    return sp.factor(total.doit())


def _row_sums(factors: tuple) -> list:
    """1^T V (and V^T 1), the sum of the value rows, as one factor; 1 1^T V, the N x d_v matrix
    whose every row is that sum (the outputs of all tokens at once), as the same factor."""
    out, i = [], 0
    ones, t_ones, values = ("ones",), ("T", ("ones",)), ("id", "V", None, None)
    while i < len(factors):
        if factors[i : i + 3] == (ones, t_ones, values):
            out.append(("rowsum",))
            i += 3
            continue
        a, b = factors[i], factors[i + 1] if i + 1 < len(factors) else None
        if b is not None and (
            (a == ("T", ("ones",)) and b == ("id", "V", None, None))
            or (a == ("T", ("id", "V", None, None)) and b == ("ones",))
        ):
            out.append(("rowsum",))
            i += 2
            continue
        out.append(a)
        i += 1
    return out


def _index(node: Node) -> sp.Expr:
    """An index: numbers, N, one-letter indices, + and -."""
    kind = node[0]
    if kind == "num" and node[1].isdigit():
        return sp.Integer(node[1])
    if kind == "id" and node[2] is None and node[3] is None and len(node[1]) == 1:
        return N if node[1] == "N" else sp.Symbol(node[1], integer=True, positive=True)
    if kind == "add":
        return sp.Add(*[_index(t) for t in node[1:]])
    if kind == "neg":
        return -_index(node[1])
    if kind == "group":
        return _index(node[1])
    raise StepSyntaxError("an index of v must be a letter, a number, N, or a sum of those (v_{j+1})")


def _from_one_to_n(low: sp.Expr, high: sp.Expr, k: sp.Symbol) -> sp.Expr:
    """sum_{k=low}^{high} v_k written over k = 1..N with the few values it adds or leaves out
    (sum_{j=2}^{N} v_j is the whole sum less v_1), when the bounds are 1..N off by a few."""
    whole = sp.Sum(V[k], (k, 1, N))
    head, tail = sp.expand(low - 1), sp.expand(N - high)
    if head.is_Integer and tail.is_Integer and abs(head) <= 16 and abs(tail) <= 16:
        out = whole
        out -= sum((V[t] for t in range(1, int(head) + 1)), sp.S.Zero)  # starts late: less v_1..
        out += sum((V[t] for t in range(int(head) + 1, 1)), sp.S.Zero)  # starts early: v_0, ...
        out -= sum((V[N - t] for t in range(int(tail))), sp.S.Zero)  # ends early: less v_N, ...
        out += sum((V[N + t] for t in range(1, -int(tail) + 1)), sp.S.Zero)  # ends late
        return out
    return sp.Sum(V[k], (k, low, high))


def _dotted_sum(terms: list[Node]) -> sp.Expr:
    """v_1 + v_2 + \\dots + v_N as the sum over j = 1..N."""
    parts = [t for t in terms if t != ("dots",)]
    built = [_build(t) for t in parts]
    for first in (1, 0):  # v_1 + ... + v_N, or numbered from 0: v_0 + ... + v_{N-1}
        last = N + first - 1
        for run in (built, built[::-1]):  # forwards, or backwards: v_N + ... + v_2 + v_1
            if (
                len(run) >= 2
                and run[0] == V[first]
                and run[-1] == V[last]
                and all(b == V[k] for k, b in enumerate(run[:-1], start=first))
            ):
                return sp.Sum(V[J + first - 1], (J, 1, N))
    raise StepSyntaxError("write a sum with dots as v_1 + v_2 + \\dots + v_N")


def read_answer(text: str) -> sp.Expr:
    """The answer's expression; ``o_i = ...`` (the output of token i) may stand in front."""
    parts = _top_level_split(text)
    if len(parts) > 2:
        raise StepSyntaxError("write one expression (or o_i = expression)")
    if len(parts) == 2:
        head = parse_expression(parts[0])
        if not (head[0] == "id" and head[1] in _OUTPUT_NAMES and head[3] is None):
            raise StepSyntaxError("the left-hand side must name the output, as in o_i = ...")
    return _build(parse_expression(parts[-1]))


def _top_level_split(text: str) -> list[str]:
    return [p.strip() for p in split_top(text, "=")]


def normal(e: sp.Expr) -> sp.Expr:
    """Constants out of sums, sums over Add split, summation indices renamed, expanded."""
    e = sp.expand(e)
    if e.is_Add:
        return sp.Add(*[normal(t) for t in e.args])
    if e.is_Mul:
        return sp.Mul(*[normal(f) for f in e.args])
    if isinstance(e, sp.Sum):
        *inner, (var, lo, hi) = e.limits  # \sum_j \sum_k: the inner sum first
        function = sp.Sum(e.function, *inner) if inner else e.function
        body = normal(function).xreplace({var: var + lo - 1})  # every sum starts at 1
        hi = hi - lo + 1
        lo = sp.S.One
        out = []
        for term in sp.Add.make_args(sp.expand(body)):
            inside = [f for f in sp.Mul.make_args(term) if f.has(var)]
            outside = [f for f in sp.Mul.make_args(term) if not f.has(var)]
            if not inside:  # a term free of the index, counted hi times
                out.append(sp.Mul(*outside) * hi)
                continue
            out.append(sp.Mul(*outside) * _reindexed(sp.Mul(*inside), var, hi))
        return sp.expand(sp.Add(*out))
    return e


def _reindexed(summand: sp.Expr, var: sp.Symbol, hi: sp.Expr) -> sp.Expr:
    """sum_{var=1}^{hi} summand with its index renamed, and with the body v_κ itself where the
    summand is one value v_{±var + c} (v_{N+1-j} over j = 1..N is v_κ over κ = 1..N)."""
    k = sp.Symbol("κ", integer=True, positive=True)
    if isinstance(summand, sp.Indexed) and summand.base == V:
        idx = sp.expand(summand.indices[0])
        a = idx.coeff(var)
        c = sp.expand(idx - a * var)
        if a in (1, -1) and not c.has(var):
            low, high = (sp.expand(a + c), sp.expand(a * hi + c))
            if a == -1:
                low, high = high, low
            return _from_one_to_n(low, high, k)
    return sp.Sum(summand.xreplace({var: k}), (k, sp.S.One, hi))


def _equal(a: sp.Expr, b: sp.Expr) -> bool:
    return sp.expand(normal(a) - normal(b)) == 0


def _at_sizes(a: sp.Expr, b: sp.Expr) -> bool:
    """Equal at N = 1..8 once sums are written out (evidence only)."""
    for n in range(1, 9):
        x = a.subs(N, n).doit()
        y = b.subs(N, n).doit()
        free = (x.free_symbols | y.free_symbols) - {N, V.label}  # v[k] is a value; v, its label
        free = {s for s in free if not isinstance(s, sp.Indexed)}
        if free or sp.expand(x - y) != 0:
            return False
    return True


#: A program's mean of V over another axis than the rows (the rows' mean is read by the dialects).
_PROGRAM_MEANS = (
    (
        r"\s*(?:(?:np|numpy|torch)\.mean\(\s*V\s*\)|V\.mean\(\s*\))\s*;?\s*",
        "That averages every entry of V into one number: the output is the mean of the value rows "
        "(the mean over axis 0), one vector",
    ),
    (
        r"\s*(?:(?:np|numpy|torch)\.mean\(\s*V\s*,\s*(?:(?:axis|dim)\s*=\s*)?(?:1|-1)\s*\)"
        r"|V\.mean\(\s*(?:(?:axis|dim)\s*=\s*)?(?:1|-1)\s*\)|mean\(\s*V\s*,\s*2\s*\))\s*;?\s*",
        "That averages each token's own features (over axis 1): the output is the mean of the value "
        "rows over the tokens (axis 0)",
    ),
)


#: Where the learner numbers the values from 0 (a sum from 0, or v_0 written): only then is v_0 read
#: as the first value; v_0 from a 1-based sum (v_{N-j} over j = 1..N) is an off-by-one slip.
_ZERO_BASED = re.compile(r"\\sum\s*_\s*\{?\s*[a-z]\s*=\s*0\b|v_\{?\s*0\s*\}?(?![\d])")


def _from_zero(e: sp.Expr) -> bool:
    """Whether the answer names v_0: its values are numbered from 0, as in code."""
    normal_form = normal(e)
    return any(x.base == V and x.indices[0] == 0 for x in normal_form.atoms(sp.Indexed))


def _shifted(e: sp.Expr) -> sp.Expr:
    """The answer with its values renumbered from 1: v_k read as v_{k+1}."""
    return e.replace(lambda x: isinstance(x, sp.Indexed) and x.base == V, lambda x: V[x.indices[0] + 1])


def _judge(text: str) -> Verdict:
    answer = read_answer(text)
    given, latex = plain_math(answer), sp.latex(answer)
    if _equal(answer, MEAN):
        feedback = "correct: the mean of the value rows, the same for every token"
        return Verdict("correct", given, feedback, given_latex=latex, typed=given)
    from_zero = _from_zero(answer) and bool(_ZERO_BASED.search(text))
    if from_zero and _equal(_shifted(answer), MEAN):
        feedback = (
            "correct, with the values numbered from 0 (v_0, ..., v_{N-1}): the mean of the value rows, "
            "the same for every token"
        )
        return Verdict("correct", given, feedback, given_latex=latex, typed=given)
    for value, code, feedback in SLIPS:
        if _equal(answer, value) or (from_zero and _equal(_shifted(answer), value)):
            return Verdict("incorrect", given, feedback, code, given_latex=latex, typed=given)
    if _at_sizes(answer, MEAN):
        return Verdict(
            "invalid",
            given,
            "equal to the mean at N = 1, ..., 8, but not proved for every N: write it as " + EXPECTED_LATEX,
            given_latex=latex,
            typed=given,
        )
    feedback = "Not the output of uniform weights (the mean of the values v_j)"
    return Verdict("incorrect", given, feedback, given_latex=latex, typed=given)


def judge_formula(raw: str) -> Verdict:
    """Judge an answer to ex6.6's formula part, in a limited worker; never raises for bad input."""
    from ..worker import OutOfTime, WorkerError, isolated
    from .dialects import normalise
    from .judge import CPU_SECONDS, MEMORY_MB, TIMEOUT
    from .notation import MAX_LENGTH, unwrap

    text = (raw or "").strip()
    if len(text) > MAX_LENGTH:  # before any pattern reads it
        return Verdict(
            "invalid", feedback=f"the answer is too long ({len(text)} characters, at most {MAX_LENGTH})"
        )
    text = unwrap(normalise(text, []))
    if not text:
        return Verdict("invalid", feedback="the answer is empty")
    for pattern, feedback in _PROGRAM_MEANS:  # the mean rows are read as (normalise); other axes here
        if re.fullmatch(pattern, text):
            return Verdict("incorrect", text, feedback, "wrong-axis", typed=text)
    try:
        terms = expansion_terms(parse_expression(_top_level_split(text)[-1]))  # refusals before forking
        if terms > MAX_STEP_TERMS:  # normal() expands it: counted on the text, the same on every machine
            why = f"too costly to check: multiplied out, it has more than {MAX_STEP_TERMS} terms"
            return Verdict("invalid", feedback=why)
        return isolated(_judge, text, timeout=TIMEOUT, memory_mb=MEMORY_MB, cpu_seconds=CPU_SECONDS)
    except StepSyntaxError as exc:
        return Verdict("invalid", feedback=str(exc))
    except OutOfTime as exc:  # the time safety net: no verdict on the answer
        return Verdict("unchecked", feedback=str(exc))
    except WorkerError as exc:  # a refusal inside the worker, or its memory limit
        return Verdict("invalid", feedback=str(exc))
