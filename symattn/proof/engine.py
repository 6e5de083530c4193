"""The proof engine: derivations as chains of checked steps.

A :class:`Derivation` is a list of :class:`Step` s. Each step states ``lhs = rhs`` (or another
relation), the rule that justifies it, and **declares how it is proved**. The declared method
is the method: when it fails the step fails, naming its number, its rule and a counterexample
where one exists. There is no fallback from one method to a weaker one.

- ``symbolic``: SymPy proves the step's two sides equal for general symbols and sizes (a named
  normal form takes their difference to 0; expectations are first reduced by the rule system
  of :mod:`symattn.proof.expectation`; a ``check`` procedure may solve an inequality). Every
  symbolic claim is cross-checked at random points evaluated to 60 digits.
- ``at sizes``: for a rule whose general form SymPy cannot prove (rank n - 1, all N!
  permutations), the step names a :class:`Lemma`; the step's *own* two sides are proved equal
  exactly at each of at least four sizes, and the lemma is checked too. The sizes are printed.
- ``definition``: the step introduces a name; the definition is substituted into both sides
  and the result is proved symbolically.
- ``certified``: a figure the module states is the correctly rounded value, or a
  counterexample is certified to differ.
- ``numeric``: agreement at random points only. Allowed only where the derivation says so
  (``numeric_allowed``); otherwise such a step fails ``verify``.

A step whose two sides are structurally identical is refused: a step must do something.

The engine is one idea per module: this one holds the model and its builder (:class:`Derivation`,
its steps, claims and checks, and how its verifying is split into tasks and assembled);
:mod:`.records` the steps and reports, :mod:`.failures` the errors, :mod:`.lemma` the lemmas,
:mod:`.lemma_cache` their cache on disk, :mod:`.checks` how each step and claim is proved (with
:mod:`.sides`' helpers), :mod:`.naming` the checks of what a step shows, and :mod:`.parallel`
the verifying in forked workers. Every name is exported here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from .._text import exception_line as _why
from ..errors import SymattnError
from . import shown as _shown
from . import words as _words
from .checks import LARGE_SIZE, METHODS, MIN_SIZES, WAIVERS, StepChecks
from .equivalence import (
    INDEX_RANGES,
)
from .failures import (
    _FAILURES,
    NO_CLAIMS,
    LemmaFailed,
    RenderingFailed,
    StatementFailed,
    StepFailed,
)
from .lemma import _CHECKED, Lemma, _check_lemma_at
from .lemma_cache import source_digest
from .naming import NAME, ShownChecks
from .parallel import default_jobs, verify_many
from .records import CheckReport, DerivationReport, NumericCheck, Step, StepReport
from .shown import NotShownAsChecked
from .sides import TOLERANCE, _plain

#: What the engine's modules define, exported here (``symattn.proof`` exports the public ones).
__all__ = [
    "LARGE_SIZE",
    "METHODS",
    "MIN_SIZES",
    "NAME",
    "NO_CLAIMS",
    "TOLERANCE",
    "WAIVERS",
    "CheckReport",
    "Derivation",
    "DerivationReport",
    "Lemma",
    "LemmaFailed",
    "NumericCheck",
    "RenderingFailed",
    "StatementFailed",
    "Step",
    "StepFailed",
    "StepReport",
    "default_jobs",
    "source_digest",
    "verify_many",
]

#: The checks that what a page shows is what was checked (:mod:`.shown`), in the order of
#: their tasks: (what, check).
SHOWN: tuple[tuple[str, Callable[[Derivation], str], type[StepFailed]], ...] = (
    ("the prose's formulas", lambda d: _shown.check_statements(d, d.reduce_expectations), StatementFailed),
    ("the printed formulas", lambda d: _shown.check_rendering(d), RenderingFailed),
    ("the assumptions", lambda d: _shown.check_assumptions(d), StatementFailed),
    ("the theorem's words", lambda d: _words.check_words(d, _shown.words_vocabulary(d)), StatementFailed),
)



@dataclass
class Derivation(StepChecks, ShownChecks):
    """A theorem, the claims it makes, and the chain of steps that proves them.

    ``claims`` are (lhs, rhs) pairs the theorem states: each must be what some chain of the
    proof establishes (its first left-hand side and one of its right-hand sides), so a
    theorem cannot claim more than the steps prove. ``expectation`` reduces E[...] and
    Var(...) by checked rules (:mod:`symattn.proof.expectation`); it declares the random
    families it integrates (``random``, IndexedBases), and no side may depend on one of them
    once the expectations are taken. ``concrete(expr, n)`` rewrites an
    expression at size n into one SymPy can evaluate, for steps proved at sizes and for
    cross-checks; ``sample(rng, n)`` fixes some symbols at random points (the indices i, j
    within 1..n, say).
    """

    name: str
    title: str
    theorem: str
    assumptions: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    checks: list[NumericCheck] = field(default_factory=list)
    claims: list[tuple[Any, Any]] = field(default_factory=list)
    expectation: Any = None
    concrete: Callable[[Any, int], Any] | None = None
    sizes: tuple[int, ...] = (1, 2, 3)
    cross_sizes: tuple[int, ...] = ()
    sample: Callable[[random.Random, int | None], Mapping[sp.Basic, Any]] | None = None
    indices: tuple[sp.Symbol, ...] = ()
    #: The range of each index (index -> (low, high)), which the assumptions must show: a
    #: Kronecker delta is summed out only where these prove its index lies in the sum's range.
    #: A derivation symattn publishes has them even when empty (no delta is then assumed in range).
    ranges: Mapping[sp.Symbol, tuple[Any, Any]] = field(default_factory=dict)
    numeric_allowed: bool = False
    #: Short names a step may show in place of what they stand for: a Symbol or a MatrixSymbol
    #: -> its expression (``Q`` for a matrix of numbers, say), or an IndexedBase -> a function
    #: of the index (``p_i`` for e^{z_i} / sum_k e^{z_k}, say).
    abbreviations: Mapping[Any, Any] = field(default_factory=dict)
    seed: int = 0
    #: Every lemma the derivation's module defines (``derivations.load`` finds them): each
    #: must justify some step, or it is a rule shown beside the proof but never checked.
    declared_lemmas: tuple[Lemma, ...] = ()
    #: Set for every derivation symattn publishes (``derivations.load``: the module's and the
    #: registered ones; an exercise's worked solution): its theorem must be stated as claims.
    requires_claims: bool = False
    points: int = 6
    #: Formulas of the prose (``$...$`` in the theorem, a rule ...) that verify reads but does
    #: not hold to the relations they write, each with why (a definition in words, a condition):
    #: ``verify`` reports how many, and fails on one that it establishes after all or that no
    #: text writes. Every other formula's relations must be established (:mod:`.shown`).
    unchecked: Mapping[str, str] = field(default_factory=dict)
    #: What an operator the prose writes means, by its name (``Attention``): a function of the
    #: operator's arguments, so that a statement written with it is read as the claim it makes.
    operators: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    #: How the pages print a step's side (None: :func:`symattn.proof.latex.side_latex`);
    #: ``verify`` reads what it prints back (a planted printer error replaces it).
    printer: Callable[[Any], str] | None = None
    #: The properties the theorem states in words, each with the place in ``claims`` of the
    #: claim it stands for (``claim(..., words="symmetric")``); :mod:`.words` checks its form.
    words: list[tuple[str, int]] = field(default_factory=list)
    _section: str = ""

    # -- building -------------------------------------------------------------------------
    def section(self, title: str) -> Derivation:
        """Start a new part of the proof; following steps are shown under ``title``."""
        self._section = title
        return self

    def step(self, lhs: Any, rhs: Any, rule: str, **kw: Any) -> Derivation:
        """Add ``lhs = rhs`` (or another relation) justified by ``rule``.

        The method defaults to ``symbolic``, and to ``certified`` for a stated figure (``≈``)
        or a counterexample (``≠``).
        """
        if kw.get("relation") in ("≈", "≠"):
            kw.setdefault("method", "certified")
        self.steps.append(Step(lhs, rhs, rule, section=self._section, **kw))
        return self

    def then(self, rhs: Any, rule: str, **kw: Any) -> Derivation:
        """Continue the chain: previous right-hand side ``= rhs``."""
        return self.step(None, rhs, rule, **kw)

    def approx(self, expr: Any, stated: str, context: str, digits: int) -> Derivation:
        """A figure the module states: ``expr`` is ``stated`` to ``digits`` significant digits.

        Checked by correct rounding (:func:`symattn.core.digits.decimal_string`), so the figure
        must be exactly the rounded value, not merely close to it.
        """
        return self.step(expr, stated, context, relation="≈", digits=digits)

    def claim(self, lhs: Any, rhs: Any, relation: str = "=", words: str | None = None) -> Derivation:
        """The theorem states ``lhs = rhs``: some chain of the proof must establish it. With
        another ``relation`` (``<=``, ``⟺``, ``≠``), a step with that relation must state it
        (an inequality's side may be the start of a chain that reaches the step's side).
        ``words``: the property the theorem states in words that this claim stands for
        ("positive semidefinite"; :mod:`.words`)."""
        self.claims.append((lhs, rhs) if relation == "=" else (lhs, rhs, relation))
        if words is not None:
            self.words.append((words, len(self.claims) - 1))
        return self

    def numeric_check(
        self, name: str, run: Callable[[], tuple[float, float]], cost: float = 0.5
    ) -> Derivation:
        """A numeric cross-check: ``run()`` returns (largest error, tolerance); ``cost`` is a
        rough time in seconds, used only to start the costliest work first."""
        self.checks.append(NumericCheck(name, run, cost))
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

    def verify(self, jobs: int = 1, isolate: bool = False) -> DerivationReport:
        """Check every lemma, step, claim and numeric check; raise on the first failure.

        With ``jobs`` > 1 (or ``isolate``) the lemmas, steps and numeric checks run in that many
        forked worker processes (:func:`verify_many`), so that a check that ends its process is
        a failure like any other; the report and the first failure are the same.
        """
        if jobs > 1 or isolate:
            result = next(verify_many([self], jobs))
            if isinstance(result, SymattnError):
                raise result
            return result
        start = time.perf_counter()
        results = []
        for kind, key in self.tasks():
            results.append(self.run_task(kind, key))
            if results[-1][0] == "failed" and kind not in ("check", "claims"):
                break  # the first failure is the one reported; the rest need not run
        else:
            return self.assemble(results, time.perf_counter() - start)
        raise _FAILURES.get(results[-1][1], StepFailed)(results[-1][2])

    # -- the work, as independent tasks ----------------------------------------------------
    def lemmas(self) -> list[Lemma]:
        # By identity: two lemmas alike in name, statement and sizes but with different bodies
        # are two lemmas, each checked.
        return list({id(s.lemma): s.lemma for s in self.steps if s.lemma}.values())

    def tasks(self) -> list[tuple[str, int]]:
        """The independent pieces of ``verify``: every lemma at every size, every step, what is
        shown, the theorem's claims, every check."""
        sized = [("lemma", k) for k in range(len(self._lemma_sizes()))]
        steps = [("step", i) for i in range(len(self.steps))]
        shown = [("shown", k) for k in range(len(SHOWN))]
        return sized + steps + shown + [("claims", 0)] + [("check", c) for c in range(len(self.checks))]

    def groups(self) -> list[list[tuple[str, int]]]:
        """The tasks, in groups that each run in turn in one worker, costliest group first.

        Tasks that evaluate the same model run together, so the second finds what the first
        computed in the model's caches and SymPy's: a step at sizes that continues a step at
        sizes (the side between them is evaluated by both), and a step at sizes with its own
        model, after the largest size of its lemma (which evaluates that model too). Every
        other task is a group of its own.
        """
        tasks = self.tasks()
        group: dict[tuple[str, int], int] = {task: g for g, task in enumerate(tasks)}
        sized = self._lemma_sizes()
        for k, step in enumerate(self.steps):
            if step.method != "at sizes":
                continue
            if step.lhs is None and k > 0 and self.steps[k - 1].method == "at sizes":
                group[("step", k)] = group[("step", k - 1)]
            elif step.concrete is not None and step.lemma is not None:
                largest = max(
                    (key for key, (lemma, _) in enumerate(sized) if lemma is step.lemma),
                    key=lambda key: sized[key][1],
                    default=None,
                )
                if largest is not None:
                    group[("step", k)] = group[("lemma", largest)]
        together: dict[int, list[tuple[str, int]]] = {}
        for task in tasks:
            together.setdefault(group[task], []).append(task)
        return sorted(together.values(), key=lambda g: -sum(self.cost(*task) for task in g))

    def cost(self, kind: str, key: int) -> float:
        """A task's rough cost in seconds: a lemma's, check's or step's own estimate; else a
        step proved at sizes evaluates a model at every size, like a lemma; other steps are quick."""
        if kind == "lemma":
            return self._lemma_sizes()[key][0].cost
        if kind == "check":
            return self.checks[key].cost
        if kind in ("shown", "claims"):
            return 0.3
        step = self.steps[key]
        if step.cost is not None:
            return step.cost
        return 0.5 if step.method == "at sizes" else 0.05

    def _lemma_sizes(self) -> list[tuple[Lemma, int]]:
        return [(lemma, n) for lemma in self.lemmas() for n in lemma.sizes]

    def run_task(self, kind: str, key: int) -> tuple:
        """Run one task; return its result as plain data, or ("failed", kind of error, message).
        Its Kronecker deltas are summed out within the derivation's declared ranges
        (:data:`~symattn.proof.equivalence.INDEX_RANGES`), for a derivation symattn publishes or
        one that declares ranges."""
        ranges = self.ranges if (self.requires_claims or self.ranges) else None
        token = INDEX_RANGES.set(ranges)
        try:
            return self._run_task(kind, key)
        finally:
            INDEX_RANGES.reset(token)

    def _run_task(self, kind: str, key: int) -> tuple:
        try:
            if kind == "lemma":
                try:
                    _check_lemma_at(*self._lemma_sizes()[key])
                except LemmaFailed as exc:  # named with its derivation, like every other failure
                    raise LemmaFailed(f"{self.name}: {exc}") from None
                return ("ok",)
            if kind == "step":
                # Each step draws its random points from its own seed, so that the points do
                # not depend on which steps ran before it (or in which process).
                r = self._verify_step(key, random.Random(self.seed * 100_003 + key))
                return ("ok", r.method, str.__str__(str(r.detail)), float(r.error), float(r.seconds))
            if kind == "shown":
                try:
                    return ("ok", str.__str__(str(SHOWN[key][1](self))))
                except NotShownAsChecked as exc:
                    raise SHOWN[key][2](f"{self.name}: {exc}") from None
            if kind == "claims":
                try:
                    self._verify_claims()
                except (SymattnError, KeyboardInterrupt):
                    raise
                except BaseException as exc:  # a claim side that cannot even be compared fails the claim
                    why = f"a claim of the theorem cannot be checked ({_why(exc)})"
                    raise StepFailed(f"{self.name}: {why}") from None
                return ("ok",)
            c, t = self.checks[key], time.perf_counter()
            try:
                err, tol = c.run()
                err, tol = float(err), float(tol)
            except SymattnError:
                raise
            except Exception as exc:  # a check that cannot run is a failed check, not a traceback
                why = _why(exc)
                raise StepFailed(f"{self.name}: the numeric check '{c.name}' could not run ({why})") from None
            return ("ok", err, tol, time.perf_counter() - t)
        except SymattnError as exc:
            return ("failed", type(exc).__name__, str(exc))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # sys.exit() in a check, say: a failure, never a pass
            return ("failed", "StepFailed", self.failure_of(kind, key, f"it raised {_why(exc)}"))

    def assemble(self, results: list[tuple], seconds: float) -> DerivationReport:
        """The report from the tasks' results (in the order of :meth:`tasks`); raise the first failure."""
        tasks = self.tasks()
        for (kind, _), result in zip(tasks, results, strict=True):
            if result[0] == "failed" and kind not in ("check", "claims"):
                raise _FAILURES.get(result[1], StepFailed)(result[2])
        for lemma, n in self._lemma_sizes():  # checked in a worker: not again in this process
            _CHECKED.add((lemma, lemma.verify, lemma.twin, n))
        reports = [
            StepReport(key, self.steps[key], self.lhs_of(key), *result[1:])
            for (kind, key), result in zip(tasks, results, strict=True)
            if kind == "step"
        ]
        used = {id(lemma) for lemma in self.lemmas()}
        for lemma in self.declared_lemmas:
            if id(lemma) not in used:
                raise LemmaFailed(
                    f"{self.name}: lemma '{lemma.name}' is used by no step: attach it to the step "
                    "it justifies, or remove it"
                )
        checks = []
        for (kind, key), result in zip(tasks, results, strict=True):
            if kind == "claims" and result[0] == "failed":  # checked in a task, like the steps
                raise _FAILURES.get(result[1], StepFailed)(result[2])
            if kind == "check":
                if result[0] == "failed":
                    raise _FAILURES.get(result[1], StepFailed)(result[2])
                checks.append(CheckReport(self.checks[key].name, *result[1:]))
        lemmas = [(lemma, lemma.sizes) for lemma in self.lemmas()]
        shown = [
            f"{SHOWN[key][0]}: {result[1]}"
            for (kind, key), result in zip(tasks, results, strict=True)
            if kind == "shown"
        ]
        return DerivationReport(self.name, reports, checks, lemmas, seconds, self, shown)

    def failure_of(self, kind: str, key: int, why: str) -> str:
        """The message for task (kind, key) failing for the reason ``why``."""
        if kind == "step":
            return str(self._fail(key, why))
        if kind == "lemma":
            lemma, n = self._lemma_sizes()[key]
            return f"{self.name}: lemma '{lemma.name}' at size {n}: {why}"
        if kind == "shown":
            return f"{self.name}: {SHOWN[key][0]}: {why}"
        if kind == "claims":
            return f"{self.name}: the theorem's claims: {why}"
        return f"{self.name}: the numeric check '{self.checks[key].name}': {why}"

    def _fail(self, index: int, why: str) -> StepFailed:
        step = self.steps[index]
        return StepFailed(f"{self.name}, step {index + 1} ({_plain(step.rule)}): {why}")
