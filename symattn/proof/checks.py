"""How each step is proved, by the method it declares (symbolic, at sizes, by a definition,
certified, numeric), and how the theorem's claims are matched with what the chains establish:
the checks of :class:`~symattn.proof.engine.Derivation`, kept here as a mixin."""

from __future__ import annotations

import random
import re
import time
from itertools import product
from typing import Any

import sympy as sp
from sympy.stats.rv import RandomSymbol

from .._text import exception_line as _why
from ..core.digits import decimal_string, round_decimal
from ..errors import SymattnError
from .equivalence import (
    describe_point,
    numeric_difference,
    prove_equal,
)
from .failures import NO_CLAIMS, StepFailed
from .naming import NAME
from .operators import Ex, Var
from .records import StepReport
from .sides import (
    _NUMBER_KIND,
    _ORDERS,
    TOLERANCE,
    _floats,
    _free_of,
    _has_operators,
    _indexed,
    _matches,
    _plain,
    _printed,
    _reaching,
    _same,
    _short,
    _subs,
    _symbolic_shape,
)

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


class StepChecks:
    """The step checks of a derivation (mixed into :class:`~symattn.proof.engine.Derivation`)."""

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
