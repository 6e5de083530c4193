"""What a step shows against what it checks: labels that are names, printed names, the
derivation's abbreviations, and models and procedures that must see the sides they are given:
checks of :class:`~symattn.proof.engine.Derivation`, kept here as a mixin."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import sympy as sp

from .._text import exception_line as _why
from .failures import StepFailed
from .sides import (
    MODEL_SIZE,
    TRANSPOSED,
    _free_of,
    _matches,
    _named,
    _plants,
    _printed,
    _symmetric,
    _symmetric_side,
    _told_apart,
    _wrong_side,
)

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


class ShownChecks:
    """The checks of what a step shows (mixed into :class:`~symattn.proof.engine.Derivation`)."""

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
