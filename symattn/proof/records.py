"""What a derivation is made of and what verifying it reports: steps, numeric checks, and the
reports of each step, each check and the whole derivation."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..display import Shown
from .lemma import Lemma, _check_cost

if TYPE_CHECKING:
    from .engine import Derivation

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
