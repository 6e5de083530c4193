"""Fuzzing the judge: 5,000 generated answers (a grammar, plus byte noise), fixed seed.

Asserted for every string: no exception escapes, no call exceeds the time limit, and nothing
is judged correct unless an independent mpmath evaluation (50 digits, plain mpmath, not the
judge's interval code) of what was read agrees with the expected answer.

The strings are judged in one limited worker (``isolated``), one after another, each under
its own alarm: a fork per string would take minutes, and the test process keeps
latex2sympy2 untouched. A sample also runs through :func:`judge` itself, one worker each.
"""

from __future__ import annotations

import random
import signal
import time

import mpmath
import pytest
import sympy as sp

from symattn.grading.answers.judge import TIMEOUT, judge, judge_text
from symattn.grading.answers.notation import InvalidAnswer, precheck
from symattn.grading.exercises import get
from symattn.grading.worker import isolated

SEED = 20261130
COUNT = 5000
EX = {k: get(k) for k in ("ex6.2", "ex6.4", "ex6.5")}
with mpmath.workdps(50):
    TARGET62 = (mpmath.e**2 + 11) / (mpmath.e**2 + 2)


def _number(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.4:
        return f"{1.9586 + rng.uniform(-0.03, 0.03):.{rng.randint(1, 5)}f}"
    if pick < 0.55:
        return str(rng.randint(-20, 9000))
    if pick < 0.7:
        return rng.choice(["8192", "4096", "8193", "2", "4", "1", "0", "18.39", "0.787"])
    if pick < 0.8:
        return rng.choice([r"\infty", r"-\infty", "e", r"\pi", "N", "x", r"\lambda", "d_{model}"])
    return f"{rng.randint(0, 99)}.{rng.randint(0, 9999)}"


def _expr(rng: random.Random, depth: int = 0) -> str:
    if depth > 1 or rng.random() < 0.4:
        return _number(rng)
    a, b = _expr(rng, depth + 1), _expr(rng, depth + 1)
    forms = [
        f"{a} + {b}",
        f"{a} - {b}",
        rf"{a} \cdot {b}",
        rf"\frac{{{a}}}{{{b}}}",
        rf"\sqrt{{{a}}}",
        f"{a}^{{{rng.randint(-3, 4)}}}",
        f"e^{{{a}}}",
        rf"\left({a}\right)",
        rf"|{a}|",
        rf"\max({a}, {b})",
        rf"\ln({a})",
        rf"10^{{{rng.randint(-5, 30)}}}",
        f"{a}e{rng.randint(-3, 3)}",
    ]
    return rng.choice(forms)


def _answer_like(rng: random.Random, ex: str) -> str:
    """Forms close to each exercise's answer, so that many are correct and many nearly so."""
    if ex == "ex6.2":
        x = f"{1.9586 + rng.uniform(-0.02, 0.02):.{rng.randint(2, 5)}f}"
        closed = rf"\frac{{e^{{2}}+11}}{{e^{{2}}+{rng.choice(['2', '2.0', '3', '2 + 0', '1 + 1'])}}}"
        return rng.choice(
            [x, closed, rf"{closed} \approx {x}", f"{x}e0", rf"\boxed{{{x}}}", f"= {x}", f"${x}$."]
        )
    if ex == "ex6.5":
        c = rng.choice([8191, 8192, 8193, 4096, 16384])
        rel = rng.choice([">", r"\geq", "<", r"\neq", "=", r"\gt"])
        return rng.choice(
            [
                f"N {rel} {c}",
                f"{c} < N",
                f"N - {c} {rel} 0",
                rf"\frac{{N}}{{2}} {rel} {c / 2:g}",
                f"-N < -{c}",
                rf"1 > \frac{{{c}}}{{N}}",
                f"N^2 {rel} {c}^2",
                rf"N \in ({c}, \infty)",
                rf"{c} < N < \infty",
                rf"N > 2 d_{{model}} = {c}",
                str(c),
            ]
        )
    return _matrix(rng, 3)


def _matrix(rng: random.Random, n: int | None = None) -> str:
    n = n or rng.randint(1, 4)
    causal = rng.random() < 0.5
    cells = [
        [
            ("0" if j <= i else r"-\infty")
            if causal and rng.random() < 0.9
            else rng.choice(["0", r"-\infty", "1", r"-\infty + 5", r"\infty", "x"])
            for j in range(n)
        ]
        for i in range(n)
    ]
    body = r" \\ ".join(" & ".join(r) for r in cells)
    env = rng.choice(["bmatrix", "pmatrix", "array", "vmatrix"])
    spec = "{" + "c" * n + "}" if env == "array" else ""
    post = rng.choice(["", "", "^T", "^{T^T}"])
    return rf"{rng.choice(['', '', '-', '2'])}\begin{{{env}}}{spec} {body} \end{{{env}}}{post}"


def _grammar(rng: random.Random, ex: str) -> str:
    pick = rng.random()
    if pick < 0.45:
        text = _answer_like(rng, ex)
    elif pick < 0.8:
        text = _expr(rng)
    elif pick < 0.9:
        rel = rng.choice(["<", ">", r"\geq", r"\leq", "=", r"\neq", r"\approx", r"\gt"])
        text = f"{_expr(rng, 1)} {rel} {_expr(rng, 1)}"
    else:
        text = _matrix(rng)
    wrap = rng.random()
    if wrap < 0.05:
        text = f"${text}$"
    elif wrap < 0.1:
        text = text + "."
    return text


_NOISE = [
    *"0123456789+-*/^_{}()[]<>=.,;:!|&~$%'\\ \t\nabcdeNxz",
    "\u2212",
    "\u221e",
    "\x00",
    "\u00e9",
    "\U0001f600",
]


def _noise(rng: random.Random, base: str) -> str:
    chars = list(base)
    for _ in range(rng.randint(1, 6)):
        op = rng.random()
        pos = rng.randint(0, len(chars))
        if op < 0.4:
            chars.insert(pos, rng.choice(_NOISE))
        elif op < 0.7 and chars:
            del chars[min(pos, len(chars) - 1)]
        elif chars:
            chars[min(pos, len(chars) - 1)] = rng.choice(_NOISE)
    if rng.random() < 0.05:
        return "".join(chr(rng.randint(1, 0x2FF)) for _ in range(rng.randint(1, 30)))
    return "".join(chars)


def strings() -> list[tuple[str, str]]:
    rng = random.Random(SEED)
    out = []
    for i in range(COUNT):
        ex = rng.choice(["ex6.2", "ex6.2", "ex6.5", "ex6.4"])
        text = _grammar(rng, ex)
        if i % 2:
            text = _noise(rng, text)
        out.append((ex, text))
    return out


class _Alarm(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Alarm


def _judge_all(cases: list[tuple[str, str]]) -> list[tuple[str, float, dict | None, str]]:
    """In the worker: precheck and judge_text each case under its own alarm."""
    signal.signal(signal.SIGALRM, _on_alarm)
    results = []
    for ex_id, raw in cases:
        ex = EX[ex_id]
        start = time.monotonic()
        extra = None
        try:
            signal.setitimer(signal.ITIMER_REAL, TIMEOUT)
            try:
                text = precheck(raw)
            except InvalidAnswer:
                verdict = "invalid"
            else:
                v = judge_text(text, ex.expected, ex.mistakes)
                verdict, extra = v.verdict, (v.extra if v.verdict == "correct" else None)
        except _Alarm:
            verdict = "timeout"
        except Exception as exc:  # the judge's own errors (LatexError) are invalid answers
            from symattn.errors import SymattnError

            verdict = "invalid" if isinstance(exc, SymattnError) else f"escaped {type(exc).__name__}: {exc}"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        results.append((verdict, time.monotonic() - start, extra, raw))
    return results


#: One worker runs this module, so its costly module fixture is computed once, not once
#: per worker (CI runs with --dist loadgroup).
#: The 5,000 strings are the first run's (CI's second run, on the newest Python, judges the
#: answer bank's sample, the form bank, the judge's own tests and the bounds fuzz instead).
pytestmark = [pytest.mark.xdist_group("judge_fuzz"), pytest.mark.exhaustive]


@pytest.fixture(scope="module")
def fuzzed():
    cases = strings()
    results = []
    for start in range(0, len(cases), 500):  # a fresh worker per 500 strings
        results += isolated(
            _judge_all, cases[start : start + 500], timeout=900, memory_mb=1000, cpu_seconds=900, plain=False
        )
    return cases, results


def test_no_exception_escapes_and_no_call_is_slow(fuzzed):
    """Every one of the 5,000 strings gets a verdict: none escapes, and none outlives the time limit
    (its alarm would make the verdict "timeout"; bench/limits.py times the calls)."""
    _, results = fuzzed
    assert len(results) == COUNT
    escaped = [(raw, v) for v, _, _, raw in results if v not in ("correct", "incorrect", "invalid")]
    assert escaped == []
    verdicts = {v for v, _, _, _ in results}
    assert verdicts == {"correct", "incorrect", "invalid"}  # the grammar reaches every verdict


def _mp(value: sp.Expr) -> mpmath.mpf:
    with mpmath.workdps(50):
        return +mpmath.mpmathify(sp.lambdify([], value, modules="mpmath")())


def test_nothing_is_correct_unless_mpmath_agrees(fuzzed):
    """Every 'correct' is re-evaluated with plain mpmath at 50 digits and must agree."""
    cases, results = fuzzed
    checked = 0
    for (ex_id, raw), (verdict, _, extra, _) in zip(cases, results, strict=True):
        if verdict != "correct":
            continue
        checked += 1
        if ex_id == "ex6.2":
            got = _mp(
                extra["value"] if not isinstance(extra["value"], sp.MatrixBase) else extra["value"][0, 0]
            )
            assert abs(got - TARGET62) <= mpmath.mpf("0.01"), raw
        elif ex_id == "ex6.4":
            m = extra["value"]
            assert m.shape == (3, 3), raw
            for i in range(3):
                for j in range(3):
                    x = sp.sympify(m[i, j]).doit()
                    assert (x == -sp.oo) if j > i else abs(_mp(x)) == 0, raw
        elif "value" in extra:
            assert (
                _mp(extra["value"].xreplace({sp.Symbol("d_{model}"): 4096, sp.Symbol("d"): 4096})) == 8192
            ), raw
        else:
            var = extra["variable"]
            for n, inside in ((8192, False), (8193, True), (10**6, True), (1, False)):
                holds = []
                for lhs, rel, rhs in extra["relations"]:
                    a, b = _mp(lhs.xreplace({var: n})), _mp(rhs.xreplace({var: n}))
                    holds.append({"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[rel])
                assert all(holds) == inside, (raw, n)
    assert checked == 394  # the correct answers among the 5,000, measured: a drop of one fails


def test_a_sample_through_the_full_judge(fuzzed):
    """A sample of 150 strings through judge() (one worker each) gets the same verdicts."""
    cases, results = fuzzed
    rng = random.Random(SEED + 1)
    for i in rng.sample(range(COUNT), 150):
        ex_id, raw = cases[i]
        v = judge(raw, EX[ex_id].expected, EX[ex_id].mistakes)
        assert v.verdict == results[i][0], raw
