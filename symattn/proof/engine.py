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
"""

from __future__ import annotations

import gc
import hashlib
import multiprocessing
import os
import random
import re
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import product
from pathlib import Path
from typing import Any

import sympy as sp
from sympy.stats.rv import RandomSymbol

from .._text import exception_line as _why
from ..core.digits import decimal_string, round_decimal
from ..display import Shown
from ..errors import EXIT_CHECK_FAILED, SymattnError
from . import shown as _shown
from . import words as _words
from .equivalence import (
    INDEX_RANGES,
    _relative_error,
    describe_point,
    evaluate,
    numeric_difference,
    prove_equal,
    random_point,
    surely_differ,
)
from .operators import Ex, Var
from .shown import NotShownAsChecked, rebuilt

#: Largest relative difference at random points (evaluated to 60 digits) for two sides to agree.
TOLERANCE = 1e-45

#: The methods a step can declare, in the order the ``verify`` table shows them.
METHODS = ("symbolic", "at sizes", "definition", "certified", "numeric")

#: A step proved at sizes uses at least this many distinct sizes, one of them at least
#: ``LARGE_SIZE``.
MIN_SIZES = 4
LARGE_SIZE = 5

#: The only reasons a step proved at sizes may stop below ``LARGE_SIZE``: a lemma names one of
#: these keys as its ``largest``, and the text is printed with the step. Each must be a cost
#: measured on these machines, not an author's say-so. There is none: the one there was (all
#: N! permutations of symbolic attention at N = 5, once over a minute) was measured again at
#: 1.2 s (N = 6: 4.5 s), so every lemma reaches size 5 and no waiver can be named.
WAIVERS: dict[str, str] = {}


_GREEK = (
    "alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa|lambda|mu|nu|xi|"
    "rho|sigma|tau|upsilon|phi|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Sigma|"
    "Upsilon|Phi|Psi|Omega"
)
_LETTER = rf"(?:[A-Za-z]|\\(?:{_GREEK})(?![A-Za-z]))"
_ATOM = rf"(?:[A-Za-z0-9]|\\(?:{_GREEK})(?![A-Za-z])|\\text\{{[A-Za-z]+\}}|\\prime|')"
#: A label (a side shown by a bare Symbol) is a name: a letter, Latin or Greek, perhaps in a font
#: or with an accent, with at most a subscript and a superscript of letters, digits, commas,
#: primes and one word in ``\text{...}``; not pi or a blackboard letter, which read as the
#: constant and the expectation. ``O_{\text{causal}}`` and ``\tilde{Z}`` are names;
#: ``S = QK^\top``, ``\operatorname{rank} J`` and ``o^A - o^B`` are a relation, an operator
#: and a formula, which a step shows as a checked side or with the derivation's abbreviations.
NAME = re.compile(
    rf"(?:{_LETTER}|\\(?:mathbf|mathrm|mathcal|boldsymbol|tilde|hat|bar|vec)\{{{_LETTER}\}}|\\(?:mathrm|text)\{{[A-Za-z]+\}})'*"
    rf"(?:[_^](?:[A-Za-z0-9]|\\(?:{_GREEK})(?![A-Za-z])|\{{{_ATOM}(?:,?{_ATOM})*\}})){{0,2}}'*"
)


class StepFailed(SymattnError):
    """Raised when a step of a derivation is false or unproved; the message says which and why."""

    exit_code = EXIT_CHECK_FAILED


class StatementFailed(StepFailed):
    """Raised when the prose of a derivation states a relation it does not establish."""


class RenderingFailed(StepFailed):
    """Raised when a formula the pages print does not read back as the object printed."""


class LemmaFailed(SymattnError):
    """Raised when a lemma fails its check at a concrete size."""

    exit_code = EXIT_CHECK_FAILED


@dataclass(frozen=True)
class Lemma:
    """A general rule, checked at concrete sizes where SymPy cannot prove it in general.

    ``verify(n)`` returns True when the rule holds exactly at size n. ``twin(n)`` is the same
    check of a false version of the rule (``twin_statement``: a changed coefficient, sign or
    index), and must return False at every size: a size where the twin passes too is a size
    where the check cannot tell a true rule from a false one (a one-term sum compared with
    itself), and ``verify`` fails naming the lemma.
    """

    name: str
    statement: str
    verify: Callable[[int], bool] = field(compare=False, repr=False)
    sizes: tuple[int, ...] = (1, 2, 3)
    largest: str = ""  # a key of WAIVERS: why no size of 5 or more is checked
    #: Rough seconds to check one size, for scheduling only: with several worker processes
    #: the costliest work starts first, so that no long task is left to run alone at the end.
    cost: float = field(default=0.5, compare=False)
    twin: Callable[[int], bool] | None = field(default=None, compare=False, repr=False)
    twin_statement: str = ""

    def __post_init__(self) -> None:
        _check_cost(f"lemma {self.name!r}", self.cost)
        sizes = self.sizes
        if not isinstance(sizes, tuple) or not sizes or not all(type(n) is int and n >= 1 for n in sizes):
            raise ValueError(f"lemma {self.name!r}: sizes must be a non-empty tuple of whole numbers >= 1")

    def check(self) -> tuple[int, ...]:
        """Check the lemma at every size (once per process); return the sizes."""
        return _check_lemma(self)


def _check_lemma(lemma: Lemma) -> tuple[int, ...]:
    for n in lemma.sizes:
        _check_lemma_at(lemma, n)
    return lemma.sizes


def _check_lemma_at(lemma: Lemma, n: int) -> None:
    """Check ``lemma`` at size ``n`` once per process (or find it in the cache); raise if it fails."""
    # Keyed by the function too: two lemmas of one name but different bodies are two lemmas.
    key = (lemma, lemma.verify, lemma.twin, n)
    if key in _CHECKED or _lemma_cache.holds(lemma, n):
        return
    if lemma.twin is None or not lemma.twin_statement:
        raise LemmaFailed(
            f"lemma '{lemma.name}' has no false twin: give it one (twin, twin_statement), a false "
            "version of the rule that its check must refuse at every size"
        )
    try:
        result = lemma.verify(n)
    except Exception as exc:  # a lemma that cannot be checked is not checked
        raise LemmaFailed(f"lemma '{lemma.name}' could not be checked at size {n}: {exc}") from None
    if not _true(result):
        raise LemmaFailed(f"lemma '{lemma.name}' is false at size {n}")
    try:
        twin = lemma.twin(n) if lemma.twin is not None else False
    except Exception as exc:
        why = f"its false twin could not be checked at size {n}: {exc}"
        raise LemmaFailed(f"lemma '{lemma.name}': {why}") from None
    if _true(twin):
        raise LemmaFailed(
            f"lemma '{lemma.name}' is vacuous at size {n}: its false twin ({lemma.twin_statement}) "
            "passes the same check there"
        )
    if not _false(twin):
        why = f"its false twin gave {twin!r} at size {n}, not True or False"
        raise LemmaFailed(f"lemma '{lemma.name}': {why}")
    _CHECKED.add(key)
    _lemma_cache.record(lemma, n)


def _true(result: Any) -> bool:
    """A check's result is True (Python's, SymPy's or NumPy's), not merely truthy."""
    return result is True or result is sp.true or (type(result).__name__ == "bool_" and bool(result))


def _false(result: Any) -> bool:
    return result is False or result is sp.false or (type(result).__name__ == "bool_" and not bool(result))


_CHECKED: set[tuple[Lemma, Callable[[int], bool], Callable[[int], bool] | None, int]] = set()

#: Errors a task may report, re-raised by name when its result is assembled.
_FAILURES: dict[str, type[SymattnError]] = {
    "StepFailed": StepFailed,
    "LemmaFailed": LemmaFailed,
    "StatementFailed": StatementFailed,
    "RenderingFailed": RenderingFailed,
}


def source_digest(package: Path) -> str:
    """A hash of the versions of Python, SymPy and mpmath and of every module of ``package``
    (symattn, with all its subpackages) and of ``derivations`` beside it: the code a lemma's
    cached result depends on."""
    import platform

    import mpmath

    versions = f"{platform.python_version()} sympy {sp.__version__} mpmath {mpmath.__version__}"
    digest = hashlib.sha256(versions.encode())
    for folder in (package, package.parent / "derivations"):
        for path in sorted(folder.rglob("*.py")):
            digest.update(path.relative_to(folder).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


class _LemmaCache:
    """Lemma results on disk, keyed by a hash of the lemma and of all the code that checks it.

    The key covers the lemma's name, statement and function (its module and qualified name),
    the size, the source of every module of symattn and derivations, and the versions of
    Python, SymPy and mpmath:
    any change to the code invalidates every entry. A lemma whose body is replaced by another
    function (as the mutation tests do) has another key. Set ``SYMATTN_NO_CACHE=1`` to
    check everything afresh; ``SYMATTN_CACHE_DIR`` moves the cache.
    """

    def __init__(self) -> None:
        self._code: str | None = None
        self._entries: set[str] | None = None

    @property
    def enabled(self) -> bool:
        return os.environ.get("SYMATTN_NO_CACHE", "") in ("", "0")

    def _path(self) -> Path:
        root = os.environ.get("SYMATTN_CACHE_DIR") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "symattn"
        )
        return Path(root) / "lemmas.txt"

    def _key(self, lemma: Lemma, n: int) -> str:
        if self._code is None:
            self._code = source_digest(Path(__file__).resolve().parents[1])
        who = [
            f"{getattr(f, '__module__', '')}.{getattr(f, '__qualname__', repr(f))}"
            for f in (lemma.verify, lemma.twin)
        ]
        text = "\x1f".join([self._code, lemma.name, lemma.statement, *who, lemma.twin_statement, str(n)])
        return hashlib.sha256(text.encode()).hexdigest()

    @staticmethod
    def _cacheable(f: Callable[[int], bool]) -> bool:
        """Only named module-level functions of symattn and derivations, whose code is hashed."""
        module = getattr(f, "__module__", "") or ""
        qualname = getattr(f, "__qualname__", "<lambda>")
        return (
            module.split(".")[0] in ("symattn", "derivations")
            and "<" not in qualname
            and getattr(f, "__closure__", None) is None
        )

    def holds(self, lemma: Lemma, n: int) -> bool:
        if not self.enabled or not self._cacheable(lemma.verify) or not self._cacheable(lemma.twin):
            return False
        if self._entries is None:
            try:
                self._entries = set(self._path().read_text().split())
            except OSError:
                self._entries = set()
        return self._key(lemma, n) in self._entries

    def record(self, lemma: Lemma, n: int) -> None:
        if not self.enabled or not self._cacheable(lemma.verify) or not self._cacheable(lemma.twin):
            return
        key = self._key(lemma, n)
        try:
            path = self._path()
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a") as fh:
                fh.write(key + "\n")
        except OSError:
            return  # a cache that cannot be written is no cache
        if self._entries is not None:
            self._entries.add(key)


_lemma_cache = _LemmaCache()


@dataclass(frozen=True)
class Step:
    """One line of a derivation: ``lhs relation rhs``, justified by ``rule``, proved by ``method``.

    ``lhs`` None continues the chain from the previous right-hand side. ``relation`` is one
    of ``=``, ``<=``, ``<``, ``≈``, ``≠``, ``⟺``; ``<`` and ``<=`` need a ``certificate`` c with
    rhs - lhs = c exactly and c >= 0 (c > 0 for ``<``). ``check(lhs, rhs)`` is a proof
    procedure for steps of another kind (solving an inequality); it must test the two sides
    it is given, returns a short description, and raises :class:`StepFailed` when they do not
    match. ``definition`` maps a name to what it stands for (method ``definition``).
    """

    lhs: Any
    rhs: Any
    rule: str
    relation: str = "="
    method: str = "symbolic"
    lemma: Lemma | None = None
    certificate: Any = None
    check: Callable[[Any, Any], str] | None = None
    sizes: tuple[int, ...] | None = None
    digits: int | None = None
    definition: Mapping[Any, Any] | None = None
    concrete: Callable[[Any, int], Any] | None = None  # overrides the derivation's, for this step
    #: Values put into the left side (``{d_model: 4096}``): the step holds when the left side
    #: with them is the right side, and every number its rule states must be one of them.
    given: Mapping[Any, Any] | None = None
    #: The expectation rules for this step, where it takes E over other random families than
    #: the derivation's (the chi-square step of score_reduction, over q itself).
    expectation: Any = None
    #: How to show a side where the checked form is long: a bare Symbol is a label, a name for
    #: the checked value (``O_{\text{causal}}``, say; see ``NAME``: a relation or a formula is
    #: refused); any other expression is the checked side written with the derivation's
    #: ``abbreviations``, and verify proves it is that side.
    shown_lhs: Any = None
    shown_rhs: Any = None
    section: str = ""
    #: Rough seconds its check takes, used only to start the costliest work first (see
    #: Lemma.cost); None: 0.5 for a step at sizes, 0.05 for any other.
    cost: float | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.cost is not None:
            _check_cost(f"step {self.rule!r}", self.cost)


@dataclass(frozen=True)
class StepReport:
    index: int
    step: Step
    lhs: Any
    method: str  # one of METHODS
    detail: str
    error: float
    seconds: float

    @property
    def exact(self) -> bool:
        """Proved (symbolically, at every listed size, by a definition or by certified rounding)."""
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
        return 0 <= self.error <= self.tolerance  # a NaN or negative error is not a pass


@dataclass(frozen=True)
class NumericCheck:
    name: str
    run: Callable[[], tuple[float, float]]  # returns (largest error, tolerance)
    cost: float = 0.5  # rough seconds, for scheduling only (see Lemma.cost)

    def __post_init__(self) -> None:
        _check_cost(f"numeric check {self.name!r}", self.cost)


def _check_cost(what: str, cost: Any) -> None:
    try:  # a whole number too large for a float (10**400) is no number of seconds either
        ok = not isinstance(cost, bool) and isinstance(cost, (int, float)) and 0 <= float(cost) < float("inf")
    except OverflowError:
        ok = False
    if not ok:
        shown = repr(cost) if len(repr(cost)) < 40 else repr(cost)[:37] + "..."
        raise ValueError(f"{what}: cost must be a number of seconds, 0 or more, not {shown}")


@dataclass
class DerivationReport(Shown):  # Jupyter shows it (symattn.present.jupyter)
    name: str
    steps: list[StepReport]
    checks: list[CheckReport]
    lemmas: list[tuple[Lemma, tuple[int, ...]]]
    seconds: float
    derivation: Derivation | None = None
    #: What the checks of :mod:`.shown` found: the prose's relations established, the printed
    #: formulas read back.
    shown: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def count(self, method: str) -> int:
        """How many steps were proved by ``method``."""
        return sum(r.method == method for r in self.steps)

    @property
    def exact_steps(self) -> int:
        return sum(r.exact for r in self.steps)

    @property
    def numeric_steps(self) -> int:
        return self.count("numeric")

    @property
    def max_error(self) -> float:
        return max([r.error for r in self.steps] + [c.error for c in self.checks], default=0.0)


@dataclass
class Derivation:
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

    def _verify_step(self, index: int, rng: random.Random) -> StepReport:
        try:
            return self._verify_step_unguarded(index, rng)
        except SymattnError:
            raise
        except Exception as exc:  # any failure to evaluate a side fails the step
            raise self._fail(index, f"the sides cannot be evaluated ({_why(exc)})") from None

    def _verify_step_unguarded(self, index: int, rng: random.Random) -> StepReport:
        t = time.perf_counter()
        step = self.steps[index]
        lhs, rhs = self.lhs_of(index), step.rhs
        if step.method not in METHODS:
            raise self._fail(index, f"unknown method {step.method!r}")
        if _same(lhs, rhs):
            raise self._fail(index, "the two sides are the same expression: the step does nothing")
        put_in = [*(step.given or {}).values(), *(step.definition or {}).values(), step.certificate]
        floats = _floats(lhs, rhs, step.shown_lhs, step.shown_rhs, put_in)
        if floats:
            # Nowhere, a certified step included: a figure the module states is a string, and a
            # 20-digit Float can make two equal outputs "differ" by 1e-22 in a counterexample.
            raise self._fail(
                index,
                f"a floating-point number ({floats[0]}) in a {step.method} step: a stated figure is "
                "a string, every other number exact; write the number exactly",
            )
        self._check_printed_names(index)
        if self.abbreviations:  # printed as the derivation's notation: new names, every step
            self._check_abbreviations(index, lhs, rhs)
        shown = self._check_shown(index, lhs, rhs)
        error = 0.0
        if step.method == "certified":
            if step.relation == "≈":
                detail = self._check_figure(index, lhs, rhs)
            elif step.relation == "≠":
                detail = self._check_different(index, lhs, rhs)
            else:
                raise self._fail(index, "a certified step is a stated figure (≈) or a counterexample (≠)")
        elif step.method == "numeric":
            if not self.numeric_allowed:
                raise self._fail(index, "checked only numerically, and this derivation allows no such step")
            error = self._cross_check(index, *self._reduced(index, lhs, rhs), rng)
            detail = f"agrees at {self.points} random points to 60 digits"
        elif step.method == "at sizes":
            detail, error = self._check_at_sizes(index, lhs, rhs, rng)
        elif step.method == "definition":
            detail, error = self._check_definition(index, lhs, rhs, rng)
        elif step.given is not None:
            detail = self._check_given(index, lhs, rhs)
        elif step.check is not None:
            try:
                detail = step.check(lhs, rhs)
            except StepFailed as exc:
                raise self._fail(index, str(exc).removeprefix(f"{self.name}: ")) from None
            except SymattnError:
                raise
            except Exception as exc:
                raise self._fail(index, f"its proof procedure raised {_why(exc)}") from None
            self._check_procedure_sees(index, step.check, lhs, rhs)
        elif step.relation == "=":
            detail, error = self._check_symbolic(index, lhs, rhs, rng)
        elif step.relation in ("<", "<="):
            detail, error = self._check_inequality(index, lhs, rhs, rng)
        else:
            raise self._fail(index, f"no symbolic check for the relation {step.relation}")
        return StepReport(index, step, lhs, step.method, f"{detail}{shown}", error, time.perf_counter() - t)

    # -- the methods ----------------------------------------------------------------------
    def rules_of(self, index: int | None) -> Any:
        """The expectation rules of step ``index`` (its own, else the derivation's)."""
        return (self.steps[index].expectation if index is not None else None) or self.expectation

    def reduce_expectations(self, expr: Any, index: int | None = None) -> Any:
        """``expr`` with E and Var taken by the rules of step ``index`` (or the derivation's);
        raises where there are none, or they do not apply."""
        if not _has_operators(expr):
            return expr
        model = self.rules_of(index)
        if model is None:
            raise StepFailed("the derivation has no expectation rules")
        model.used.clear()
        return model.reduce(expr)

    def _reduced(self, index: int, lhs: Any, rhs: Any) -> tuple[Any, Any]:
        """Both sides with E[...] and Var(...) reduced by the expectation rules."""
        if not _has_operators(lhs, rhs):
            return lhs, rhs
        model = self.rules_of(index)
        if model is None:
            raise self._fail(index, "the step has E or Var but the derivation has no expectation rules")
        model.used.clear()
        random_ = tuple(getattr(model, "random", ()) or ())
        if not random_:
            why = "the expectation rules declare no random families (their `random`): E of what?"
            raise self._fail(index, why)
        for side in (lhs, rhs):
            for node in sp.sympify(side).atoms(Ex, Var):
                arg = node.args[0]
                if arg.atoms(RandomSymbol):
                    why = f"{sp.sstr(node)} holds a sympy.stats variable: take its expectation with stats.E"
                    raise self._fail(index, why)
                if not any(x.base in random_ for x in _indexed(arg)):
                    names = ", ".join(sorted(map(_printed, random_)))
                    why = f"{sp.sstr(node)} holds none of the declared random families ({names})"
                    raise self._fail(index, why)
        try:
            a, b = model.reduce(lhs), model.reduce(rhs)
        except SymattnError as exc:
            raise self._fail(index, f"the expectation rules do not apply: {exc}") from None
        for which, side in (("left", a), ("right", b)):
            left = sorted({str(x.base) for x in _indexed(side) if x.base in random_})
            if left:
                raise self._fail(
                    index,
                    f"with the expectations taken, the {which} side still depends on {left[0]}, a "
                    "random family the expectation integrates out",
                )
        return a, b

    def _check_symbolic(self, index: int, lhs: Any, rhs: Any, rng: random.Random) -> tuple[str, float]:
        a, b = self._reduced(index, lhs, rhs)
        model = self.rules_of(index)
        rules = sorted(model.used) if _has_operators(lhs, rhs) else []
        method = prove_equal(a, b)
        if method is None:
            self._cross_check(index, a, b, rng)  # a counterexample, if the sides differ
            raise self._fail(index, "SymPy could not prove the two sides equal for general symbols")
        # Every claim of equality is confirmed at random points (canonical forms assume, for
        # example, that a Kronecker delta's index lies in the summation range). Matrix
        # expressions of symbolic shape, equal as expressions, are exempt: they hold no sums.
        symbolic_shape = method == "identity" and _symbolic_shape(a) and _symbolic_shape(b)
        error = 0.0 if symbolic_shape else self._cross_check(index, a, b, rng)
        if self.cross_sizes and rules and self.concrete:
            self._check_model_sees(index, self.concrete, lhs, rhs)
        for n in self.cross_sizes if rules and self.concrete else ():
            self._cross_check(index, self.concrete(lhs, n), self.concrete(rhs, n), rng, n)
        detail = method if not rules else f"{method}; rules: {', '.join(rules)}"
        return detail, error

    def _check_at_sizes(self, index: int, lhs: Any, rhs: Any, rng: random.Random) -> tuple[str, float]:
        step = self.steps[index]
        if step.lemma is None:
            raise self._fail(index, "a step proved at sizes must name the lemma it is an instance of")
        concrete = step.concrete or self.concrete
        if concrete is None:
            raise self._fail(index, "the derivation has no concrete meaning at a size")
        sizes = step.sizes or step.lemma.sizes
        if not all(type(n) is int and n >= 1 for n in sizes):
            raise self._fail(index, f"the sizes {sizes} are not all whole numbers of at least 1")
        if len(set(sizes)) != len(sizes):
            raise self._fail(index, f"the sizes {sizes} repeat a size: each size counts once")
        if len(sizes) < MIN_SIZES:
            raise self._fail(index, f"at least {MIN_SIZES} distinct sizes are needed, not {len(sizes)}")
        waiver = WAIVERS.get(step.lemma.largest)
        if step.lemma.largest and waiver is None:
            raise self._fail(
                index,
                f"the lemma's reason for stopping below size {LARGE_SIZE} ({step.lemma.largest!r}) "
                f"is not a documented waiver ({', '.join(WAIVERS) or 'there are none'})",
            )
        if max(sizes) < LARGE_SIZE and waiver is None:
            raise self._fail(index, f"a size of at least {LARGE_SIZE} is needed, or a documented waiver")
        self._check_model_sees(index, concrete, lhs, rhs)
        # One more size, chosen by the engine: the smallest the author left out. A difference
        # that vanishes at the author's sizes ((n - 2)(n - 3)(n - 4)(n - 5)) shows there.
        extra = min(set(range(1, max(sizes) + 2)) - set(sizes))
        if extra > max(sizes) and waiver is not None:
            extra = None  # beyond a documented cost
        errors = []
        answers: dict[str, list[Any]] = {"left": [], "right": []}
        for n in (*sizes, extra) if extra else sizes:
            a, b = concrete(lhs, n), concrete(rhs, n)
            answers["left"].append(a)
            answers["right"].append(b)
            for values in self._indices(a, b, n):
                av, bv = _subs(a, values), _subs(b, values)
                method = prove_equal(av, bv)
                if method is None:
                    self._cross_check(index, av, bv, rng, n)  # a counterexample, if there is one
                    raise self._fail(index, f"not proved equal at size {n}")
                if method != "identity":  # a normal form said 0: confirm it numerically
                    errors.append(self._cross_check(index, av, bv, rng, n))
        # The size answered is the size asked: a side that depends on the size (its symbols, its
        # shape) has a different value at each size. A model asked at 5 that answers at 2 gives
        # the same value at every size, and would prove at "every size" what holds at one.
        for which, side in (("left", lhs), ("right", rhs)):
            values = answers[which]
            if _free_of(side) and len(values) > 1 and all(_same(values[0], v) for v in values[1:]):
                raise self._fail(
                    index,
                    f"the model gives the {which} side one value at every size "
                    f"({', '.join(map(str, (*sizes, extra) if extra else sizes))}): it does not "
                    "answer at the size it is asked",
                )
        why = f"; largest size {max(sizes)}: {waiver}" if max(sizes) < LARGE_SIZE and waiver else ""
        chosen = f" and {extra}, chosen by the engine" if extra else ""
        return f"{', '.join(map(str, sizes))}{chosen} ({step.lemma.name}{why})", max(errors, default=0.0)

    def _check_shown(self, index: int, lhs: Any, rhs: Any) -> str:
        """A side shown in place of the checked one is a label (a Symbol: a name for the checked
        value, and the step's detail says so), or is the checked side written with the
        abbreviations, which expanded must be proved equal to that side. Returns what to add to
        the step's detail."""
        step = self.steps[index]
        named = []
        for which, shown, side in (("left", step.shown_lhs, lhs), ("right", step.shown_rhs, rhs)):
            if shown is None:
                continue
            plain = not isinstance(shown, sp.Symbol) or type(shown) is sp.Symbol  # no printer of its own
            if not isinstance(shown, (sp.Basic, sp.MatrixBase)) or not plain:
                why = f"the {which} side shown must be a SymPy expression or a plain Symbol"
                raise self._fail(index, why)
            if type(shown) is sp.Symbol and shown not in self.abbreviations:
                if _printed(shown) in self._checked_symbol_names():
                    why = f"the {which} side shown, {shown.name}, is named like a symbol of the proof"
                    raise self._fail(index, why + ": a label is a new name for the checked value")
                if not NAME.fullmatch(sp.latex(shown)):
                    raise self._fail(
                        index,
                        f"the {which} side shown, {shown.name}, is a label, and a label is a name (a "
                        "letter with a subscript or superscript), not a relation, an operator or a "
                        "formula: show the checked side, or write it with the derivation's abbreviations",
                    )
                named.append(which)
                continue
            if not _matches(self.expand_abbreviations(shown), side):
                raise self._fail(index, f"the {which} side shown is not the one checked")
        if len(named) == 2 and step.shown_lhs == step.shown_rhs:
            raise self._fail(index, f"both sides are shown by the one name {step.shown_lhs}")
        if not named:
            return ""
        return f"; the {' and '.join(named)} side{'s' if len(named) > 1 else ''} shown by name"

    def _printed_names(self) -> dict[tuple[str, str], list[Any]]:
        """Every symbol, indexed family and matrix symbol of the derivation (its steps' sides,
        shown sides, definitions, claims, abbreviations and declared random families), by kind
        and printed name, in order of first appearance."""
        key = self._shape()
        cached = getattr(self, "_names", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        found: dict[tuple[str, str], list[Any]] = {}
        for e in self._everything():
            for kind, x in _named(e):
                same = found.setdefault((kind, _printed(x)), [])
                if x not in same:
                    same.append(x)
        self._names = (key, found)
        return found

    def _shape(self) -> tuple:
        """What the derivation is made of, by identity: a cache of its names is stale once a
        step, claim or abbreviation is replaced (as the tests and the planted errors do)."""
        models = (id(self.expectation), *(id(s.expectation) for s in self.steps))
        return (*map(id, self.steps), *map(id, self.claims), id(self.abbreviations), *models)

    def _checked_symbol_names(self) -> set[str]:
        """The printed names of the symbols in the checked sides of every step."""
        key = self._shape()
        cached = getattr(self, "_checked_names", None)
        if cached is None or cached[0] != key:
            sides = [e for k, s in enumerate(self.steps) for e in (self.lhs_of(k), s.rhs)]
            cached = (key, {_printed(x) for e in sides for kind, x in _named(e) if kind == "symbol"})
            self._checked_names = cached
        return cached[1]

    def _everything(self) -> Iterator[Any]:
        models = [self.expectation, *(s.expectation for s in self.steps)]
        for m in models:
            families = getattr(m, "random", ()) or ()
            yield from (sp.IndexedBase(b) if isinstance(b, str) else b for b in families)
        yield from self.abbreviations
        for k, step in enumerate(self.steps):
            yield from (self.lhs_of(k), step.rhs, step.shown_lhs, step.shown_rhs)
            for name, value in (step.definition or {}).items():
                yield from (name, value)
        for lhs, rhs, *_ in self.claims:
            yield from (lhs, rhs)

    def _check_printed_names(self, index: int) -> None:
        """No two different symbols of one kind print alike: Symbol("d_k", real=True) beside
        the width d_k would let a step read as one thing and be checked as another."""
        names = self._printed_names()
        step = self.steps[index]
        for e in (self.lhs_of(index), step.rhs, step.shown_lhs, step.shown_rhs, *(step.definition or {})):
            for kind, x in _named(e):
                same = names.get((kind, _printed(x)), [x])
                if len(same) > 1:
                    raise self._fail(
                        index,
                        f"two different {kind}s are printed as {_printed(x)} (their assumptions differ): "
                        "one name, one meaning",
                    )

    def _check_abbreviations(self, index: int, lhs: Any, rhs: Any) -> None:
        """Each short name is a new Symbol or IndexedBase: not a number, and not printed like a
        symbol (or an indexed family) of the checked sides, which it would then seem to define."""
        sides = [e for e in (lhs, rhs) if hasattr(e, "atoms")]
        symbols = {str(a) for e in sides for a in e.atoms(sp.Symbol, sp.MatrixSymbol)}
        families = {str(x.base) for e in sides for x in e.atoms(sp.Indexed)}
        seen: set[str] = set()
        for short in self.abbreviations:
            if type(short) not in (sp.Symbol, sp.IndexedBase, sp.MatrixSymbol):
                why = f"the abbreviation {short!r} is not a Symbol, a MatrixSymbol or an IndexedBase"
                raise self._fail(index, why)
            name = str(short)
            if not NAME.fullmatch(sp.latex(short.label if isinstance(short, sp.IndexedBase) else short)):
                raise self._fail(index, f"the abbreviation {name} is not a name (a letter with a subscript)")
            if name in (families if isinstance(short, sp.IndexedBase) else symbols) or name in seen:
                why = f"the abbreviation {name} is not a new name (it is printed like another)"
                raise self._fail(index, why)
            seen.add(name)

    def expand_abbreviations(self, expr: Any) -> Any:
        """``expr`` with every abbreviation replaced by what it stands for, repeatedly (an
        abbreviation may use another); circular abbreviations are refused. A form kept as
        written (:func:`symattn.proof.latex.written`, which only fixes how it prints) is read as
        what it holds."""
        e = sp.sympify(expr)
        for _ in range(len(self.abbreviations) + 1):
            before = e
            for short, meaning in self.abbreviations.items():
                if isinstance(short, sp.IndexedBase):
                    e = e.replace(
                        lambda x, short=short: isinstance(x, sp.Indexed) and x.base == short,
                        lambda x, meaning=meaning: meaning(*x.indices),
                    )
                else:
                    e = e.xreplace({short: meaning})
            if e == before:
                break
        left = _free_of(e) | {x.base for x in e.atoms(sp.Indexed)}
        if e != before or left & set(self.abbreviations):
            raise StepFailed(f"{self.name}: the abbreviations are circular")
        return e.replace(lambda x: isinstance(x, sp.UnevaluatedExpr), lambda x: x.args[0])

    def _check_model_sees(self, index: int, model: Callable[[Any, int], Any], lhs: Any, rhs: Any) -> None:
        """The model of the step's sides (its own, or the derivation's) must tell the right side
        from wrong versions of the left side planted by the engine, at size ``MODEL_SIZE``.

        A model that loses what the sides say (every score equal, say) or returns a stored
        answer (the rank "n - 1" whatever the matrix) would prove anything at sizes. The plants
        (:func:`_plants`): twice the side, which the model must evaluate (and tell apart where
        the right side is not 0); the side transposed (unless the model finds it symmetric),
        with entry (1, 1) changed, or plus 1; and each
        matrix in it replaced by another of the same shape. The model must show each differs
        from the right side at a random point, or refuse it with an error (a side it has no
        meaning for), never agree.
        """
        right, left = model(rhs, MODEL_SIZE), model(lhs, MODEL_SIZE)
        # Each side is evaluated as given: twice the side is twice its value. (A model that
        # answers the right side with the left side's value would pass every plant below.)
        for which, side in (("left", lhs), ("right", rhs)):
            value = right if which == "right" else left
            try:
                twice = model(_plants(side)[0][1], MODEL_SIZE)
            except Exception as exc:  # twice a side is in the model's own terms
                why = f"the model cannot evaluate 2 x the {which} side at size {MODEL_SIZE} ({_why(exc)})"
                raise self._fail(index, why) from None
            if _told_apart(twice, 2 * value, random.Random(index * 7 + len(which))):
                raise self._fail(
                    index,
                    f"the model at size {MODEL_SIZE} gives 2 x the {which} side a value that is not "
                    f"twice the {which} side's: it does not evaluate the side it is given",
                )
        for k, (what, plant) in enumerate(_plants(lhs)):
            try:
                wrong = model(plant, MODEL_SIZE)
            except Exception as exc:
                if k == 0:  # twice the side is in the model's own terms: it must evaluate it
                    why = f"the model cannot evaluate {what} at size {MODEL_SIZE} ({_why(exc)})"
                    raise self._fail(index, why) from None
                continue  # refused: the model gives no answer for a side it has no meaning for
            if what == TRANSPOSED and _symmetric(left):
                if _symmetric_side(lhs):
                    continue  # the side is symmetric itself: its transpose is no wrong version
                raise self._fail(
                    index,
                    f"the model at size {MODEL_SIZE} gives the left side a symmetric value where the "
                    "side is not symmetric: its test matrices hide a transpose",
                )
            if k == 0 and not _told_apart(right, 0 * right, random.Random(index)):
                continue  # twice 0 is 0: the other plants (plus 1, an entry changed) test the model
            if _told_apart(wrong, right, random.Random(index * 31 + k)):
                continue
            raise self._fail(index, f"the model at size {MODEL_SIZE} cannot tell {what} from the right side")

    def _check_procedure_sees(self, index: int, check: Callable[[Any, Any], str], lhs: Any, rhs: Any) -> None:
        """A step's proof procedure must refuse a wrong left side and a wrong right side (plus 1,
        an entry changed, an inequality with its left side doubled, an expectation of twice its
        argument): one that ignores a side it is given, or compares with a value of its own,
        would accept anything."""
        for which, side in (("left", lhs), ("right", rhs)):
            what, plant = _wrong_side(side)
            try:
                check(plant, rhs) if which == "left" else check(lhs, plant)
            except Exception:  # refused, as it must be
                continue
            what = what.replace("left", which)
            raise self._fail(index, f"its proof procedure accepts {what} too: it does not test its sides")

    def _check_definition(self, index: int, lhs: Any, rhs: Any, rng: random.Random) -> tuple[str, float]:
        step = self.steps[index]
        if not step.definition:
            raise self._fail(index, "a definition step must say what it defines")
        meaning = {k: sp.sympify(v) for k, v in step.definition.items()}
        for name, value in meaning.items():
            if type(name) is not sp.Symbol or not NAME.fullmatch(sp.latex(name)):
                why = f"a definition introduces a name (a plain Symbol, \\sigma_z say), not {sp.sstr(name)}"
                raise self._fail(index, why)
            if value.has(name):
                raise self._fail(index, f"the definition of {name} uses {name} itself")
            # What the name assumes of its sign (positive, say) must be known of what it stands
            # for; that it is a whole number (d_k = d_model / h) is the derivation's assumption.
            known, _ = self._reduced(index, value, value) if _has_operators(value) else (value, value)
            for fact, holds in name.assumptions0.items():
                if holds and fact not in _NUMBER_KIND and getattr(known, f"is_{fact}") is not True:
                    why = f"{name} is declared {fact}, which SymPy cannot show of {sp.sstr(known)}"
                    raise self._fail(index, why)
        for earlier in range(index):
            seen = [self.lhs_of(earlier), self.steps[earlier].rhs]
            if any(hasattr(x, "has") and x.has(*meaning) for x in seen):
                raise self._fail(index, "a definition must introduce a new name, not one used earlier")
        a, b = (sp.sympify(x).xreplace(meaning) for x in (lhs, rhs))
        if not any(sp.sympify(x).has(*meaning) for x in (lhs, rhs)):
            raise self._fail(index, "the defined name appears on neither side")
        a, b = self._reduced(index, a, b)
        if prove_equal(a, b) is None:
            self._cross_check(index, a, b, rng)
            raise self._fail(index, "with the definition substituted, the sides are not proved equal")
        names = ", ".join(sp.sstr(k) for k in meaning)
        return f"{names} substituted", self._cross_check(index, a, b, rng)

    def _check_given(self, index: int, lhs: Any, rhs: Any) -> str:
        """The left side with the step's given values is the right side, exactly; the rule
        states no number but those values (the check and the text cannot disagree)."""
        given = dict(self.steps[index].given or {})
        if not given:
            raise self._fail(index, "a substitution step gives no values")
        values = {str(sp.sympify(v)) for v in given.values()}
        stated = re.findall(r"(?<![\w{^_])\d+(?:\.\d+)?", _plain(self.steps[index].rule))
        if wrong := [x for x in stated if x not in values]:
            raise self._fail(index, f"its rule states {wrong[0]}, but the values put in are {sorted(values)}")
        got = sp.sympify(lhs).subs(given)
        if prove_equal(got, rhs) is None:
            raise self._fail(index, f"with {given} the left side is {_short(got)}, not {_short(rhs)}")
        shown = ", ".join(f"{k} = {v}" for k, v in given.items())
        return f"substitution of {shown}"

    def _check_figure(self, index: int, expr: Any, stated: str) -> str:
        digits = self.steps[index].digits or len(stated.replace("-", "").replace(".", ""))
        value = decimal_string(sp.sympify(expr), digits)
        if value != stated:
            raise self._fail(index, f"the figure {stated} is wrong: correctly rounded, {value}")
        return f"correctly rounded to {digits} digits"

    def _check_different(self, index: int, lhs: Any, rhs: Any) -> str:
        """A counterexample: some entry of lhs - rhs is certified nonzero."""
        a, b = sp.Matrix(sp.sympify(lhs)), sp.Matrix(sp.sympify(rhs))
        if a.shape != b.shape:
            raise self._fail(index, f"the shapes differ ({a.shape} and {b.shape}): no entry to compare")
        for pos, diff in enumerate(a - b):
            if diff == 0:
                continue
            try:
                value = round_decimal(diff, 5)
            except SymattnError:
                continue
            if value != 0:
                row, col = divmod(pos, a.cols)
                return f"entry ({row + 1}, {col + 1}) differs by {value}"
        raise self._fail(index, "no entry is certified to differ: the sides may be equal")

    def _check_inequality(self, index: int, lhs: Any, rhs: Any, rng: random.Random) -> tuple[str, float]:
        step = self.steps[index]
        if step.certificate is None:
            raise self._fail(index, "an inequality step needs a certificate")
        gap = sp.sympify(rhs) - sp.sympify(lhs)
        if prove_equal(gap, step.certificate) is None:
            self._cross_check(index, gap, step.certificate, rng)
            raise self._fail(index, "right - left is not provably the certificate")
        sign = step.certificate.is_positive if step.relation == "<" else step.certificate.is_nonnegative
        if not sign:
            raise self._fail(index, f"cannot show {sp.sstr(step.certificate)} has the right sign")
        err = self._cross_check(index, gap, step.certificate, rng)
        return "certificate " + sp.sstr(step.certificate), err

    def chains(self) -> list[list[int]]:
        """The chains of equalities, as the indices of their steps in order: a chain starts at
        a step with a left side, or after a break. An inequality or a figure ends a chain of
        equalities; so does a substitution, which holds at the values put in only."""
        chains: list[list[int]] = []
        open_chain = False
        for index, step in enumerate(self.steps):
            if step.relation != "=" or step.given is not None:
                open_chain = False
                continue
            if step.lhs is not None or not open_chain:
                chains.append([])
                open_chain = True
            chains[-1].append(index)
        return chains

    def _verify_claims(self) -> None:
        """The theorem is stated as claims (where ``requires_claims``), and every claim is the
        start and a later point of some chain (a derivation without claims could have its last
        steps changed freely, as long as each step stayed true)."""
        if not self.claims and self.requires_claims:
            raise StepFailed(
                f"{self.name}: {NO_CLAIMS}: say what the proof establishes "
                "(Derivation.claim(lhs, rhs)), so that its chains are tied to the theorem"
            )
        chains = [(self.lhs_of(ks[0]), [self.steps[k].rhs for k in ks]) for ks in self.chains()]
        for lhs, rhs, *relation in self.claims:
            if relation and relation[0] != "=":
                steps = enumerate(self.steps)
                stated = [(self.lhs_of(k), s.rhs) for k, s in steps if s.relation == relation[0]]
                if relation[0] in _ORDERS:
                    stated = _reaching(stated, chains)
                if not any(_matches(lhs, a) and _matches(rhs, b) for a, b in stated):
                    raise StepFailed(
                        f"{self.name}: the theorem claims {sp.sstr(lhs)} {relation[0]} {sp.sstr(rhs)}, "
                        "which no step of the proof establishes"
                    )
                continue
            # A claim written exactly as the proof has it needs no normal forms.
            if any(_same(lhs, a) and any(_same(rhs, b) for b in ends) for a, ends in chains):
                continue
            if not any(_matches(lhs, a) and any(_matches(rhs, b) for b in ends) for a, ends in chains):
                raise StepFailed(
                    f"{self.name}: the theorem claims {sp.sstr(lhs)} = {sp.sstr(rhs)}, "
                    "which no chain of the proof establishes"
                )

    # -- helpers --------------------------------------------------------------------------
    def _cross_check(self, index: int, a: Any, b: Any, rng: random.Random, size: int | None = None) -> float:
        """Compare the two sides at random points to 60 digits; ``a``, ``b`` already at ``size``."""
        sample = self.sample
        fixed = (lambda r: sample(r, size)) if sample else None
        err, point, va, vb = numeric_difference(a, b, rng, points=self.points, fixed=fixed)
        if err > TOLERANCE:
            at = f" at size {size}" if size else ""
            raise self._fail(
                index,
                f"the two sides differ{at}: at {describe_point(point)}, "
                f"left = {_short(va)}, right = {_short(vb)}",
            )
        return err

    def _indices(self, a: Any, b: Any, n: int) -> list[dict[sp.Symbol, int]]:
        """Every assignment of the free index symbols (``indices``) to 1..n."""
        free = [s for s in self.indices if s in _free_of(a) | _free_of(b)]
        return [dict(zip(free, values, strict=True)) for values in product(range(1, n + 1), repeat=len(free))]


# -- verifying in parallel -------------------------------------------------------------------
def default_jobs() -> int:
    """Worker processes for verifying: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


#: The derivations being verified by forked workers; a worker finds its task's derivation here
#: (it inherits the dict when it is forked), so no derivation is ever pickled.
_WORK: list[Derivation] = []


def _run(index: int, kind: str, key: int) -> tuple[float, tuple]:
    start = time.perf_counter()
    result = _WORK[index].run_task(kind, key)
    return time.perf_counter() - start, result


def _run_group(index: int, group: list[tuple[str, int]]) -> list[tuple[float, tuple]]:
    return [_run(index, *task) for task in group]


def verify_many(
    derivations: list[Derivation], jobs: int, isolate: bool = True
) -> Iterator[DerivationReport | SymattnError]:
    """Verify the derivations, in order, sharing ``jobs`` forked processes among all their tasks.

    Yields each derivation's report, or the error that failed it, as soon as its tasks are
    done. With ``jobs`` 1 the work runs in one forked process, so that a check that ends its
    process fails like any other (``isolate=False`` does it here, in turn); where processes
    cannot be forked, it is done here.
    """
    if (jobs <= 1 and not isolate) or "fork" not in multiprocessing.get_all_start_methods():
        for d in derivations:
            try:
                yield d.verify()
            except SymattnError as exc:
                yield exc
        return
    _WORK[:] = derivations
    # What is built so far is never collected while the workers run: frozen, the collector
    # leaves it alone, and the workers do not copy the pages it would touch. (Only if nothing
    # is frozen yet: a program that froze its own objects keeps them frozen.)
    freezing = gc.get_freeze_count() == 0
    if freezing:
        gc.freeze()
    try:
        pool = ProcessPoolExecutor(max(1, jobs), mp_context=multiprocessing.get_context("fork"))
    except BaseException:
        if freezing:
            gc.unfreeze()
        raise
    try:
        # Derivation by derivation, the costliest groups of tasks (Derivation.groups) are
        # submitted first; the results are read back in the order of tasks().
        submitted: dict[tuple[int, tuple[str, int]], tuple[Future | None, int]] = {}
        for i, d in enumerate(derivations):
            for group in d.groups():
                try:
                    future: Future | None = pool.submit(_run_group, i, group)
                except BrokenProcessPool:  # a worker died already: the tasks run on their own
                    future = None
                submitted.update({(i, task): (future, at) for at, task in enumerate(group)})
        for i, d in enumerate(derivations):
            done = [_outcome(i, task, *submitted[i, task]) for task in d.tasks()]
            seconds = sum(t for t, _ in done)  # time spent on this derivation, over all workers
            try:
                yield d.assemble([r for _, r in done], seconds)
            except SymattnError as exc:
                yield exc
    finally:
        # On an interrupt (or an error), the work still queued is dropped, not waited for.
        try:
            pool.shutdown(wait=True, cancel_futures=True)
        except BaseException:  # a second Ctrl-C while waiting for the workers: stop them instead
            for worker in list((getattr(pool, "_processes", None) or {}).values()):
                worker.kill()
            raise
        finally:
            _WORK.clear()
            if freezing:
                gc.unfreeze()


def _outcome(index: int, task: tuple[str, int], future: Future | None, at: int) -> tuple[float, tuple]:
    """The (seconds, result) of the task at place ``at`` of its group. If its worker died (a
    check that ends its process, say, which breaks the pool and every task still waiting in it),
    the task runs again in a process of its own, so the one that ends its process is named."""
    if future is not None:
        try:
            return future.result()[at]
        except Exception:
            pass
    return _isolated(index, *task)


def _isolated(index: int, kind: str, key: int) -> tuple[float, tuple]:
    """Run one task in a forked process of its own; a process that ends without a result is
    that task's failure, named like any other failure of the task."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_send_result, args=(send, index, kind, key))
    child.start()
    send.close()
    try:
        return receive.recv()
    except EOFError:  # the process ended before it sent anything
        child.join()
        why = f"the process checking it ended without a result (exit code {child.exitcode})"
        return 0.0, ("failed", "StepFailed", _WORK[index].failure_of(kind, key, why))
    finally:
        receive.close()
        child.join()


def _send_result(send: Any, index: int, kind: str, key: int) -> None:
    try:
        send.send(_run(index, kind, key))
    except KeyboardInterrupt:  # the parent is interrupted too, and says so
        pass
    except Exception as exc:  # a result that cannot be sent back (it cannot be pickled, say)
        why = f"its result cannot be sent back ({_why(exc)})"
        send.send((0.0, ("failed", "StepFailed", _WORK[index].failure_of(kind, key, why))))
    finally:
        send.close()


#: The checks that what a page shows is what was checked (:mod:`.shown`), in the order of
#: their tasks: (what, check).
SHOWN: tuple[tuple[str, Callable[[Derivation], str], type[StepFailed]], ...] = (
    ("the prose's formulas", lambda d: _shown.check_statements(d, d.reduce_expectations), StatementFailed),
    ("the printed formulas", lambda d: _shown.check_rendering(d), RenderingFailed),
    ("the assumptions", lambda d: _shown.check_assumptions(d), StatementFailed),
    ("the theorem's words", lambda d: _words.check_words(d, _shown.words_vocabulary(d)), StatementFailed),
)

#: The failure of a derivation whose theorem states no claims.
NO_CLAIMS = "the theorem states no claims"

#: The size at which a model is shown wrong versions of a side (at size 2 a transposed 2 x 2
#: side, or the one other permutation, says too little).
MODEL_SIZE = 3

TRANSPOSED = "the left side transposed"


def _plants(side: Any) -> list[tuple[str, Any]]:
    """Wrong versions of ``side`` for a model to tell from the right side, twice the side first."""
    e = sp.sympify(side)
    if getattr(e, "is_Matrix", False):
        rows, cols = e.shape
        a, b = sp.symbols("a b", integer=True, nonnegative=True)
        corner = sp.Lambda((a, b), sp.KroneckerDelta(a, 0) * sp.KroneckerDelta(b, 0))
        unit = sp.FunctionMatrix(rows, cols, corner)  # 1 at entry (1, 1), 0 elsewhere
        out = [
            ("2 x the left side", sp.MatMul(2, e)),
            (TRANSPOSED, sp.Transpose(e)),
            ("the left side with entry (1, 1) changed", sp.MatAdd(e, unit)),
        ]
    else:
        out = [("2 x the left side", 2 * e), ("the left side plus 1", e + 1)]
    leaves = sorted(e.atoms(sp.MatrixSymbol), key=str)
    for leaf in leaves:
        same = [m for m in leaves if m != leaf and m.shape == leaf.shape]
        rows, cols = leaf.shape
        other = same[0] if same else sp.Identity(rows) if rows == cols else sp.OneMatrix(rows, cols)
        out.append((f"the left side with {leaf} replaced by {other}", e.xreplace({leaf: other})))
    return out


def _wrong_side(side: Any) -> tuple[str, Any]:
    """A side that is certainly not equal to ``side`` (so not to the right side either)."""
    e = sp.sympify(side)
    if isinstance(e, sp.Rel):
        return "the inequality with its left side doubled", e.func(2 * e.lhs, e.rhs)
    if isinstance(e, (Ex, Var)) or type(e).__name__ in ("Expectation", "Variance"):
        # An expectation of twice its argument, of the same kind: a procedure that refuses
        # anything but an expectation must still look inside it.
        return "the expectation of twice its argument", e.func(2 * e.args[0], *e.args[1:])
    if getattr(e, "is_Matrix", False):
        return _plants(e)[2]  # entry (1, 1) changed
    return "the left side plus 1", e + 1


def _symmetric(m: Any) -> bool:
    return isinstance(m, sp.MatrixBase) and m.shape[0] == m.shape[1] and _same(m, m.T)


def _symmetric_side(side: Any) -> bool:
    """The side equals its transpose as an expression (diag(p) - p p^T), not merely at a point."""
    e = sp.sympify(side)
    if not getattr(e, "is_Matrix", False):
        return True
    try:
        transposed = e.T
        return _same(transposed.doit(), e.doit()) or prove_equal(transposed, e) is not None
    except Exception:
        return False


def _told_apart(wrong: Any, right: Any, rng: random.Random) -> bool:
    """Two values a model gave differ: in shape, or in some entry at one of six random points
    (at large values a softmax is one-hot, and two different score matrices may pick the same
    key at a few points). Stops at the first difference found."""
    if getattr(wrong, "shape", None) != getattr(right, "shape", None):
        return True
    if _same(wrong, right):
        return False
    pairs = zip(wrong, right, strict=True) if isinstance(wrong, sp.MatrixBase) else [(wrong, right)]
    pairs = [(a, b) for a, b in pairs if not _same(a, b)]
    free = sp.Tuple(*(_free_of(sp.sympify(wrong)) | _free_of(sp.sympify(right))))  # found once
    for p in range(6):
        point = random_point([free], rng, None, smallest=p + 1 if p < 3 else 0)
        for a, b in pairs:
            if _relative_error(_value(a, point, rng), _value(b, point, rng)) > TOLERANCE:
                return True
    return False


def _value(e: Any, point: Mapping[Any, Any], rng: random.Random) -> Any:
    """``e`` at ``point`` to 60 digits: the values put in as 80-digit floats (much faster than
    exact substitution into a model's long softmax entries); where that leaves no number, the
    exact evaluation."""
    x = sp.N(sp.sympify(e).xreplace({s: sp.Float(v, 80) for s, v in point.items()}), 60)
    return x if x.is_number else evaluate(e, dict(point), rng)


def _subs(e: Any, values: Mapping[sp.Symbol, int]) -> Any:
    return e.subs(values) if values and hasattr(e, "subs") else e


def _floats(*sides: Any) -> list[sp.Float]:
    """The Floats in the sides (1 + 1e-30 written in Python is already Float 1.0)."""
    out: list[sp.Float] = []
    for side in sides:
        if isinstance(side, (float, Decimal)) or type(side).__name__ in ("mpf", "float64", "float32"):
            out.append(sp.Float(str(side)))
        elif isinstance(side, (list, tuple)):
            out.extend(_floats(*side))
        elif isinstance(side, (sp.Basic, sp.MatrixBase)):
            out.extend(sorted(side.atoms(sp.Float), key=str))
    return out


#: The order relations: a side of one may be replaced by the start of a chain reaching it.
_ORDERS = ("<", "<=", ">", ">=")


def _reaching(stated: list[tuple[Any, Any]], chains: list[tuple[Any, list[Any]]]) -> list[tuple[Any, Any]]:
    """The pairs an order relation holds of: a <= b and c = ... = b give a <= c too."""
    return [(a, b) for x, y in stated for a, b in product(_reached(x, chains), _reached(y, chains))]


def _reached(side: Any, chains: list[tuple[Any, list[Any]]]) -> list[Any]:
    """``side``, and the start of every chain of equalities that reaches it."""
    return [side] + [start for start, ends in chains if any(_same(side, x) for x in ends)]


def _same(lhs: Any, rhs: Any) -> bool:
    if isinstance(lhs, str) or isinstance(rhs, str):
        return False
    try:
        return bool(sp.sympify(lhs) == sp.sympify(rhs))
    except (sp.SympifyError, TypeError):
        return False


def _matches(claimed: Any, proved: Any) -> bool:
    """A claimed side is a proved side, up to SymPy's normal forms, confirmed at random points."""
    if _same(claimed, proved):
        return True
    if not isinstance(claimed, str) and not isinstance(proved, str) and rebuilt(claimed) == rebuilt(proved):
        return True  # the same tree once evaluated node by node: no normal form, nothing to sample
    try:
        if surely_differ(claimed, proved) or prove_equal(claimed, proved) is None:
            return False
        err, *_ = numeric_difference(claimed, proved, random.Random(0))
        return err <= TOLERANCE
    except Exception:
        return False


def _symbolic_shape(e: Any) -> bool:
    return isinstance(e, sp.MatrixExpr) and any(not sp.sympify(s).is_Integer for s in e.shape)


def _has_operators(*exprs: Any) -> bool:
    return any(hasattr(e, "has") and e.has(Ex, Var) for e in exprs)


def _free_of(e: Any) -> set[sp.Basic]:
    return set(e.free_symbols) if hasattr(e, "free_symbols") else set()


def _indexed(e: Any) -> set[sp.Indexed]:
    if isinstance(e, sp.MatrixBase):
        return set().union(*(_indexed(x) for x in e)) if e else set()
    return set(e.atoms(sp.Indexed)) if hasattr(e, "atoms") else set()


def _named(e: Any) -> Iterator[tuple[str, Any]]:
    """(kind, object) for the named things in ``e``: symbols, indexed families, matrix symbols."""
    if e is None or isinstance(e, str):
        return
    if isinstance(e, sp.MatrixBase):
        for x in e:
            yield from _named(x)
        return
    if isinstance(e, sp.IndexedBase):
        yield "indexed family", e
        return
    if not isinstance(e, sp.Basic):
        return
    bases = {x.base for x in e.atoms(sp.Indexed)}
    labels = {b.label for b in bases}
    for x in e.atoms(sp.Symbol):
        if x not in labels and not isinstance(x, sp.Dummy):
            yield "symbol", x
    for b in bases:
        yield "indexed family", b
    for m in e.atoms(sp.MatrixSymbol):
        yield "matrix symbol", m


#: Assumptions of a defined name that say what kind of number it is, stated with the derivation
#: rather than shown of the definition (d_k = d_model / h is a whole number).
_NUMBER_KIND = {
    *("commutative", "integer", "rational", "algebraic", "even", "odd", "prime", "composite"),
    *("noninteger", "irrational", "transcendental"),
}


def _printed(x: Any) -> str:
    """How ``x`` reads once typeset: its LaTeX without braces, spaces or an upright letter's
    \\mathrm (d_k, d_{k} and {d}_{k} read alike; so do n and \\mathrm{n})."""
    tex = sp.latex(x.label if isinstance(x, sp.IndexedBase) else x)
    return re.sub(r"[{}\s]", "", re.sub(r"\\mathrm\{([A-Za-z])\}", r"\1", tex))


def _plain(rule: str) -> str:
    return rule.replace("$", "")


def _short(v: Any) -> str:
    text = sp.sstr(sp.N(v, 12)) if not isinstance(v, sp.MatrixBase) else sp.sstr(v.evalf(8))
    return text if len(text) < 120 else text[:117] + "..."
