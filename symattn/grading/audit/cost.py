"""Rules for the cost of multi-head attention: cost terms, the total, the crossover, head widths.

Every term is compared with :func:`symattn.core.flops.cost_terms` (d_k = d_v = d_model / h, the
library's d_head); the crossover with :func:`symattn.core.flops.crossover`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

import sympy as sp

from ...core.flops import N, d_model, h
from . import calc, notclaims
from .context import AuditContext
from .document import Line
from .match import (
    CERTIFIED,
    UNCHECKED,
    WRONG,
    Claim,
    evaluate,
    inside,
    same,
    substitute_heads,
)
from .said import Math, Said
from .stated import Stated, Unreadable, rounds_to

#: Words that say a paragraph (or an exercise) is about the cost.
_COST_WORDS = r"cost|flop|\bterm\b|overtake|quadratic|dominat|\bwins\b|multiply-add"


@cache
def crossover_bound() -> sp.Expr:
    """The B of N > B where the N^2 terms overtake the N d^2 terms (solved once: it takes 1 s)."""
    from ...core.flops import crossover

    rel = crossover()
    return rel.lhs if rel.rhs == N else rel.rhs


def inequality(au: AuditContext, line, text, spans, members, relations) -> Claim:
    """``2N^2 d > 4N d^2`` (the two groups of terms) or ``N > 2 d_model [= 8192]`` (the crossover)."""
    if not re.search(_COST_WORDS, au.doc.unit_text(line), re.I):
        why = notclaims.formula_reason(members, relations)  # 1 ≤ i ≤ n
        if why == notclaims.RANGE and notclaims.holds_in(line, *spans[0], why):
            return Claim(line.number, text, notclaims.NOT_A_CLAIM, None, why, spans)
        return Claim(line.number, text, UNCHECKED, None, "an inequality not said of the cost", spans)
    quad, lin = cost_value("quadratic"), cost_value("linear")
    bound = crossover_bound()
    first = next(k for k, r in enumerate(relations) if r in (">", "<", "≥", "≤"))
    left, right = members[first], members[first + 1]
    env = {**au.env, **au.premises(line)}
    lv, rv = evaluate(left, {}), evaluate(right, {})
    if lv is None or rv is None:
        return Claim(line.number, text, UNCHECKED, None, "an inequality that could not be read", spans)
    lv, rv = substitute_heads(lv), substitute_heads(rv)
    if relations[first] in ("<", "≤"):
        lv, rv = rv, lv
    problems, rule = [], ""
    if relations[first] in ("≥", "≤"):  # at N = 2 d_model the two groups of terms are equal
        problems.append(Said("the terms are equal at ", Math(sp.Eq(N, bound, evaluate=False)), ": use >"))
    if lv == N:
        rule = "cost: the crossover of symattn.core.flops.crossover"
        given = au.premises(line)
        if not rv.free_symbols and "d_model" in given:  # "N > 8192" for d_model = 4096
            bound = bound.subs(d_model, given["d_model"])
        if not same(rv, bound):
            problems.append(Said(Math(sp.StrictGreaterThan(N, bound, evaluate=False))))
        at = evaluate(right, env)
        for m, r in zip(members[first + 2 :], relations[first + 1 :], strict=True):
            lit = calc.literal(m)
            known = at is not None and not at.free_symbols
            if (
                r in ("=", "≈")
                and lit is not None
                and known
                and not rounds_to(at, Stated.read(lit), r == "=")
            ):
                named = evaluate(right, {})
                problems.append(Said(Math(named), " = ", Math(at)) if named is not None else Said(Math(at)))
    elif {same(lv, quad), same(rv, lin)} == {True} or (same(lv, lin) and same(rv, quad)):
        rule = "cost: the $N^2$ terms against the $N d^2$ terms of symattn.core.flops.cost_terms"
    elif _solved_for_n(lv, rv) == sp.StrictGreaterThan(N, bound):
        rule = "cost: the crossover of symattn.core.flops.crossover, solved for N (N, d_model > 0)"
    else:
        rule = "cost"
        problems.append(Said(Math(sp.StrictGreaterThan(quad, lin, evaluate=False))))
    if problems:
        return Claim(line.number, text, WRONG, Said.join("; ", problems), rule, spans)
    return Claim(
        line.number, text, CERTIFIED, Said(Math(sp.StrictGreaterThan(N, bound, evaluate=False))), rule, spans
    )


def _solved_for_n(lv: sp.Expr, rv: sp.Expr) -> sp.Basic | None:
    """``lv > rv`` solved for N, N and d_model positive (N/2 > d_model is N > 2 d_model)."""
    gap = lv - rv
    if not {s.name for s in gap.free_symbols} <= {"N", "d_model"} or not gap.is_rational_function():
        return None
    try:
        return sp.reduce_inequalities(sp.StrictGreaterThan(lv, rv), N)
    except (NotImplementedError, ValueError, TypeError):
        return None


def cost_expressions(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """A cost term written on its own: ``3 · N · d_model^2``, ``the 2N^2 d_model term``."""
    if not re.search(_COST_WORDS, au.doc.unit_text(line), re.I):
        return
    for _tex, plain, start, end in line.formulas:
        if inside(covered, start, end) or not re.search(r"\d", plain) or "×" in plain:
            continue
        try:
            members, relations = calc.parse_chain(plain)
        except Unreadable:
            continue
        if relations:
            continue
        names = calc.symbols_of(members[0])
        if "N" not in names or not names & {"d_model", "d_k", "d_v"}:
            continue
        value = evaluate(members[0], {})
        if value is None:
            continue
        value = substitute_heads(value)
        role = cost_role(line.text[:start], plain)
        text = line.text[start:end]
        if role:
            want = cost_value(role)
            ok = same(value, want)
            rule = f"cost: the {role.replace('_', ' ')} term of symattn.core.flops.cost_terms"
            both = cost_value("scores") + cost_value("weighted_sum")
            if not ok and role in ("scores", "weighted_sum") and same(value, both):
                # "the scores 2N²d": the scores with the weighted sum, as authors often say
                why = "the scores and the weighted sum together, named by one of them: not decided"
                add(Claim(line.number, text, UNCHECKED, None, why, [(start, end)]))
                continue
        else:
            hits = [r for r in ROLES if same(value, cost_value(r))]
            role = hits[0] if hits else nearest_role(value)
            ratio = sp.simplify(value / cost_value(role))
            other_count = re.search(r"two flops|2 flops|multiply and an add", au.doc.unit_text(line).lower())
            if not hits and (other_count or ratio.free_symbols):
                # another way of counting (a multiply-add as two FLOPs), or a sum of terms no
                # word names: not decided; a slip in a term's coefficient (5 N d² for the
                # projections' 4 N d²) is wrong
                why = "a cost its words do not tie to a term of symattn.core.flops.cost_terms"
                add(Claim(line.number, text, UNCHECKED, None, why, [(start, end)]))
                continue
            ok = bool(hits)
            want = cost_value(role)
            rule = f"cost: the {role.replace('_', ' ')} term of symattn.core.flops.cost_terms"
        add(Claim.judged(line.number, text, ok, Said(Math(want)), rule, [(start, end)]))


def head_width(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """d_k = d_model / h: "h = 8 and d_model = 512, so d_k = 64"."""
    m = re.search(
        r"⟨\s*h\s*=\s*(\d+)\s*⟩ and ⟨\s*d_model\s*=\s*(\d+)\s*⟩, so ⟨\s*d_k\s*=\s*(\d+)\s*⟩", line.text
    )
    if not m:
        return
    from ...core.flops import d_head

    value = d_head.subs({h: int(m.group(1)), d_model: int(m.group(2))})
    ok = value == int(m.group(3))
    covered.extend([m.span(1), m.span(2)])
    add(
        Claim.judged(
            line.number,
            m.group(0),
            ok,
            Said(Math(value)),
            r"multi-head: $d_k = d_{\text{model}} / h$ (symattn.core.flops)",
            [m.span(3)],
        )
    )


def heads_words(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """Head widths in words, from the module's h and d_model: "its own 64 features"."""
    if au.facts.heads is None:
        return
    from ...core.flops import d_head, total_cost

    heads, width = au.facts.heads
    per_head = d_head.subs({h: heads, d_model: width})
    for pattern, want, what in (
        (r"its own (\d+) features", per_head, r"d_{\text{model}} / h"),
        (r"combines all (\d+)", sp.Integer(width), r"h d_v = d_{\text{model}}"),
    ):
        for m in re.finditer(pattern, line.text):
            ok = want == int(m.group(1))
            add(
                Claim(
                    line.number,
                    m.group(0),
                    CERTIFIED if ok else WRONG,
                    Said(Math(want)),
                    rf"multi-head: ${what}$ with $h = {heads}$, $d_{{\text{{model}}}} = {width}$ "
                    "(symattn.core.flops)",
                    [m.span(1)],
                )
            )
    m = re.search(r"cost about the same as one head of width (\d+)", line.text)
    if m:
        ok = h not in total_cost().free_symbols and int(m.group(1)) == width
        add(
            Claim(
                line.number,
                m.group(0),
                CERTIFIED if ok else WRONG,
                Said(Math(total_cost())),
                "cost: the total of symattn.core.flops does not depend on h",
                [m.span(1)],
            )
        )


