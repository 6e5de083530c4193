"""The proof engine: derivations as chains of checked steps.

A :class:`Derivation` is a list of :class:`Step` s. Each step states ``lhs = rhs`` (or an
inequality), the rule that justifies it, and is checked when the derivation is verified:

1. **exact**: SymPy proves the two sides equal for general symbols (a named normal form takes
   their difference to 0). Every exact claim is cross-checked at random rational points, so
   a wrong simplification cannot pass silently.
2. **exact at sizes**: a rule SymPy cannot derive for a symbolic width (linearity of
   expectation over d terms, the row-softmax permutation lemma, ...) is a named
   :class:`Lemma`. The step is then proved exactly at each concrete size the derivation
   lists, through the derivation's ``concrete`` interpretation (for example, expectations
   become ``sympy.stats`` computations over d actual random variables), and the lemma itself
   is checked at concrete sizes.
3. **numeric**: when neither succeeds but the sides agree at random points to 25 digits, the
   step is labelled numeric, never exact.

A step that is false raises :class:`StepFailed`, naming the derivation, the step and a
counterexample.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from itertools import product
from typing import Any

import sympy as sp

from .digits import decimal_string, round_decimal
from .equivalence import describe_point, numeric_difference, prove_equal
from .errors import EXIT_CHECK_FAILED, SymattnError

#: Largest relative difference at random points for two sides to count as equal.
TOLERANCE = 1e-25


class StepFailed(SymattnError):
    """Raised when a step of a derivation is false; the message gives a counterexample."""

    exit_code = EXIT_CHECK_FAILED


class LemmaFailed(SymattnError):
    """Raised when a lemma fails its check at a concrete size."""

    exit_code = EXIT_CHECK_FAILED


@dataclass(frozen=True)
class Lemma:
    """A general rule checked at concrete sizes, where SymPy cannot prove it in general.

    ``verify(n)`` returns True when the rule holds exactly at size n.
    """

    name: str
    statement: str
    verify: Callable[[int], bool] = field(compare=False, repr=False)
    sizes: tuple[int, ...] = (1, 2, 3)

    def check(self) -> tuple[int, ...]:
        """Check the lemma at every size (once per process); return the sizes."""
        return _check_lemma(self)

    def step_check(self, at: str, named: bool = True) -> Callable[[Any, Any], tuple[str, str]]:
        """A ``Step.check`` for a step that is an instance of this lemma as a whole.

        The step is exact at the lemma's sizes; ``at`` introduces them in the label
        ("at n =" gives "at n = 2, 3, 4"), followed by the lemma's name when ``named``.
        """

        def run(lhs: Any, rhs: Any) -> tuple[str, str]:
            detail = f"{at} " + ", ".join(map(str, self.check()))
            return "exact at sizes", detail + (f" ({self.name})" if named else "")

        return run


@cache
def _check_lemma(lemma: Lemma) -> tuple[int, ...]:
    for n in lemma.sizes:
        if not lemma.verify(n):
            raise LemmaFailed(f"lemma '{lemma.name}' is false at size {n}")
    return lemma.sizes


@dataclass(frozen=True)
class Step:
    """One line of a derivation: ``lhs relation rhs``, justified by ``rule``.

    ``lhs`` None continues the chain from the previous right-hand side. ``relation`` is one
    of ``=``, ``<=``, ``<``; an inequality needs a ``certificate`` c with rhs - lhs = c
    exactly and c >= 0 (c > 0 for ``<``) by SymPy's assumptions. ``check`` replaces the
    standard check for steps of another kind (solving an inequality, a finite enumeration);
    it returns (method, detail) or raises :class:`StepFailed`.
    """

    lhs: Any
    rhs: Any
    rule: str
    relation: str = "="
    lemma: Lemma | None = None
    certificate: Any = None
    check: Callable[[Any, Any], tuple[str, str]] | None = None
    sizes: tuple[int, ...] | None = None
    digits: int | None = None
    shown_lhs: Any = None  # how to show a side, where the checked form is long
    shown_rhs: Any = None
    section: str = ""


@dataclass(frozen=True)
class StepReport:
    index: int
    step: Step
    lhs: Any
    method: str  # "exact", "exact at sizes", "numeric"
    detail: str
    error: float
    seconds: float

    @property
    def exact(self) -> bool:
        """Proved (for general symbols, at every listed size, or by certified rounding)."""
        return self.method != "numeric"


@dataclass(frozen=True)
class CheckReport:
    """A numeric cross-check of a derivation: lambdified NumPy against exact values."""

    name: str
    error: float
    tolerance: float
    seconds: float

    @property
    def ok(self) -> bool:
        return self.error <= self.tolerance


@dataclass(frozen=True)
class NumericCheck:
    name: str
    run: Callable[[], tuple[float, float]]  # returns (largest error, tolerance)


@dataclass
class DerivationReport:
    name: str
    steps: list[StepReport]
    checks: list[CheckReport]
    lemmas: list[tuple[Lemma, tuple[int, ...]]]
    seconds: float
    derivation: Derivation | None = None

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def _repr_markdown_(self) -> str:  # Jupyter
        from .proof_render import to_markdown

        return to_markdown(self.derivation, self) if self.derivation else f"**{self.name}**"

    def _repr_latex_(self) -> str:  # Jupyter and other LaTeX-aware front ends
        from .proof_render import to_latex_block

        return to_latex_block(self.derivation, self) if self.derivation else self.name

    @property
    def exact_steps(self) -> int:
        return sum(r.exact for r in self.steps)

    @property
    def numeric_steps(self) -> int:
        return sum(not r.exact for r in self.steps)

    @property
    def max_error(self) -> float:
        return max([r.error for r in self.steps] + [c.error for c in self.checks], default=0.0)


@dataclass
class Derivation:
    """A theorem and the chain of steps that proves it.

    ``concrete(expr, n)`` rewrites an expression at size n into one SymPy can evaluate (for
    lemma steps); ``sizes`` are the sizes used; ``sample(rng)`` fixes some symbols at random
    points, given the concrete size or None (for example the indices i, j within 1..n).
    """

    name: str
    title: str
    theorem: str
    assumptions: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    checks: list[NumericCheck] = field(default_factory=list)
    concrete: Callable[[Any, int], Any] | None = None
    sizes: tuple[int, ...] = (1, 2, 3)
    sample: Callable[[random.Random, int | None], Mapping[sp.Basic, Any]] | None = None
    indices: tuple[sp.Symbol, ...] = ()
    seed: int = 0
    _section: str = ""

    # -- building -------------------------------------------------------------------------
    def section(self, title: str) -> Derivation:
        """Start a new part of the proof; following steps are shown under ``title``."""
        self._section = title
        return self

    def step(self, lhs: Any, rhs: Any, rule: str, **kw: Any) -> Derivation:
        """Add ``lhs = rhs`` (or another relation) justified by ``rule``."""
        self.steps.append(Step(lhs, rhs, rule, section=self._section, **kw))
        return self

    def then(self, rhs: Any, rule: str, **kw: Any) -> Derivation:
        """Continue the chain: previous right-hand side ``= rhs``."""
        return self.step(None, rhs, rule, **kw)

    def approx(self, expr: Any, stated: str, context: str, digits: int) -> Derivation:
        """A figure the module states: ``expr`` is ``stated`` to ``digits`` significant digits.

        Checked by correct rounding (:func:`symattn.digits.decimal_string`), so the figure
        must be exactly the rounded value, not merely close to it.
        """
        return self.step(expr, stated, context, relation="≈", digits=digits)

    def numeric_check(self, name: str, run: Callable[[], tuple[float, float]]) -> Derivation:
        self.checks.append(NumericCheck(name, run))
        return self

    # -- checking -------------------------------------------------------------------------
    def lhs_of(self, index: int) -> Any:
        """The left-hand side of step ``index`` (following continuation steps back)."""
        step = self.steps[index]
        if step.lhs is not None:
            return step.lhs
        if index == 0:
            raise ValueError("the first step needs a left-hand side")
        return self.steps[index - 1].rhs

    def verify(self) -> DerivationReport:
        """Check every lemma, step and numeric check; raise on the first false step."""
        start = time.perf_counter()
        rng = random.Random(self.seed)
        lemmas = []
        for lemma in dict.fromkeys(s.lemma for s in self.steps if s.lemma):
            lemmas.append((lemma, lemma.check()))
        reports = [self._verify_step(i, rng) for i in range(len(self.steps))]
        checks = []
        for c in self.checks:
            t = time.perf_counter()
            err, tol = c.run()
            checks.append(CheckReport(c.name, float(err), float(tol), time.perf_counter() - t))
        seconds = time.perf_counter() - start
        return DerivationReport(self.name, reports, checks, lemmas, seconds, self)

    def _fail(self, index: int, why: str) -> StepFailed:
        step = self.steps[index]
        return StepFailed(f"{self.name}, step {index + 1} ({step.rule}): {why}")

    def _verify_step(self, index: int, rng: random.Random) -> StepReport:
        t = time.perf_counter()
        step = self.steps[index]
        lhs, rhs = self.lhs_of(index), step.rhs
        if step.check is not None:
            method, detail = step.check(lhs, rhs)
            error = 0.0
        elif step.relation == "=":
            method, detail, error = self._check_equal(index, lhs, rhs, rng)
        elif step.relation == "≈":
            method, detail, error = self._check_figure(index, lhs, rhs)
        elif step.relation == "≠":
            method, detail, error = self._check_different(index, lhs, rhs)
        else:
            method, detail, error = self._check_inequality(index, lhs, rhs, rng)
        return StepReport(index, step, lhs, method, detail, error, time.perf_counter() - t)

    def _cross_check(self, index: int, a: Any, b: Any, rng: random.Random, size: int | None = None) -> float:
        """Compare the two sides at random points; ``a`` and ``b`` are already at ``size``."""
        sample = self.sample
        fixed = (lambda r: sample(r, size)) if sample else None
        err, point, va, vb = numeric_difference(a, b, rng, fixed=fixed)
        if err > TOLERANCE:
            at = f" at size {size}" if size else ""
            raise self._fail(
                index,
                f"the two sides differ{at}: at {describe_point(point)}, "
                f"left = {_short(va)}, right = {_short(vb)}",
            )
        return err

    def _needs_sizes(self, lhs: Any, rhs: Any) -> bool:
        return self.concrete is not None and any(self.concrete(x, self.sizes[0]) != x for x in (lhs, rhs))

    def _check_equal(self, index: int, lhs: Any, rhs: Any, rng: random.Random):
        step = self.steps[index]
        sizes = step.sizes or self.sizes
        method = prove_equal(lhs, rhs)
        if method is not None:
            if not self._needs_sizes(lhs, rhs):
                return "exact", method, self._cross_check(index, lhs, rhs, rng)
            err = max(
                self._cross_check(index, self.concrete(lhs, n), self.concrete(rhs, n), rng, n) for n in sizes
            )
            return "exact", method, err
        if self.concrete is not None:
            errors, proved = [], []
            for n in sizes:
                a, b = self.concrete(lhs, n), self.concrete(rhs, n)
                errors.append(self._cross_check(index, a, b, rng, n))
                if all(prove_equal(a.subs(v), b.subs(v)) is not None for v in self._indices(a, b, n)):
                    proved.append(n)
            if len(proved) == len(sizes):
                detail = "at sizes " + ", ".join(map(str, proved))
                if step.lemma:
                    detail += f" (lemma: {step.lemma.name})"
                return "exact at sizes", detail, max(errors)
            return "numeric", "random points at sizes " + ", ".join(map(str, sizes)), max(errors)
        err = self._cross_check(index, lhs, rhs, rng)
        return "numeric", "random points", err

    def _check_figure(self, index: int, expr: Any, stated: str):
        digits = self.steps[index].digits or len(stated.replace("-", "").replace(".", ""))
        value = decimal_string(sp.sympify(expr), digits)
        if value != stated:
            raise self._fail(index, f"the figure {stated} is wrong: correctly rounded, {value}")
        return "certified", f"correctly rounded to {digits} digits", 0.0

    def _indices(self, a: Any, b: Any, n: int) -> list[dict[sp.Symbol, int]]:
        """Every assignment of the free index symbols (``indices``) to 1..n."""
        free = [s for s in self.indices if s in _free_of(a) | _free_of(b)]
        return [dict(zip(free, values, strict=True)) for values in product(range(1, n + 1), repeat=len(free))]

    def _check_different(self, index: int, lhs: Any, rhs: Any):
        """A counterexample: some entry of lhs - rhs is certified nonzero."""
        a, b = sp.Matrix(sp.sympify(lhs)), sp.Matrix(sp.sympify(rhs))
        if a.shape != b.shape:
            return "exact", f"shapes differ: {a.shape} vs {b.shape}", 0.0
        for pos, diff in enumerate(a - b):
            if diff == 0:
                continue
            try:
                value = round_decimal(diff, 5)
            except SymattnError:
                continue
            if value != 0:
                row, col = divmod(pos, a.cols)
                return "certified", f"entry ({row + 1}, {col + 1}) differs by {value}", 0.0
        raise self._fail(index, "no entry is certified to differ: the sides may be equal")

    def _check_inequality(self, index: int, lhs: Any, rhs: Any, rng: random.Random):
        step = self.steps[index]
        if step.certificate is None:
            raise self._fail(index, "an inequality step needs a certificate")
        gap = sp.sympify(rhs) - sp.sympify(lhs)
        if prove_equal(gap, step.certificate) is None:
            try:
                self._cross_check(index, gap, step.certificate, rng)
            except StepFailed as exc:
                detail = str(exc).split(": ", 1)[1]
                raise self._fail(index, f"right - left is not the certificate ({detail})") from None
            raise self._fail(index, "right - left is not provably the certificate")
        sign = step.certificate.is_positive if step.relation == "<" else (step.certificate.is_nonnegative)
        if not sign:
            raise self._fail(index, f"cannot show {sp.sstr(step.certificate)} has the right sign")
        err = self._cross_check(index, gap, step.certificate, rng)
        return "exact", "certificate " + sp.sstr(step.certificate), err


def _free_of(e: Any) -> set[sp.Basic]:
    return set(e.free_symbols) if hasattr(e, "free_symbols") else set()


def _short(v: Any) -> str:
    text = sp.sstr(sp.N(v, 12)) if not isinstance(v, sp.MatrixBase) else sp.sstr(v.evalf(8))
    return text if len(text) < 120 else text[:117] + "..."