def growth(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "The first term grows with N, the second with N^2": degrees in N of the two terms."""
    m = re.search(r"first term grows with ⟨([^⟩]*)⟩, the second with ⟨([^⟩]*)⟩", line.text)
    if not m:
        return
    got = []
    for g in (1, 2):
        try:
            got.append(evaluate(calc.parse_chain(m.group(g))[0][0], {}))
        except Unreadable:
            return
    want = [sp.degree(cost_value(r), N) for r in ("linear", "quadratic")]
    ok = all(
        v is not None and sp.degree(substitute_heads(v), N) == w and substitute_heads(v).is_Pow | (w == 1)
        for v, w in zip(got, want, strict=True)
    )
    add(
        Claim(
            line.number,
            m.group(0),
            CERTIFIED if ok else WRONG,
            Said.join(", ", (Math(N ** sp.Integer(w)) for w in want)),
            "cost: degrees in $N$ of the $N d^2$ and $N^2 d$ terms (symattn.core.flops)",
            [m.span(2)],
        )
    )


ROLES = ("projections", "scores", "weighted_sum", "output_projection", "total", "quadratic", "linear")


def cost_value(role: str) -> sp.Expr:
    from ...core.flops import cost_terms, total_cost

    t = cost_terms()
    if role == "total":
        return total_cost()
    if role == "quadratic":
        return sp.expand(t["scores"] + t["weighted_sum"])
    if role == "linear":
        return sp.expand(t["projections"] + t["output_projection"])
    return sp.expand(t[role])


def nearest_role(value: sp.Expr) -> str:
    """The term with the same powers of N (a wrong coefficient), the closest coefficient
    first; else the total."""

    def shape(e: sp.Expr) -> set:
        return {m.as_powers_dict().get(N, 0) for m in sp.Add.make_args(sp.expand(e))}

    def size(e: sp.Expr) -> sp.Expr:
        return e.subs({N: 1, d_model: 1, h: 1})

    alike = [r for r in ROLES if shape(cost_value(r)) == shape(value)]
    if not alike:
        return "total"
    return min(alike, key=lambda r: abs(size(cost_value(r)) - size(value)))


def cost_role(before: str, formula: str) -> str | None:
    """Which cost term a formula states, from the words of its list item or its name."""
    if "FLOPs" in formula:
        return "total"
    item = before.lower()
    if not re.search(r"cost|flop|product|multipl|projection|weighted sum", item):
        return None
    last = item.rsplit("\n", 1)[-1]
    if re.search(r"scores", last) and re.search(r"weighted sum|\b(?:to|by) ⟨?v\b|values", last):
        return None  # both terms at once: not one term of cost_terms
    if re.search(r"two flops|2 flops|multiply and an add|multiply-add", item):
        return None  # another counting convention (a multiply-add as 2 FLOPs)
    for words, role in (
        (r"project(?:ing)? (?:the )?queries", "projections"),
        (r"output projection", "output_projection"),
        (r"weighted sum", "weighted_sum"),
        (r"scores", "scores"),
    ):
        if re.search(words, last):
            return role
    return None
